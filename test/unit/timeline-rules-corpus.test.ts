// Rules added or sharpened by the fault corpus, each exemption tested from both sides: impression-burst,
// test-without-dev, no-impression and missing-render with the issued response, the preflight hint of request-refused.
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../src/shared/events';
import type { IssuedResponse } from '../../src/main/search/responses';
import { checkOffline } from '../../src/main/tracking/timeline/offline-check';
import { PageBuilder, T0 } from './timeline-events';

function issued(responseId: string, over: Partial<IssuedResponse> = {}): IssuedResponse {
  return {
    responseId,
    siteId: 'demo42',
    query: 'sock',
    page: 1,
    perPage: 24,
    issuedAt: T0 - 1000,
    results: Array.from({ length: 24 }, (_, i) => ({
      uid: `S${i}`,
      sku: `S${i}`,
      parentId: null,
      children: [],
    })),
    inline: [],
    slots: { header: [], banner: [], footer: [], left: [] },
    redirect: null,
    test: true,
    ...over,
  };
}

const rules = (events: RecordedEvent[], responses: IssuedResponse[] = []) =>
  checkOffline(events, responses, T0 + 120_000)
    .flatMap((p) => p.findings)
    .map((f) => [f.rule, f.severity]);

const uids = (n: number) => Array.from({ length: n }, (_, i) => `S${i}`);

describe('impression-burst', () => {
  it('flags 20 tiles impressed within 500 ms of the render (every result at load), and leads', () => {
    const p = new PageBuilder();
    const events = [p.render('r1', { at: 0 }), p.impression('r1', uids(20), { at: 30 })];
    expect(rules(events)).toEqual([
      ['impression-burst', 'warning'],
      ['impression-before-visible', 'warning'],
    ]);
    // one bug: the burst names the cause, the early impression follows from it
    const [burst, early] = checkOffline(events, [], T0 + 120_000)[0]!.findings;
    expect(early!.causedBy).toBe(burst!.id);
    expect(burst!.causedBy).toBeUndefined();
  });

  it('counts impressions queued just before the render too (impressed at load, render called after)', () => {
    const p = new PageBuilder();
    const found = rules([p.impression('r1', uids(24), { at: 0 }), p.render('r1', { at: 20 })]);
    // the impression also arrived first: the order is unambiguous, so it is `order` as well
    expect(found).toEqual([
      ['order', 'error'],
      ['impression-burst', 'warning'],
    ]);
  });

  it('stays silent for 19 tiles at once, and for 20 tiles impressed after 500 ms (the client waits 1 s)', () => {
    const a = new PageBuilder({ pageLoadId: 'a' });
    // 19 tiles at once are no burst; impressed 30 ms after the render, they were not seen for a second
    expect(rules([a.render('r1', { at: 0 }), a.impression('r1', uids(19), { at: 30 })])).toEqual([
      ['impression-before-visible', 'warning'],
    ]);
    const b = new PageBuilder({ pageLoadId: 'b' });
    expect(rules([b.render('r1', { at: 0 }), b.impression('r1', uids(24), { at: 1010 })])).toEqual(
      [],
    );
    const c = new PageBuilder({ pageLoadId: 'c' });
    const split = [
      c.render('r1', { at: 0 }),
      c.impression('r1', uids(10), { at: 400 }),
      c.impression('r1', uids(20).slice(10), { at: 600 }),
    ];
    expect(rules(split).filter(([rule]) => rule === 'impression-burst')).toEqual([]);
  });
});

describe('test-without-dev', () => {
  it('flags production beacons on a search requested with test=true', () => {
    const p = new PageBuilder({ dev: false });
    const events = [p.render('r1', { at: 0 }), p.impression('r1', ['S0'], { at: 1100 })];
    expect(rules(events, [issued('r1')])).toEqual([
      ['test-without-dev', 'warning'],
      ['dev-flag', 'info'],
    ]);
  });

  it('is silent when both are development, or both production', () => {
    const dev = new PageBuilder({ pageLoadId: 'dev' });
    // another visit: one visit mixing both modes is visit-dev-mixed
    const prod = new PageBuilder({ pageLoadId: 'prod', sessionId: 'session-2', dev: false });
    const events = [
      dev.render('r1', { at: 0 }),
      dev.impression('r1', ['S0'], { at: 1100 }),
      prod.render('r2', { at: 0 }),
      prod.impression('r2', ['S0'], { at: 1100 }),
    ];
    expect(rules(events, [issued('r1'), issued('r2', { test: false })])).toEqual([
      ['dev-flag', 'info'],
    ]);
  });
});

