// responseid-reused, context-drift, timestamp-skew, dev-flag and schema.
import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../src/main/clock';
import { defaultTimelineSettings } from '../../src/main/config';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';
import type { RecordedEvent } from '../../src/shared/events';
import { PageBuilder, findingsOf, run, T0 } from './timeline-events';

describe('responseid-reused', () => {
  it('flags a responseId first seen on a page with another URL', () => {
    const search = new PageBuilder({ pageLoadId: 'p1' });
    const pdp = new PageBuilder({
      pageLoadId: 'p2',
      pageUrl: 'http://localhost:3000/product/8128',
    });
    const first = search.render('r1', { at: 0 });
    const stale = pdp.cart('r1', '8128', { at: 60_000 });
    const found = findingsOf(
      [first, search.impression('r1', ['8128'], { at: 10 }), stale],
      {},
      'p2',
    ).filter((f) => f.rule === 'responseid-reused');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'error', eventIds: [first.id, stale.id] });
    expect(found[0]!.message).toContain('belongs to page p1');
  });

  it('flags a responseId from another session even on the same URL', () => {
    const a = new PageBuilder({ pageLoadId: 'p1', sessionId: 's1' });
    const b = new PageBuilder({ pageLoadId: 'p2', sessionId: 's2' });
    const found = findingsOf([a.render('r1', { at: 0 }), b.render('r1', { at: 5000 })], {}, 'p2');
    expect(found.map((f) => f.rule)).toContain('responseid-reused');
  });

  it('accepts the same page in the same session re-rendering a cached response (back button, tracking params)', () => {
    // production: the client's cache is off in development
    const a = new PageBuilder({
      pageLoadId: 'p1',
      pageUrl: 'http://shop/search?q=a#top',
      dev: false,
    });
    const b = new PageBuilder({
      pageLoadId: 'p2',
      pageUrl: 'http://shop/search?q=a&utm_source=mail',
      dev: false,
    });
    const events = [
      a.render('r1', { at: 0 }),
      a.impression('r1', ['x'], { at: 10 }),
      b.render('r1', { at: 30_000 }),
      b.impression('r1', ['x'], { at: 30_010 }),
    ];
    expect(findingsOf(events)).toEqual([]);
  });
});

describe('responseid-reused: the re-visit exemption keys on the search, not the path', () => {
  /**
   * a response rendered and impressed on page p1 at `first`, then rendered on a new page load at `second`,
   * in production (where the client caches search responses)
   */
  function revisit(first: string, second: string, sessions: [string, string] = ['s1', 's1']) {
    const a = new PageBuilder({
      pageLoadId: 'p1',
      pageUrl: first,
      sessionId: sessions[0],
      dev: false,
    });
    const b = new PageBuilder({
      pageLoadId: 'p2',
      pageUrl: second,
      sessionId: sessions[1],
      dev: false,
    });
    return findingsOf(
      [
        a.render('RX', { at: 0 }),
        a.impression('RX', ['x'], { at: 10 }),
        b.render('RX', { at: 30_000 }),
        b.impression('RX', ['x'], { at: 30_010 }),
      ],
      {},
      'p2',
    ).filter((f) => f.rule === 'responseid-reused');
  }

  it('flags two different searches on the same path sharing a responseId (the issue #11 report)', () => {
    const found = revisit('http://shop/search?q=shirt', 'http://shop/search?q=boots');
    expect(found).toHaveLength(1);
    expect(found[0]!.severity).toBe('error');
    expect(found[0]!.message).toContain('(search: q=shirt; this page: q=boots)');
  });

  it.each([
    ['another page', 'http://shop/search?q=shirt', 'http://shop/search?q=shirt&page=2'],
    [
      'another filter (Snap hash)',
      'http://shop/search?q=shirt',
      'http://shop/search?q=shirt#/filter:color:Blue',
    ],
    [
      'another sort',
      'http://shop/search?q=shirt#/sort:price:asc',
      'http://shop/search?q=shirt#/sort:price:desc',
    ],
    [
      'another page size',
      'http://shop/search?q=shirt#/pageSize:24',
      'http://shop/search?q=shirt#/pageSize:48',
    ],
    [
      'a filter in the query string',
      'http://shop/search?q=shirt',
      'http://shop/search?q=shirt&filter.color=Blue',
    ],
    ['a corrected query (rq)', 'http://shop/search?q=shirt', 'http://shop/search?q=shirt&rq=red'],
    ['a recommendation tag', 'http://shop/search?tag=a', 'http://shop/search?tag=b'],
    ['another path, same query', 'http://shop/search?q=shirt', 'http://shop/sale?q=shirt'],
  ])('flags %s', (_what, first, second) => {
    expect(revisit(first, second)).toHaveLength(1);
  });

  it.each([
    [
      'utm_* added',
      'http://shop/search?q=shirt',
      'http://shop/search?q=shirt&utm_source=mail&utm_campaign=x',
    ],
    [
      'gclid and fbclid',
      'http://shop/search?q=shirt&gclid=1',
      'http://shop/search?fbclid=2&q=shirt',
    ],
    [
      'other storefront parameters',
      'http://shop/search?q=shirt&ref=nav',
      'http://shop/search?q=shirt&view=grid',
    ],
    ['an anchor', 'http://shop/search?q=shirt', 'http://shop/search?q=shirt#top'],
    ['page=1 and no page', 'http://shop/search?q=shirt&page=1', 'http://shop/search?q=shirt'],
    [
      'parameters in another order',
      'http://shop/search?q=shirt#/filter:size:M/filter:color:Blue',
      'http://shop/search?q=shirt#/filter:color:Blue/filter:size:M',
    ],
    [
      'the same filter, encoded',
      'http://shop/search?q=red%20shirt',
      'http://shop/search?q=red+shirt',
    ],
  ])('exempts the same search with %s (a cached response re-rendered)', (_what, first, second) => {
    expect(revisit(first, second)).toEqual([]);
  });

  it('flags the same search from another session', () => {
    const url = 'http://shop/search?q=shirt';
    expect(revisit(url, url, ['s1', 's2'])).toHaveLength(1);
  });
});

