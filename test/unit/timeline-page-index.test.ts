// The page index answers `GET /_sandbox/timelines?verdict=…&siteId=…&rule=…&kind=…&limit=…` without
// reading every page, and reads skip pages it knows are judged: its answers must be those of an engine
// without the index (every page judged on every read) fed the same, after events, after pages go idle, after an upstream answer,
// after a catalog change re-judges all, and after a reset. The fault corpus gives pages of every verdict.
import { describe, expect, it, vi } from 'vitest';
import { corpusEvents } from '../helpers/corpus-events';
import { SandboxClock } from '../../src/main/clock';
import { defaultTimelineSettings } from '../../src/main/config';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';
import { pageSummary } from '../../src/main/tracking/timeline/dto';
import type { RecordedEvent } from '../../src/shared/events';
import type { TimelineRuleId, Verdict } from '../../src/shared/timeline';
import { RULE_IDS } from '../../src/main/tracking/timeline/rule-list';
import { RESPONSE_KINDS, type ResponseKind } from '../../src/shared/kinds';
import { mapLevels } from '../../src/shared/rule-levels';
import { PageBuilder } from './timeline-events';
import { kthSmallest } from '../../src/main/tracking/timeline/verdict-index';

type Filter = { verdict?: Verdict; siteId?: string; rule?: TimelineRuleId; kind?: ResponseKind };

/** What the scan (the list route's other path) answers. */
function scan(engine: TimelineEngine, filter: Filter, limit: number) {
  const { verdict, ...rest } = filter;
  const verdicts: Record<Verdict, number> = { pass: 0, warn: 0, fail: 0 };
  const chosen: string[] = [];
  for (const page of engine.matching(rest)) {
    const v = page.verdict;
    verdicts[v]++;
    if (verdict === undefined || v === verdict) chosen.push(page.key);
  }
  return {
    pages: chosen.slice(Math.max(0, chosen.length - limit)),
    total: chosen.length,
    verdicts,
  };
}

function indexed(engine: TimelineEngine, filter: Filter, limit: number) {
  for (const _ of engine.settle());
  const { pages, total, verdicts } = engine.byIndex(filter, limit);
  return { pages: pages.map((p) => p.key), total, verdicts };
}

/** Every filter of verdict, site, rule and kind the reference's pages call for, and some none match. */
function filters(reference: TimelineEngine): Filter[] {
  const pages = reference.list();
  const sites = [undefined, ...new Set(pages.map((p) => p.siteId)), 'nosuchsite'];
  const rules = new Set<TimelineRuleId>();
  const kinds = new Set<ResponseKind>();
  for (const p of pages) {
    const summary = pageSummary(p);
    summary.rules.forEach((r) => rules.add(r));
    summary.kinds.forEach((k) => kinds.add(k));
  }
  // a rule and a kind no page has (still a valid id and kind)
  rules.add(RULE_IDS.find((r) => !rules.has(r))!);
  kinds.add(RESPONSE_KINDS.find((k) => !kinds.has(k)) ?? 'bundles');
  const out: Filter[] = [];
  for (const siteId of sites)
    for (const verdict of [undefined, 'pass', 'warn', 'fail'] as const) {
      out.push({ siteId, verdict });
      for (const rule of rules) out.push({ siteId, verdict, rule });
      for (const kind of kinds) out.push({ siteId, verdict, kind });
    }
  // a rule and a kind together
  for (const rule of rules) for (const kind of kinds) out.push({ rule, kind });
  return out.map((f) =>
    Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)),
  ) as Filter[];
}

function same(engine: TimelineEngine, reference: TimelineEngine): Record<Verdict, number> {
  let counts: Record<Verdict, number> | undefined;
  // every answer labelled with its filter, compared at once (one expect, not two per filter: ~12 µs a call)
  const got: unknown[] = [];
  const want: unknown[] = [];
  for (const filter of filters(reference))
    for (const limit of [1, 3, 40, 10_000]) {
      const what = `${JSON.stringify(filter)} limit=${limit}`;
      const slow = scan(reference, filter, limit);
      got.push([what, indexed(engine, filter, limit)]);
      want.push([what, slow]);
      // reads through the index (which skip judged pages) see what the reference sees
      got.push([`scan, ${what}`, scan(engine, filter, limit)]);
      want.push([`scan, ${what}`, slow]);
      if (Object.keys(filter).length === 0) counts = slow.verdicts;
    }
  expect(got).toEqual(want);
  return counts!;
}