describe('no-impression with the issued response', () => {
  it('warns when the response had tiles, is silent when it had none, and stays info without it', () => {
    const p = new PageBuilder({ pageLoadId: 'with' });
    expect(rules([p.render('r1', { at: 0 })], [issued('r1')])).toEqual([
      ['no-impression-of-results', 'warning'],
    ]);
    const none = new PageBuilder({ pageLoadId: 'none' });
    expect(rules([none.render('r0', { at: 0 })], [issued('r0', { results: [] })])).toEqual([]);
    // a no-results page with a banner still has something to impress
    const banner = new PageBuilder({ pageLoadId: 'banner' });
    const withBanner = issued('rb', {
      results: [],
      slots: { header: ['81001'], banner: [], footer: [], left: [] },
    });
    expect(rules([banner.render('rb', { at: 0 })], [withBanner])).toEqual([
      ['no-impression-of-results', 'warning'],
    ]);
    const offline = new PageBuilder({ pageLoadId: 'offline' });
    expect(rules([offline.render('rx', { at: 0 })])).toEqual([['no-impression', 'info']]);
  });
});

describe('missing-render', () => {
  it('is an error for page 1 of a search when the page rendered the previous response instead', () => {
    const p = new PageBuilder();
    const events = [
      p.render('r1', { at: 0 }),
      p.impression('r1', ['S0'], { at: 1100 }),
      p.render('r1', { at: 5000 }), // fired before the second response arrived
      p.impression('r2', ['S1'], { at: 6200 }),
    ];
    const responses = [issued('r1'), issued('r2', { query: 'boot' })];
    // the stale render is also a render of r1 the client could not have sent (development: no cache)
    expect(rules(events, responses)).toEqual([
      ['missing-render', 'error'],
      ['duplicate-render', 'warning'],
    ]);
  });

  it('stays info for a later page (infinite-scroll backfill) and without the issued response', () => {
    const p = new PageBuilder();
    const events = [
      p.render('r1', { at: 0 }),
      p.impression('r1', ['S0'], { at: 1100 }),
      p.impression('r2', ['S1'], { at: 1200 }),
    ];
    expect(rules(events, [issued('r1'), issued('r2', { page: 2 })])).toEqual([
      ['missing-render-backfill', 'info'],
    ]);
    expect(rules(events)).toEqual([['missing-render-backfill', 'info']]);
  });

  it('does not count a render with an empty responseId as rendering something', () => {
    const p = new PageBuilder();
    const events = [p.render('', { at: 0 }), p.impression('r1', ['S0'], { at: 1100 })];
    expect(rules(events)).toContainEqual(['missing-render', 'error']);
  });

  it('names a pageLoadId regenerated per event when the render went to another page of the session', () => {
    const a = new PageBuilder({ pageLoadId: 'pl-1' });
    const b = new PageBuilder({ pageLoadId: 'pl-2' });
    const [page] = checkOffline(
      [a.render('r1', { at: 0 }), b.impression('r1', ['S0'], { at: 1100 })],
      [],
      T0 + 120_000,
    ).filter((p) => p.pageLoadId === 'pl-2');
    const f = page!.findings.find((x) => x.rule === 'missing-render')!;
    expect(f.severity).toBe('error');
    expect(f.messageId).toBe('otherLoad');
    expect(f.message).toContain('rendered 1.1 s earlier at the same URL on page load pl-1');
    expect(f.message).toContain('sent with a new pageLoadId');
    expect(f.fix).toMatch(/^make one tracker per page load/);
  });
});

describe('request-refused: a browser CORS preflight', () => {
  it('explains the OPTIONS the service refused (405) and says to send text/plain', () => {
    const p = new PageBuilder();
    const preflight = {
      ...p.render('r1', { at: 0, accepted: false }),
      status: 405,
      body: null,
      errors: [{ message: 'invalid request method: `OPTIONS` - requires `POST`', path: '' }],
    };
    const [page] = checkOffline([preflight], [], T0 + 120_000);
    expect(page!.findings.map((x) => x.rule)).toEqual(['request-refused']);
    const f = page!.findings[0]!;
    expect(f.message).toContain('browser’s CORS preflight');
    expect(f.message).toContain('answers 405 InvalidMethodError');
    expect(f.fix).toContain('send beacons as text/plain');
    expect(f.message).not.toContain('answers 400');
  });
});
