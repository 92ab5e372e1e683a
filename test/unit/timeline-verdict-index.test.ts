// The verdict index answers `GET /_sandbox/timelines?verdict=…&limit=…` without reading every page, and
// reads skip pages it knows are judged: its answers must be those of an engine without the index (every
// page judged on every read) fed the same, after events, after pages go idle, after an upstream answer,
// after a catalog change re-judges all, and after a reset. The fault corpus gives pages of every verdict.
import { describe, expect, it } from 'vitest';
import { corpusEvents } from '../helpers/corpus-events';
import { SandboxClock } from '../../src/main/clock';
import { defaultTimelineSettings } from '../../src/main/config';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';
import { verdictOf } from '../../src/main/tracking/timeline/dto';
import type { RecordedEvent } from '../../src/shared/events';
import type { Verdict } from '../../src/shared/timeline';
import { mapLevels } from '../../src/shared/rule-levels';
import { PageBuilder } from './timeline-events';

/** What the scan (the list route's other path) answers. */
function scan(
  engine: TimelineEngine,
  verdict: Verdict | undefined,
  limit: number,
  siteId?: string,
) {
  const verdicts: Record<Verdict, number> = { pass: 0, warn: 0, fail: 0 };
  const chosen: string[] = [];
  for (const page of engine.matching(siteId === undefined ? {} : { siteId })) {
    const v = verdictOf(page);
    verdicts[v]++;
    if (verdict === undefined || v === verdict) chosen.push(page.key);
  }
  return {
    pages: chosen.slice(Math.max(0, chosen.length - limit)),
    total: chosen.length,
    verdicts,
  };
}

function indexed(
  engine: TimelineEngine,
  verdict: Verdict | undefined,
  limit: number,
  siteId?: string,
) {
  for (const _ of engine.settle());
  const { pages, total, verdicts } = engine.byVerdict(verdict, limit, siteId);
  return { pages: pages.map((p) => p.key), total, verdicts };
}

function same(engine: TimelineEngine, reference: TimelineEngine): Record<Verdict, number> {
  let counts: Record<Verdict, number> | undefined;
  const sites = [undefined, ...new Set(reference.list().map((p) => p.siteId)), 'nosuchsite'];
  for (const siteId of sites)
    for (const verdict of [undefined, 'pass', 'warn', 'fail'] as const)
      for (const limit of [1, 3, 40, 10_000]) {
        const what = `site=${siteId} verdict=${verdict} limit=${limit}`;
        const fast = indexed(engine, verdict, limit, siteId);
        const slow = scan(reference, verdict, limit, siteId);
        expect(fast, what).toEqual(slow);
        // reads through the index (which skip judged pages) see what the reference sees
        expect(scan(engine, verdict, limit, siteId), `scan, ${what}`).toEqual(slow);
        if (siteId === undefined) counts = slow.verdicts;
      }
  return counts!;
}

describe('timeline verdict index', () => {
  it('answers as the scan does, as pages change, go idle, are re-judged and reset', () => {
    const events = corpusEvents();
    expect(events.length).toBeGreaterThan(400);
    const clock = new SandboxClock({ start: Date.parse('2026-11-21T04:00:00Z'), frozen: true });
    // no-impression as an error: a page turns from pass to fail when it goes idle (the index must follow)
    const make = (verdictIndex: boolean) =>
      new TimelineEngine({
        clock,
        settings: defaultTimelineSettings(),
        levels: mapLevels({ 'no-impression': 'error' }, 'test'),
        verdictIndex,
      });
    const engine = make(true);
    const reference = make(false);
    const both = (f: (e: TimelineEngine) => void) => [engine, reference].forEach(f);
    try {
      const half = Math.floor(events.length / 2);
      // a page rendered just now, without impressions
      const idlePage = new PageBuilder({ pageLoadId: 'idle-page' }).render('r-idle', { at: 0 });
      both((e) => e.apply(idlePage, { live: true }));
      // a second site's pages, one of them going idle without impressions too
      for (const n of [1, 2, 3]) {
        const other = new PageBuilder({ siteId: 'other9', pageLoadId: `other-${n}` });
        both((e) => e.apply(other.render(`ro-${n}`, { at: n }), { live: true }));
        if (n !== 2)
          both((e) => e.apply(other.impression(`ro-${n}`, ['a'], { at: n + 10 }), { live: true }));
      }
      for (const ev of events.slice(0, half)) both((e) => e.apply(ev, { live: true }));
      const busy = same(engine, reference);
      // an hour on: pages awaiting impressions went idle (judged when read)
      clock.advance(3_600_000);
      const idle = same(engine, reference);
      expect(idle.fail).toBeGreaterThan(busy.fail);
      for (const ev of events.slice(half)) both((e) => e.apply(ev, { live: true }));
      clock.advance(3_600_000);
      same(engine, reference);
      // the real service rejected what the sandbox accepted (forwarding): the page turns to fail
      const forwarded = new PageBuilder({ pageLoadId: 'forwarded' }).render('r-fwd', { at: 0 });
      both((e) => e.apply(forwarded, { live: true }));
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