describe('context-drift', () => {
  it('flags a sessionId change inside a page', () => {
    const p = new PageBuilder();
    const moved = p.impression('r1', ['a'], { at: 100, context: { sessionId: 'session-2' } });
    const found = findingsOf([p.render('r1', { at: 0 }), moved]).filter(
      (f) => f.rule === 'context-drift',
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      id: 'context-drift:sessionId',
      severity: 'error',
      eventIds: [moved.id],
    });
    expect(found[0]!.message).toContain('"session-1"');
  });

  it('flags a userId change and accepts an empty or changing shopperId', () => {
    const p = new PageBuilder();
    const events = [
      p.render('r1', { at: 0 }),
      p.impression('r1', ['a'], { at: 100, context: { shopperId: 'shopper-9' } }),
      p.click('r1', 'a', { at: 200, context: { userId: 'user-2' } }),
    ];
    expect(findingsOf(events).map((f) => f.id)).toEqual(['context-drift:userId']);
  });
});

describe('timestamp-skew', () => {
  it('flags a timestamp far from receive time', () => {
    const p = new PageBuilder();
    const old = p.render('r1', { at: 0, recv: 10 * 60_000 });
    const found = findingsOf([old, p.impression('r1', ['a'], { at: 10 * 60_000 })]).filter(
      (f) => f.rule === 'timestamp-skew',
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      id: 'timestamp-skew:far',
      severity: 'warning',
      eventIds: [old.id],
    });
  });

  it('flags a timestamp that is not RFC 3339', () => {
    const p = new PageBuilder();
    const bad = p.render('r1', { at: 0, context: { timestamp: '2026-11-21 04:00:00' } });
    const found = findingsOf([bad, p.impression('r1', ['a'], { at: 10 })]);
    expect(found.map((f) => f.id)).toEqual(['timestamp-skew:format']);
  });

  it('judges a moved clock from the offset recorded with the event: live, replayed and offline alike', () => {
    // the sandbox clock an hour ahead of real time; the storefront's clock right (real time)
    const HOUR = 3_600_000;
    const moved = (ev: RecordedEvent, clockOffsetMs: number): RecordedEvent => ({
      ...ev,
      clockOffsetMs,
    });
    const p = new PageBuilder({ pageLoadId: 'right-clock' });
    const right = [
      moved(p.render('r1', { at: 0, recv: HOUR + 40 }), HOUR),
      moved(p.impression('r1', ['a'], { at: 10, recv: HOUR + 50 }), HOUR),
    ];
    // a storefront 2 hours behind real time, received on the same moved clock
    const q = new PageBuilder({ pageLoadId: 'behind' });
    const behind = [
      moved(q.render('r2', { at: -2 * HOUR, recv: HOUR + 40 }), HOUR),
      moved(q.impression('r2', ['a'], { at: -2 * HOUR + 10, recv: HOUR + 50 }), HOUR),
    ];
    const skewOf = (pages: ReturnType<typeof run>, pageLoadId: string) =>
      pages
        .find((pg) => pg.pageLoadId === pageLoadId)!
        .findings.filter((f) => f.rule === 'timestamp-skew');
    // a finished engine (as `check` judges), and engines fed as the live sandbox and its replay are: one judgement
    const offline = run([...right, ...behind]);
    const clock = new SandboxClock({ start: T0 + HOUR + 60, frozen: true });
    const engine = new TimelineEngine({ clock, settings: defaultTimelineSettings() });
    for (const ev of [...right, ...behind]) engine.apply(ev);
    const replay = new TimelineEngine({ clock, settings: defaultTimelineSettings() });
    for (const ev of [...right, ...behind]) replay.apply(ev, { quiet: true });
    for (const pages of [offline, engine.pagesDto(), replay.pagesDto()]) {
      expect(skewOf(pages, 'right-clock')).toEqual([]);
      const far = skewOf(pages, 'behind');
      expect(far.map((f) => [f.id, f.eventIds])).toEqual([
        ['timestamp-skew:far', behind.map((e) => e.id)],
      ]);
      // the nearer of the two: 2 hours from real time (3 from sandbox time)
      expect(far[0]!.message).toContain('up to 120 min');
    }
  });

  it('judges an event recorded without an offset (an older export) by its receive time, as before', () => {
    const p = new PageBuilder();
    const render = p.render('r1', { at: 0, recv: 3_600_000 });
    const found = findingsOf([render, p.impression('r1', ['a'], { at: 10, recv: 3_600_000 })]);
    expect(found.filter((f) => f.rule === 'timestamp-skew').map((f) => f.eventIds)).toEqual([
      [render.id, expect.stringMatching(/^ev_/)],
    ]);
  });

  it('takes an event received on the sandbox clock as right too (a page given the sandbox clock)', () => {
    const p = new PageBuilder();
    const events = [
      { ...p.render('r1', { at: 3_600_000 }), clockOffsetMs: 3_600_000 },
      { ...p.impression('r1', ['a'], { at: 3_600_010 }), clockOffsetMs: 3_600_000 },
    ];
    expect(findingsOf(events).map((f) => f.rule)).not.toContain('timestamp-skew');
  });
});

