// What any read of the timelines returns does not depend on which read came first: a read may settle
// pending pages (judge what changed since), but the pages, summaries, finished pages, visits and orders it
// answers are those any other order of reads would answer. The fault corpus gives pages of every verdict
// and kind, visits with carts and orders; half of it is read while the rest is still to come.
import { describe, expect, it } from 'vitest';
import { corpusEvents } from '../helpers/corpus-events';
import { SandboxClock } from '../../src/main/clock';
import { defaultTimelineSettings } from '../../src/main/tracking/timeline-settings';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';

type Read = (e: TimelineEngine) => unknown;

/** The corpus' pages by their siteId and pageLoadId: found without being judged (unlike list()). */
const PAGE_IDS = [
  ...new Set(
    corpusEvents().map((ev) => {
      const ctx = (ev.body as { context?: { pageLoadId?: unknown } } | null)?.context;
      return `${ev.siteId}\u0000${typeof ctx?.pageLoadId === 'string' ? ctx.pageLoadId : ''}`;
    }),
  ),
].map((k) => k.split('\u0000') as [string, string]);
const pagesOf = (e: TimelineEngine) => PAGE_IDS.flatMap(([site, id]) => e.find(id, site));

const READS: Record<string, Read> = {
  pages: (e) => pagesOf(e).map((p) => e.pageDto(p)),
  summaries: (e) => pagesOf(e).map((p) => e.summary(p)),
  finished: (e) => pagesOf(e).map((p) => e.finishedDto(p)),
  list: (e) => e.pagesDto(),
  visits: (e) => e.visits(),
  orders: (e) => e.orders(),
};

/** Feed the corpus (half, read, the rest, read again) reading in `order`; what each read answered. */
function answers(order: string[]): Record<string, unknown> {
  const clock = new SandboxClock({ start: Date.parse('2026-11-21T04:00:00Z'), frozen: true });
  // as the live sandbox runs it while nobody listens: changed pages wait for a read to judge them
  const engine = new TimelineEngine({
    clock,
    settings: defaultTimelineSettings(),
    onChange: () => undefined,
    reportChanges: () => false,
    batchChangesMs: 100,
  });
  const events = corpusEvents();
  const half = Math.floor(events.length / 2);
  const out: Record<string, unknown> = {};
  try {
    for (const ev of events.slice(0, half)) engine.apply(ev);
    for (const name of order) out[`first ${name}`] = READS[name]!(engine);
    for (const ev of events.slice(half)) engine.apply(ev);
    clock.advance(60_000); // pages go quiet: some let their events go, no-impression is decided
    for (const name of order) out[`then ${name}`] = READS[name]!(engine);
  } finally {
    engine.dispose();
  }
  return out;
}

describe('the order of reads', () => {
  it('changes nothing any read answers', () => {
    const names = Object.keys(READS);
    const reference = answers(names);
    expect(Object.keys(reference)).toHaveLength(names.length * 2);
    // each read first once (the rest after it in turn), and all of them backwards
    const orders = [
      ...names.map((_, i) => [...names.slice(i), ...names.slice(0, i)]),
      [...names].reverse(),
    ];
    for (const order of orders) {
      const got = answers(order);
      for (const key of Object.keys(reference))
        expect(got[key], `${key}, read in the order ${order.join(', ')}`).toEqual(reference[key]);
    }
  });
});