/** An engine on `clock` with no-impression an error: a page turns from pass to fail when it goes idle. */
function strictEngine(clock: SandboxClock, pageIndex: boolean): TimelineEngine {
  return new TimelineEngine({
    clock,
    settings: defaultTimelineSettings(),
    levels: mapLevels({ 'no-impression': 'error' }, 'test'),
    pageIndex,
  });
}

describe('timeline page index', () => {
  it('answers as the scan does, as pages change, go idle, are re-judged and reset', () => {
    const events = corpusEvents();
    expect(events.length).toBeGreaterThan(400);
    const clock = new SandboxClock({ start: Date.parse('2026-11-21T04:00:00Z'), frozen: true });
    // no-impression as an error: a page turns from pass to fail when it goes idle (the index must follow)
    const make = (pageIndex: boolean) => strictEngine(clock, pageIndex);
    const engine = make(true);
    const reference = make(false);
    const both = (f: (e: TimelineEngine) => void) => [engine, reference].forEach(f);
    try {
      const half = Math.floor(events.length / 2);
      // a page rendered just now, without impressions
      const idlePage = new PageBuilder({ pageLoadId: 'idle-page' }).render('r-idle', { at: 0 });
      both((e) => e.apply(idlePage));
      // a second site's pages, one of them going idle without impressions too
      for (const n of [1, 2, 3]) {
        const other = new PageBuilder({ siteId: 'other9', pageLoadId: `other-${n}` });
        both((e) => e.apply(other.render(`ro-${n}`, { at: n })));
        if (n !== 2) both((e) => e.apply(other.impression(`ro-${n}`, ['a'], { at: n + 10 })));
      }
      for (const ev of events.slice(0, half)) both((e) => e.apply(ev));
      const busy = same(engine, reference);
      // an hour on: pages awaiting impressions went idle (judged when read)
      clock.advance(3_600_000);
      const idle = same(engine, reference);
      expect(idle.fail).toBeGreaterThan(busy.fail);
      // a report judges every page as finished for a moment: the index keeps what the pages are
      both((e) => e.list().forEach((p) => e.finishedDto(p)));
      expect(same(engine, reference)).toEqual(idle);
      for (const ev of events.slice(half)) both((e) => e.apply(ev));
      clock.advance(3_600_000);
      same(engine, reference);
      // the real service rejected what the sandbox accepted (forwarding): the page turns to fail
      // rendered now (two hours on): awaiting its impressions, not idle, it passes until the answer
      const forwarded = new PageBuilder({ pageLoadId: 'forwarded' }).render('r-fwd', {
        at: 7_200_000,
      });
      both((e) => e.apply(forwarded));
      const before = same(engine, reference);
      const answered = {
        ...forwarded,
        upstream: { outcome: 'rejected', status: 400, body: { success: false }, url: 'x' },
      } as RecordedEvent;
      both((e) => e.upstreamAnswered(answered));
      expect(same(engine, reference).fail).toBe(before.fail + 1);
      both((e) => e.invalidate());
      const all = same(engine, reference);
      expect(all.pass).toBeGreaterThan(0);
      expect(all.fail).toBeGreaterThan(0);
      const site = engine.list()[0]!.siteId;
      both((e) => e.reset(site));
      same(engine, reference);
      both((e) => e.reset());
      expect(same(engine, reference)).toEqual({ pass: 0, warn: 0, fail: 0 });
    } finally {
      both((e) => e.dispose());
      clock.dispose();
    }
  });
});