describe('dev-flag', () => {
  it('is info on production-mode events and never changes the verdict', () => {
    const p = new PageBuilder({ dev: false });
    const [page] = run([p.render('r1', { at: 0 }), p.impression('r1', ['a'], { at: 10 })]);
    expect(page!.findings.map((f) => `${f.rule}/${f.severity}/${f.eventCount}`)).toEqual([
      'dev-flag/info/2',
    ]);
    expect(page!.verdict).toBe('pass');
  });

  it('is silent when every event carries dev: true', () => {
    const p = new PageBuilder({ dev: true });
    const [page] = run([p.render('r1', { at: 0 }), p.impression('r1', ['a'], { at: 10 })]);
    expect(page!.findings).toEqual([]);
  });
});

describe('schema', () => {
  it('groups rejected events by event and messages', () => {
    const p = new PageBuilder();
    const m = ['missing required key-value: context.timestamp'];
    const a = p.impression('r1', ['a'], { at: 0, accepted: false, errors: m });
    const b = p.impression('r1', ['b'], { at: 10, accepted: false, errors: m });
    const c = p.click('r1', 'a', { at: 20, accepted: false, errors: ['invalid JSON POST body'] });
    const found = findingsOf([a, b, c]).filter((f) => f.rule === 'schema');
    expect(found.map((f) => [f.severity, f.eventIds, f.eventCount])).toEqual([
      ['error', [a.id, b.id], 2],
      ['error', [c.id], 1],
    ]);
  });
});
