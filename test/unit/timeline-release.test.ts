// A live engine given the store (`pageRecords`) lets the events of a page judged while idle go and reads
// them back whenever something reads them: everything it answers must be what an engine holding every
// event answers, fed the same — after pages go idle, late events land on pages that let theirs go, a
// catalog change re-judges all, the real service answers, and pages are read as finished, filtered by
// event and free text. And the edges of what it may let go: a page the store cannot give back whole (a
// body kept as text, an event retention dropped) holds its events, or goes as retention would have it.
import { describe, expect, it, vi } from 'vitest';
import { corpusEvents } from '../helpers/corpus-events';
import { SandboxClock } from '../../src/main/clock';
import { defaultTimelineSettings } from '../../src/main/config';
import { EventLog, eventId } from '../../src/main/store/event-log';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';
import { RULES } from '../../src/main/tracking/timeline/rule-list';
import { judging } from '../../src/main/tracking/rule';
import type { RequestFields } from '../../src/main/store/types';
import type { Page } from '../../src/main/tracking/timeline/page';
import type { RecordedEvent } from '../../src/shared/events';
import type { ResponseKind } from '../../src/shared/kinds';
import { mapLevels } from '../../src/shared/rule-levels';
import { PageBuilder, T0 } from './timeline-events';

interface Pair {
  store: EventLog;
  engine: TimelineEngine;
  reference: TimelineEngine;
  clock: SandboxClock;
  /** move the clock on, and let both engines' idle queues finish (they work in slices when busy) */
  advance(ms: number): Promise<void>;
  /** store the event (a fresh seq) and apply it to both engines */
  feed(ev: RecordedEvent): RecordedEvent;
  both(f: (e: TimelineEngine) => void): void;
  /** how many times the engine read a page's events back from the store */
  readBacks: { count: number };
  dispose(): void;
}

/** just after the fault corpus's last receipt: its pages have been quiet for a while */
const NOW = Date.parse('2026-11-25T03:10:00.000Z');
/** PageBuilder options for an event received `ms` after NOW */
const recvAt = (ms: number) => ({ at: NOW - T0 + ms, recv: NOW - T0 + ms });

function pair(retention = 1_000_000): Pair {
  const clock = new SandboxClock({ start: NOW, frozen: true });
  // events go cold (compact) as soon as a block of them can: pages read theirs back from there
  const store = new EventLog({ retention, hot: 0 });
  const readBacks = { count: 0 };
  const make = (records: boolean) =>
    new TimelineEngine({
      clock,
      settings: defaultTimelineSettings(),
      // no-impression as an error: pages change verdict when they go idle
      levels: mapLevels({ 'no-impression': 'error' }, 'test'),
      ...(records && {
        pageRecords: {
          records: (siteId: string, pageLoadId: string) => {
            readBacks.count++;
            return store.query({ siteId, pageLoadId });
          },
          count: (siteId: string, pageLoadId: string, test: (e: RequestFields) => boolean) =>
            store.countPage(siteId, pageLoadId, test),
        },
      }),
    });
  const engine = make(true);
  const reference = make(false);
  store.onDrop((ev) => engine.storeDropped(ev));
  let seq = 0;
  const both = (f: (e: TimelineEngine) => void) => [engine, reference].forEach(f);
  return {
    store,
    engine,
    reference,
    clock,
    both,
    readBacks,
    async advance(ms) {
      clock.advance(ms);
      for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
    },
    feed(ev) {
      const n = ++seq;
      const stored = { ...ev, seq: n, id: eventId(n) };
      store.restore(stored);
      both((e) => e.apply(stored));
      return stored;
    },
    dispose() {
      both((e) => e.dispose());
      clock.dispose();
    },
  };
}

/** `test` with a fresh pair, disposed after it whatever happens */
async function withPair(test: (p: Pair) => Promise<void>, retention?: number): Promise<void> {
  const p = pair(retention);
  try {
    await test(p);
  } finally {
    p.dispose();
  }
}

/** The events as a journal read back at start: numbered, and in the store whole before the engine reads them. */
function journal(store: EventLog, events: RecordedEvent[]): RecordedEvent[] {
  const recs = events.map((e, i) => ({ ...e, seq: i + 1, id: eventId(i + 1) }));
  for (const rec of recs) store.restore(rec);
  return recs;
}

const released = (engine: TimelineEngine): Page[] => engine.list().filter((p) => p.eventsLetGo);