describe('pages gone idle in a burst the loop has not finished', () => {
  // A clock moved on an hour makes many pages idle at once; the idle queue takes them in slices that give
  // the loop back. A read that comes before the last slice must still see every one of them idle: with
  // `no-impression` an error, each page rendered without impressions fails, by index, scan and site.
  it('are all judged idle by the next read, with the index and without', () => {
    const clock = new SandboxClock({ start: Date.parse('2026-11-21T04:00:00Z'), frozen: true });
    const make = (pageIndex: boolean) => strictEngine(clock, pageIndex);
    const engines = [make(true), make(false)];
    // every look at the slice's clock finds a slice used up: the burst stops after one page
    let t = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => (t += 1000));
    try {
      for (const e of engines)
        for (let n = 0; n < 12; n++)
          e.apply(new PageBuilder({ pageLoadId: `p-${n}` }).render(`r-${n}`, { at: n }));
      clock.advance(3_600_000);
      for (const e of engines) {
        if (e === engines[0])
          expect(indexed(e, {}, 50).verdicts).toEqual({ pass: 0, warn: 0, fail: 12 });
        expect(scan(e, {}, 50).verdicts).toEqual({ pass: 0, warn: 0, fail: 12 });
        expect(e.list({ verdict: 'fail' })).toHaveLength(12);
      }
    } finally {
      now.mockRestore();
      for (const e of engines) e.dispose();
      clock.dispose();
    }
  });
});

describe('a listed page judged when its DTO is made', () => {
  // The list route picks its pages (settle, byIndex) and builds their DTOs after, giving the event loop
  // back between them: a beacon applied in between is in the DTO's events, so its findings must be too
  // (CI once listed a storefront's page with its impression but judged as clicked without it).
  it('shows the findings of the events it shows, in full and in summary', () => {
    const clock = new SandboxClock({ start: Date.parse('2026-11-21T04:00:00Z'), frozen: true });
    const engine = new TimelineEngine({ clock, settings: defaultTimelineSettings() });
    try {
      const b = new PageBuilder({ pageLoadId: 'clicked' });
      engine.apply(b.render('r1', { at: 0 }));
      engine.apply(b.impression('r1', ['a'], { at: 1500 }));
      engine.apply(b.click('r1', 'b', { at: 3000 }));
      for (const _ of engine.settle());
      const [page] = engine.byIndex({ siteId: 'demo42' }, 50).pages;
      expect(engine.pageDto(page!).findings.map((f) => f.rule)).toEqual([
        'click-not-impressed-at-exit',
      ]);
      // picked; then, before its DTO is made, the impression of the clicked tile arrives
      engine.apply(b.impression('r1', ['b'], { at: 2000 }));
      const dto = engine.pageDto(page!);
      expect(dto.responses[0]!.events.filter((e) => e.event === 'impression')).toHaveLength(2);
      expect(dto.findings).toEqual([]);
      expect(dto.verdict).toBe('pass');
      engine.apply(b.click('r1', 'c', { at: 4000 }));
      expect(engine.summary(page!).rules).toEqual(['click-not-impressed-at-exit']);
    } finally {
      engine.dispose();
      clock.dispose();
    }
  });
});

describe('kthSmallest (the newest pages of an index)', () => {
  it('finds the k-th smallest of ordered, reversed, repeated and shuffled values', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const cases: number[][] = [
      [5],
      [1, 2],
      [2, 1],
      [3, 3, 3, 3],
      Array.from({ length: 1000 }, (_, i) => i),
      Array.from({ length: 1000 }, (_, i) => 1000 - i),
      Array.from({ length: 1000 }, (_, i) => i % 7),
      Array.from({ length: 2000 }, () => Math.floor(random() * 500)),
      Array.from({ length: 2000 }, () => random()),
    ];
    for (const values of cases) {
      const sorted = [...values].sort((a, b) => a - b);
      for (const k of new Set([0, 1, values.length >> 1, values.length - 2, values.length - 1]))
        if (k >= 0 && k < values.length)
          expect(kthSmallest(Float64Array.from(values), k), `k=${k} of ${values.length}`).toBe(
            sorted[k],
          );
    }
    expect(() => kthSmallest(new Float64Array(3), 3)).toThrow(RangeError);
  });
});
