import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../src/main/clock';
import { defaultTimelineSettings } from '../../src/main/config';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';
import { PageBuilder, engineAt, run, T0 } from './timeline-events';

describe('timeline engine: grouping and ordering', () => {
  it('groups by page and responseId, orders by timestamp and keeps arrival beside it', () => {
    const p = new PageBuilder();
    const render = p.render('r1', { at: 0, recv: 400 });
    const imp = p.impression('r1', ['a', 'b'], { at: 100, recv: 410 });
    const click = p.click('r1', 'a', { at: 300, recv: 320 }); // sent at once: arrives first
    const [page] = run([click, render, imp]);
    expect(page!.verdict).toBe('pass');
    expect(page!.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(page!.responses).toHaveLength(1);
    const events = page!.responses[0]!.events;
    expect(events.map((e) => e.event)).toEqual(['render', 'impression', 'clickthrough']);
    expect(events.map((e) => e.arrival)).toEqual([2, 3, 1]);
    expect(events.map((e) => e.arrivedLate)).toEqual([true, true, false]);
    expect(page!.counts).toMatchObject({ events: 3, accepted: 3, rejected: 0, responses: 1 });
    expect(page!.firstSeen).toBe(new Date(T0 + 320).toISOString());
    expect(page!.lastSeen).toBe(new Date(T0 + 410).toISOString());
  });

  it('ties on timestamp are ordered by arrival', () => {
    const p = new PageBuilder();
    const a = p.render('r1', { at: 0 });
    const b = p.impression('r1', ['x'], { at: 0 });
    const [page] = run([a, b]);
    expect(page!.responses[0]!.events.map((e) => e.id)).toEqual([a.id, b.id]);
  });

  it('keeps pages of different sites apart even with the same pageLoadId', () => {
    const a = new PageBuilder({ siteId: 'aaaaaa' });
    const b = new PageBuilder({ siteId: 'bbbbbb' });
    const pages = run([a.render('r1', { at: 0 }), b.render('r2', { at: 0 })]);
    expect(pages.map((p) => p.siteId)).toEqual(['aaaaaa', 'bbbbbb']);
  });

  it('ignores categories that are not timelines (cart, product) and puts rejected events on their page, marked, with a schema finding', () => {
    const p = new PageBuilder();
    const other = { ...p.render('r1', { at: 0 }), category: 'cart', event: 'add' };
    const bad = p.impression('r1', ['a'], {
      at: 50,
      accepted: false,
      errors: ['missing required key-value: data.banners'],
    });
    const pages = run([other, p.render('r1', { at: 0 }), bad]);
    expect(pages).toHaveLength(1);
    const page = pages[0]!;
    expect(page.verdict).toBe('fail');
    const rejected = page.responses[0]!.events.find((e) => e.id === bad.id)!;
    expect(rejected.accepted).toBe(false);
    expect(rejected.errors).toEqual(['missing required key-value: data.banners']);
    const schema = page.findings.filter((f) => f.rule === 'schema');
    expect(schema).toHaveLength(1);
    expect(schema[0]!.eventIds).toEqual([bad.id]);
    expect(schema[0]!.message).toContain('missing required key-value: data.banners');
  });

  it('puts an unreadable rejected body on the site page without pageLoadId', () => {
    const p = new PageBuilder();
    const junk = p.event(
      'render',
      {},
      { at: 0, accepted: false, body: 'not json', errors: ['invalid JSON POST body'] },
    );
    const [page] = run([junk]);
    expect(page!.pageLoadId).toBe('');
    expect(page!.findings.map((f) => f.rule)).toEqual(['schema']);
  });

  it('reports a change of a page to the listener with its summary, and resets by site', () => {
    const { clock, engine } = engineAt();
    const seen: string[] = [];
    const e2 = new (
      engine.constructor as typeof import('../../src/main/tracking/timeline/engine').TimelineEngine
    )({
      clock,
      settings: engine.settings,
      onChange: (s) => seen.push(`${s.pageLoadId}:${s.verdict}:${s.rules.join(',')}`),
    });
    const p = new PageBuilder();
    const q = new PageBuilder({ siteId: 'other1', pageLoadId: 'page-2' });
    e2.apply(p.click('r1', 'a', { at: 0 }));
    e2.apply(p.render('r1', { at: -100 }));
    e2.apply(q.render('r9', { at: 0 }));
    expect(seen).toEqual([
      'page-1:fail:missing-render,click-not-impressed-at-exit',
      'page-1:pass:click-not-impressed-at-exit',
      'page-2:pass:',
    ]);
    e2.reset('demo42');
    expect(e2.list().map((pg) => pg.pageLoadId)).toEqual(['page-2']);
    e2.reset();
    expect(e2.size()).toBe(0);
  });

  it('filters by verdict, session, pageLoadId and free text', () => {
    const { engine } = engineAt();
    const good = new PageBuilder({
      pageLoadId: 'good',
      sessionId: 's1',
      pageUrl: 'http://shop/search?q=boots',
    });
    const bad = new PageBuilder({ pageLoadId: 'bad', sessionId: 's2' });
    engine.apply(good.render('r-good', { at: 0 }));
    engine.apply(good.impression('r-good', ['a'], { at: 10 }));
    engine.apply(bad.click('r-bad', 'x', { at: 0 }));
    expect(engine.list({ verdict: 'fail' }).map((p) => p.pageLoadId)).toEqual(['bad']);
    expect(engine.list({ verdict: 'pass' }).map((p) => p.pageLoadId)).toEqual(['good']);
    expect(engine.list({ sessionId: 's1' }).map((p) => p.pageLoadId)).toEqual(['good']);
    expect(engine.list({ q: 'boots' }).map((p) => p.pageLoadId)).toEqual(['good']);
    // a null for each page passed over: a reader that gives the loop back between pages is asked after each
    const steps = (f: object) => [...engine.matchingSteps(f)].map((p) => p?.pageLoadId ?? null);
    expect(steps({ q: 'boots' })).toEqual(['good', null]);
    expect(steps({ q: 'nothing like it' })).toEqual([null, null]);
    expect(steps({})).toEqual(['good', 'bad']);
    expect(engine.list({ q: 'missing-render' }).map((p) => p.pageLoadId)).toEqual(['bad']);
    expect(engine.list({ q: 'r-bad' }).map((p) => p.pageLoadId)).toEqual(['bad']);
    expect(engine.find('good').length).toBe(1);
  });
});

describe('timeline engine: memory bounds', () => {
  it('forgets the oldest pages beyond maxEvents, never the page an event lands on', async () => {
    const { TimelineEngine } = await import('../../src/main/tracking/timeline/engine');
    const { clock, engine: base } = engineAt();
    const engine = new TimelineEngine({ clock, settings: base.settings, maxEvents: 4 });
    const a = new PageBuilder({ pageLoadId: 'a' });
    const b = new PageBuilder({ pageLoadId: 'b' });
    const c = new PageBuilder({ pageLoadId: 'c' });
    engine.apply(a.render('ra', { at: 0 }));
    engine.apply(a.impression('ra', ['1'], { at: 10 }));
    engine.apply(b.render('rb', { at: 20 }));
    engine.apply(b.impression('rb', ['2'], { at: 30 }));
    expect(engine.list().map((p) => p.pageLoadId)).toEqual(['a', 'b']);
    engine.apply(c.render('rc', { at: 40 }));
    expect(engine.list().map((p) => p.pageLoadId)).toEqual(['b', 'c']);
    for (let i = 0; i < 5; i++) engine.apply(c.impression('rc', [`x${i}`], { at: 50 + i }));
    expect(engine.list().map((p) => p.pageLoadId)).toEqual(['c']);
    engine.reset();
    engine.apply(a.render('ra2', { at: 100 }));
    expect(engine.size()).toBe(1);
  });

  it('keeps the first pages of as many responseIds as it keeps events; older ones go, at most 1,024 later', async () => {
    const { TimelineEngine } = await import('../../src/main/tracking/timeline/engine');
    const { clock, engine: base } = engineAt();
    const MAX = 10;
    const SLACK = 1_024;
    // a page in a session of its own per responseId, one render each; then pages reusing two of them
    const reusedOn = (reused: number): string[] => {
      const engine = new TimelineEngine({ clock, settings: base.settings, maxEvents: MAX });
      const pages = MAX + SLACK + 2;
      for (let i = 0; i < pages; i++)
        engine.apply(
          new PageBuilder({ pageLoadId: `p${i}`, sessionId: `s${i}` }).render(`r${i}`, { at: i }),
        );
      const later = new PageBuilder({ pageLoadId: 'later', sessionId: 'other' });
      engine.apply(later.render(`r${pages - 1 - reused}`, { at: pages }));
      engine.finish();
      const found = engine.pagesDto().find((p) => p.pageLoadId === 'later')!.findings;
      engine.dispose();
      return found.filter((f) => f.rule === 'responseid-reused').map((f) => f.message);
    };
    // the responseId first seen MAX responseIds before this one: kept
    expect(reusedOn(MAX - 1)[0]).toContain(`belongs to page p${MAX + SLACK + 2 - MAX}`);
    // one first seen more than MAX + SLACK responseIds before: forgotten with the pages of its time
    expect(reusedOn(MAX + SLACK + 1)).toEqual([]);
  });
});

describe('timeline engine: batched change reports', () => {
  it('reports every page of a burst exactly once, with its latest state, even when a flush is split', async () => {
    const PAGES = 3000;
    const reported = new Map<string, number>();
    const last = new Map<string, number>();
    let resolveAll!: () => void;
    const all = new Promise<void>((resolve) => (resolveAll = resolve));
    const engine = new TimelineEngine({
      clock: new SandboxClock({ start: T0 + 60_000, frozen: true }),
      settings: defaultTimelineSettings(),
      batchChangesMs: 1,
      onChange: (s) => {
        reported.set(s.pageLoadId, (reported.get(s.pageLoadId) ?? 0) + 1);
        last.set(s.pageLoadId, s.counts.events);
        if (reported.size === PAGES) resolveAll();
      },
    });
    for (let n = 0; n < PAGES; n++) {
      const p = new PageBuilder({ pageLoadId: `p-${n}` });
      engine.apply(p.render(`r-${n}`, { at: 0 }));
      engine.apply(p.impression(`r-${n}`, ['a', 'b'], { at: 10 }));
    }
    await all;
    engine.dispose();
    expect([...reported.values()].every((n) => n === 1)).toBe(true);
    expect([...last.values()].every((n) => n === 2)).toBe(true);
  });
});

describe('timeline engine: change reports only while someone listens', () => {
  it('reports nothing to nobody, reads stay exact, and reports resume with the next change', () => {
    let listening = false;
    const seen: string[] = [];
    const engine = new TimelineEngine({
      clock: new SandboxClock({ start: T0 + 60_000, frozen: true }),
      settings: defaultTimelineSettings(),
      onChange: (s) => seen.push(`${s.pageLoadId}:${s.verdict}`),
      reportChanges: () => listening,
    });
    const p = new PageBuilder();
    engine.apply(p.click('r1', 'a', { at: 0 }));
    expect(seen).toEqual([]);
    // the read judges the page itself: the click without a render fails it
    expect(engine.pagesDto().map((pg) => [pg.pageLoadId, pg.verdict])).toEqual([
      ['page-1', 'fail'],
    ]);
    listening = true;
    engine.apply(p.render('r1', { at: -1_100 }));
    expect(seen).toEqual(['page-1:pass']);
    listening = false;
    engine.apply(p.click('r2', 'b', { at: 50 }));
    expect(seen).toEqual(['page-1:pass']);
    expect(engine.pagesDto()[0]!.verdict).toBe('warn'); // judged at the read, unreported
  });
});