/** Every page with its events, as finished, and lists filtered by event and free text, on both engines. */
function same(engine: TimelineEngine, reference: TimelineEngine): void {
  expect(engine.pagesDto()).toEqual(reference.pagesDto());
  const finished = (e: TimelineEngine) => e.list().map((p) => e.finishedDto(p));
  expect(finished(engine)).toEqual(finished(reference));
  const keys = (e: TimelineEngine, filter: Parameters<TimelineEngine['list']>[0]) =>
    e.list(filter).map((p) => p.key);
  for (const filter of [
    { event: 'impression' },
    { event: 'clickthrough' },
    { event: 'addtocart' },
    { q: 'r-' },
    { q: 'sku' },
    { q: '1' },
    { q: 'no-impression' },
    // only an item of a quiet page's impression has it: found through its events alone
    { q: 'zq-77' },
  ])
    expect(keys(engine, filter), JSON.stringify(filter)).toEqual(keys(reference, filter));
}

describe('timeline pages that let their events go', () => {
  it('answer as an engine holding every event, as pages go idle, get late events and are re-judged', async () => {
    const events = corpusEvents();
    const { engine, reference, advance, feed, both, dispose } = pair();
    try {
      const half = Math.floor(events.length / 2);
      for (const ev of events.slice(0, half)) feed(ev);
      const quiet = new PageBuilder({ pageLoadId: 'quiet-page' });
      feed(quiet.render('r-quiet', { at: 0 }));
      feed(quiet.impression('r-quiet', ['zq-77'], { at: 10 }));
      const late = new PageBuilder({ pageLoadId: 'late-page' });
      feed(late.render('r-late', recvAt(0)));
      feed(late.impression('r-late', ['a', 'b'], recvAt(10)));
      same(engine, reference);
      // the corpus's pages are quiet and let go once judged; the page getting events now holds them
      expect(released(engine).length).toBeGreaterThan(half / 20);
      expect(released(engine).map((p) => p.pageLoadId)).not.toContain('late-page');
      expect(engine.list({ q: 'zq-77' }).map((p) => [p.pageLoadId, p.eventsLetGo])).toEqual([
        ['quiet-page', true],
      ]);

      await advance(3_600_000);
      same(engine, reference);
      const gone = released(engine);
      // what let go is the events: the lists are empty until read back
      for (const page of gone)
        for (const r of page.responses.values()) expect(r.events).toHaveLength(0);
      expect(gone.map((p) => p.pageLoadId)).toContain('late-page');

      // late events on a page that let its events go: a click, a repeated impression, a rejected render
      feed(
        late.render('r-late', {
          ...recvAt(5),
          accepted: false,
          errors: ['context.userId: required'],
        }),
      );
      feed(late.click('r-late', 'b', recvAt(3_700_000)));
      feed(late.impression('r-late', ['a', 'b'], recvAt(3_700_010)));
      // received after the clock's now: not quiet, it keeps them
      expect(released(engine).map((p) => p.pageLoadId)).not.toContain('late-page');
      same(engine, reference);
      // every other page's first event again, late: each reads its events back to take it
      for (const page of released(engine).slice(0, 40)) {
        const first = events.find(
          (e) =>
            e.siteId === page.siteId &&
            (e.body as { context?: { pageLoadId?: string } })?.context?.pageLoadId ===
              page.pageLoadId,
        );
        if (first) feed(first);
      }
      same(engine, reference);

      for (const ev of events.slice(half)) feed(ev);
      await advance(3_600_000);
      same(engine, reference);
      expect(released(engine).length).toBeGreaterThan(half / 10);

      // the real service rejected what the sandbox accepted: a page tally changes, not its events
      const answered = {
        ...late.render('r-late', recvAt(3_700_020)),
        upstream: { outcome: 'rejected', status: 400, body: { success: false }, url: 'x' },
      } as RecordedEvent;
      feed(answered);
      both((e) => e.upstreamAnswered(answered));
      await advance(3_600_000);
      same(engine, reference);

      // a catalog change re-judges every page: those that let their events go read them back
      both((e) => e.invalidate());
      same(engine, reference);
      expect(released(engine).length).toBeGreaterThan(half / 10);

      const site = engine.list()[0]!.siteId;
      both((e) => e.reset(site));
      same(engine, reference);
    } finally {
      dispose();
    }
  });

  it('filters pages that let their events go by free text and event type from what they kept of them: nothing is read back, unless an id holds the frame character', () =>
    withPair(async ({ engine, reference, readBacks, advance, feed }) => {
      const a = new PageBuilder({ pageLoadId: 'page-a' });
      feed(a.render('r-a', { at: 0 }));
      // an upper-case uid, a parentId of its own, a banner
      feed(
        a.event(
          'impression',
          {
            responseId: 'r-a',
            results: [{ type: 'product', uid: 'SKU-Upper-1', parentId: 'Parent-7' }],
            banners: [{ uid: '90009' }],
          },
          { at: 10 },
        ),
      );
      const b = new PageBuilder({ pageLoadId: 'page-b' });
      feed(b.render('r-b', { at: 0 }));
      feed(b.impression('r-b', ['plain-2'], { at: 10 }));
      feed(b.click('r-b', 'plain-2', { at: 20 }));
      // an id holding U+0000, the character the kept ids are framed by: this page keeps no summary
      const c = new PageBuilder({ pageLoadId: 'page-c' });
      feed(c.render('r-c', { at: 0 }));
      feed(c.impression('r-c', ['odd\u0000id'], { at: 10 }));
      await advance(3_600_000);
      const page = (id: string) => engine.find(id)[0]!;
      expect(['page-a', 'page-b', 'page-c'].map((id) => page(id).eventsLetGo)).toEqual([
        true,
        true,
        true,
      ]);
      expect(page('page-a').letGoItemIds).toBe('\u0000sku-upper-1\u0000parent-7\u000090009\u0000');
      expect(page('page-c').letGoItemIds).toBeNull();
      const keys = (e: TimelineEngine, filter: Parameters<TimelineEngine['list']>[0]) =>
        e.list(filter).map((p) => p.pageLoadId);
      const asked = (filter: Parameters<TimelineEngine['list']>[0], expected: string[]) => {
        expect(keys(engine, filter), JSON.stringify(filter)).toEqual(expected);
        expect(keys(reference, filter), JSON.stringify(filter)).toEqual(expected);
      };

      // pages a and b are filtered from what they kept; page c, without it, is read back for each filter
      readBacks.count = 0;
      asked({ q: 'sku-upper' }, ['page-a']);
      asked({ q: 'parent-7' }, ['page-a']);
      asked({ q: '90009' }, ['page-a']);
      asked({ q: 'plain-2' }, ['page-b']);
      asked({ event: 'clickthrough' }, ['page-b']);
      asked({ event: 'impression' }, ['page-a', 'page-b', 'page-c']);
      asked({ event: 'redirect' }, []);
      expect(readBacks.count).toBe(7);
      // a text spanning two kept ids matches neither, as it matches no single id; page c's odd id matches
      asked({ q: '1\u0000parent' }, []);
      asked({ q: 'odd\u0000' }, ['page-c']);
      asked({ q: 'id' }, ['page-c']);
      // a late event takes the page's events back for good: the summary goes, and comes again when it
      // lets them go once more, with the new event's ids
      feed(a.impression('r-a', ['Late-3'], recvAt(3_600_100)));
      expect(page('page-a').letGoItemIds).toBeNull();
      asked({ q: 'late-3' }, ['page-a']);
      await advance(3_600_000);
      expect(page('page-a').eventsLetGo).toBe(true);
      expect(page('page-a').letGoItemIds).toContain('\u0000late-3\u0000');
      readBacks.count = 0;
      asked({ q: 'late-3' }, ['page-a']);
      asked({ q: '90009' }, ['page-a']);
      expect(readBacks.count).toBe(2);
    }));

  it('keeps a quiet page’s tallies at their length and grows them again with a late event: its findings quote every event, as before', () =>
    withPair(async ({ engine, reference, advance, feed }) => {
      const page = new PageBuilder({ pageLoadId: 'production', dev: false });
      const ids = [
        feed(page.render('r-1', { at: 0 })).id,
        feed(page.impression('r-1', ['a'], { at: 10 })).id,
        feed(page.render('r-2', { at: 20 })).id,
      ];
      await advance(3_600_000);
      const quiet = engine.find('production')[0]!;
      expect(quiet.eventsLetGo).toBe(true);
      // let go, its counted ids copied to a list of their length (trimTallies): the same ids
      expect(quiet.tallies.notDev.ids).toEqual(ids);
      const devFlag = (e: TimelineEngine) =>
        e.finishedDto(e.find('production')[0]!).findings.find((f) => f.rule === 'dev-flag');
      ids.push(feed(page.click('r-1', 'a', recvAt(0))).id);
      expect(devFlag(engine)?.eventIds).toEqual(ids);
      expect(devFlag(engine)?.eventCount).toBe(4);
      same(engine, reference);
    }));

  it('reads back what a listing that let its events go showed, for the product page after it (click-not-sent), as an engine holding them', () =>
    withPair(async ({ engine, reference, advance, feed, readBacks }) => {
      const listing = new PageBuilder({ pageLoadId: 'listing' });
      feed(listing.render('r-1', { at: 0 }));
      feed(listing.impression('r-1', ['P101', 'P102', 'P103'], { at: 1_200 }));
      await advance(3_600_000);
      expect(engine.find('listing')[0]!.eventsLetGo).toBe(true);
      // the product page 3 s after the listing's last event (its beacon held up an hour by a slow network);
      // product events go out as the kit's visit pages send them
      const before = readBacks.count;
      const pdp = new PageBuilder({ pageLoadId: 'pdp' }).as('product' as ResponseKind);
      feed(pdp.event('pageview', { result: { uid: 'P102', parentId: 'P102' } }, { at: 4_200 }));
      const lost = (e: TimelineEngine) =>
        e.finishedDto(e.find('pdp')[0]!).findings.filter((f) => f.rule === 'click-not-sent');
      expect(lost(engine)).toHaveLength(1);
      expect(lost(engine)).toEqual(lost(reference));
      expect(readBacks.count).toBeGreaterThan(before);
      same(engine, reference);
    }));

  it('holds the events of a page the store cannot give back whole: a body kept as text', () =>
    withPair(async ({ engine, reference, advance, feed }) => {
      const page = new PageBuilder({ pageLoadId: 'text-body' });
      feed(page.render('r-t', { at: 0 }));
      feed(page.impression('r-t', ['a'], { at: 10 }));
      // rejected, kept as text: placed on its page by its context, but the store's index cannot find it
      const ctx = JSON.stringify({ ...page.ctx, timestamp: new Date(T0 + 20).toISOString() });
      feed({
        ...page.render('r-t', { at: 20, accepted: false, errors: ['too deep'] }),
        body: `{"context":${ctx},"data":${'['.repeat(40)}${']'.repeat(40)}}`,
      });
      const other = new PageBuilder({ pageLoadId: 'plain' });
      feed(other.render('r-p', { at: 0 }));
      feed(other.impression('r-p', ['a'], { at: 10 }));
      await advance(3_600_000);
      same(engine, reference);
      const held = engine.find('text-body')[0]!;
      expect(held.arrivals).toBe(3);
      expect(held.eventsLetGo).toBe(false);
      expect(held.holdsEvents).toBe(true);
      expect([...held.responses.values()].flatMap((r) => r.events)).toHaveLength(3);
      // the page beside it, whole in the store, let go
      expect(engine.find('plain')[0]!.eventsLetGo).toBe(true);
    }));

  it('forgets a page that let its events go once retention drops one; a page holding its events stays', () =>
    withPair(async ({ engine, advance, feed }) => {
      const a = new PageBuilder({ pageLoadId: 'page-a' });
      feed(a.render('r-a', recvAt(0)));
      feed(a.impression('r-a', ['x'], recvAt(10)));
      const b = new PageBuilder({ pageLoadId: 'page-b' });
      feed(b.render('r-b', recvAt(20)));
      feed(b.impression('r-b', ['y'], recvAt(30)));
      await advance(3_600_000);
      // page-a lets go; page-b is read while idle too, then gets a late event and holds its events again
      expect(engine.pagesDto().map((p) => p.pageLoadId)).toEqual(['page-a', 'page-b']);
      expect(engine.find('page-a')[0]!.eventsLetGo).toBe(true);
      feed(b.click('r-b', 'y', recvAt(3_600_100)));
      expect(engine.find('page-b')[0]!.eventsLetGo).toBe(false);
      // three more events: the store keeps 6, so page-a's render goes
      const c = new PageBuilder({ pageLoadId: 'page-c' });
      feed(c.render('r-c', recvAt(3_600_200)));
      expect(engine.find('page-a')).toHaveLength(1);
      feed(c.impression('r-c', ['z'], recvAt(3_600_210)));
      expect(engine.find('page-a')).toEqual([]);
      expect(engine.pagesDto().map((p) => p.pageLoadId)).toEqual(['page-b', 'page-c']);
      // page-b held its events: retention dropping its render leaves it whole in the engine
      feed(c.click('r-c', 'z', recvAt(3_600_220)));
      feed(c.impression('r-c', ['z'], recvAt(3_600_230)));
      const bDto = engine.pageDto(engine.find('page-b')[0]!);
      expect(bDto.responses[0]!.events.map((e) => e.event)).toEqual([
        'render',
        'impression',
        'clickthrough',
      ]);
    }, 6));

  it('judges the pages it lets go while the store is replayed at start: answers as an engine holding every event, and the first read of failing pages reads nothing back', () =>
    withPair(async ({ store, engine, reference, readBacks, advance }) => {
      // the fault corpus (every rule, visits with carts and orders) as a journal
      const recs = journal(store, corpusEvents());
      engine.beginReplay();
      for (const [i, rec] of recs.entries()) {
        engine.apply(rec, { quiet: true });
        reference.apply(rec, { quiet: true });
        // as the sandbox does every 50,000 events, in small: pages 10 events behind let go
        if ((i + 1) % 25 === 0) engine.letGoReplayed(10);
        // the journal is read a megabyte at a time, each read a turn of the event loop: the idle timers
        // the replay set fire meanwhile (its pages were quiet long before)
        if ((i + 1) % 10 === 0) await advance(0);
      }
      // and at its end, every quiet page
      engine.endReplay();
      // the sandbox starts: the idle timers still set fire
      await advance(0);
      // (a page that let its events go and got another read them back during the replay)
      readBacks.count = 0;
      // every page is judged exactly for this list: those that let their events go were judged before
      // (their responses), so only their visits and page rules run now, and nothing is read back
      const failing = engine.list({ verdict: 'fail' });
      expect(readBacks.count).toBe(0);
      expect(released(engine).length).toBeGreaterThan(recs.length / 20);
      expect(failing.map((p) => p.key)).toEqual(
        reference.list({ verdict: 'fail' }).map((p) => p.key),
      );
      expect(failing.length).toBeGreaterThan(10);
      same(engine, reference);
    }));

  it('starts even when a rule throws on a page while the store is replayed: that page keeps its events and throws when read, as before', () =>
    withPair(async ({ store, engine }) => {
      const bad = new PageBuilder({ pageLoadId: 'throws-here' });
      const good = new PageBuilder({ pageLoadId: 'judged-fine' });
      const recs = journal(store, [
        bad.render('r-bad', { at: 0 }),
        good.render('r-good', { at: 5 }),
        bad.impression('r-bad', ['x'], { at: 10 }),
        good.impression('r-good', ['y'], { at: 20 }),
      ]);
      const rule = judging(RULES, 'response')[0]!;
      const check = rule.response.bind(rule);
      const spy = vi.spyOn(rule, 'response').mockImplementation((r, ctx) => {
        if (r.responseId === 'r-bad') throw new Error('a bug in a rule');
        return check(r, ctx);
      });
      try {
        for (const rec of recs) engine.apply(rec, { quiet: true });
        expect(() => engine.letGoReplayed(0)).not.toThrow();
        // (read without judging: every public read judges the page first)
        const pages = (engine as unknown as { pages: Map<string, Page> }).pages;
        const held = (id: string) => [...pages.values()].find((p) => p.pageLoadId === id)!;
        expect([held('throws-here').eventsLetGo, held('judged-fine').eventsLetGo]).toEqual([
          false,
          true,
        ]);
        expect(() => engine.find('throws-here')).toThrow('a bug in a rule');
      } finally {
        spy.mockRestore();
      }
      // the rule mended: the page is judged in full when read
      expect(engine.find('throws-here').map((p) => p.pageLoadId)).toEqual(['throws-here']);
      expect(engine.pageDto(engine.find('throws-here')[0]!).responses).toHaveLength(1);
    }));

  it('lets quiet pages go while the store is replayed at start, and waits for a page whose events are to come', () =>
    withPair(async ({ store, engine, reference, both }) => {
      const a = new PageBuilder({ pageLoadId: 'replay-a' });
      const b = new PageBuilder({ pageLoadId: 'replay-b' });
      const recs = journal(store, [
        a.render('r-a', { at: 0 }),
        b.render('r-b', { at: 5 }),
        a.impression('r-a', ['x'], { at: 10 }),
        b.impression('r-b', ['y'], { at: 20 }),
        b.click('r-b', 'y', { at: 30 }),
      ]);
      for (const rec of recs.slice(0, 4)) both((e) => e.apply(rec, { quiet: true }));
      engine.letGoReplayed(0);
      const [pa, pb] = [engine.find('replay-a')[0]!, engine.find('replay-b')[0]!];
      expect([pa.eventsLetGo, pb.eventsLetGo, pb.holdsEvents]).toEqual([true, false, false]);
      both((e) => e.apply(recs[4]!, { quiet: true }));
      engine.letGoReplayed(0);
      expect([pb.eventsLetGo, pb.holdsEvents]).toEqual([true, false]);
      same(engine, reference);
    }));
});
