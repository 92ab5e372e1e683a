// Older events are kept compact (cold-events.ts) and read back when asked for: a store that makes them
// cold as early as it can must answer everything exactly as one holding every event as it came, fed the
// same — reads by id, every filter, whole lists, the real service's answers put on before and after an
// event went cold, retention (and what it tells its listener), a site's reset, a snapshot taken before
// more events came.
import { describe, expect, it } from 'vitest';
import { EventLog } from '../../src/main/store/event-log';
import { COLD_BLOCK, ColdEvent } from '../../src/main/store/cold-events';
import type { DroppedEvent, EventDraft, EventQuery } from '../../src/main/store/types';
import type { RecordedEvent, UpstreamAnswer } from '../../src/shared/events';

const T = Date.UTC(2026, 10, 25, 4, 0, 0);

/** Varied drafts: sites, kinds, ids shared by a few, rejected ones, bodies of every shape. */
function drafts(n: number): EventDraft[] {
  const out: EventDraft[] = [];
  for (let i = 0; i < n; i++) {
    const siteId = i % 3 === 0 ? 'site-b' : 'site-a';
    const event = ['render', 'impression', 'clickthrough'][i % 3]!;
    const accepted = i % 11 !== 0;
    const body =
      i % 37 === 0
        ? 'not json {'
        : i % 41 === 0
          ? null
          : {
              context: {
                pageLoadId: `p-${Math.floor(i / 7)}`,
                sessionId: `s-${i % 5}`,
                timestamp: new Date(T + i).toISOString(),
                pageUrl: `https://shop.example/search?q=${i % 4 ? 'shoes' : 'sch\u00f6ne \u{1f45f} \ud800'}`,
              },
              data: {
                responseId: `r-${Math.floor(i / 3)}`,
                results: [{ type: 'product', uid: String(i), parentId: String(i), sku: `S-${i}` }],
                price: i / 7,
                flag: i % 2 === 0,
                none: null,
              },
            };
    out.push({
      receivedAt: new Date(T + i).toISOString(),
      siteId,
      category: i % 4 === 0 ? 'autocomplete' : 'search',
      event,
      path: `/beacon/v2/${siteId}/search/${event}`,
      accepted,
      status: accepted ? 200 : 400,
      errors: accepted ? [] : [{ path: 'context.userId', message: 'required' }],
      body,
      ...(i % 13 === 0 && { bodyTruncated: { length: 70_000, kept: 65_536 } }),
      ...(i % 2 === 0 && { userAgent: 'Mozilla/5.0', origin: 'http://localhost:3000' }),
      contentType: 'application/json',
    });
  }
  return out;
}

const answer = (i: number): UpstreamAnswer =>
  ({
    url: `https://beacon.example/${i}`,
    outcome: 'accepted',
    status: 200,
    ms: i,
  }) as UpstreamAnswer;

const QUERIES: EventQuery[] = [
  {},
  { limit: 10 },
  { siteId: 'site-b' },
  { siteId: 'site-a', event: 'impression' },
  { category: 'autocomplete', accepted: false },
  { pageLoadId: 'p-3' },
  { pageLoadId: 'p-3', sessionId: 's-1' },
  { sessionId: 's-2', limit: 7 },
  { responseId: 'r-100' },
  { responseId: 'r-100', siteId: 'site-b' },
  { since: 150, before: 260 },
  { since: 10, limit: 3 },
  { pageLoadId: 'nowhere' },
  // answered as a range of a list, nothing tested event by event: the edges of since, before and limit
  { siteId: 'site-a', limit: 5 },
  { siteId: 'site-b', since: 300, before: 420, limit: 17 },
  { siteId: 'site-b', before: 3 },
  { siteId: 'site-c' },
  { before: 100, limit: 1 },
  { since: 698 },
  { since: 0, before: 701, limit: 700 },
];

/** What a query means, applied to every event one by one (the store answers from its indexes). */
function naive(all: readonly RecordedEvent[], q: EventQuery): RecordedEvent[] {
  const found = all.filter((e) => {
    const body = (e.body ?? {}) as { context?: Record<string, unknown>; data?: unknown };
    const context = typeof body === 'object' && !Array.isArray(body) ? (body.context ?? {}) : {};
    const data = (
      typeof body === 'object' && !Array.isArray(body) && body.data && !Array.isArray(body.data)
        ? body.data
        : {}
    ) as Record<string, unknown>;
    return (
      (q.siteId === undefined || e.siteId === q.siteId) &&
      (q.category === undefined || e.category === q.category) &&
      (q.event === undefined || e.event === q.event) &&
      (q.accepted === undefined || e.accepted === q.accepted) &&
      (q.since === undefined || e.seq > q.since) &&
      (q.before === undefined || e.seq < q.before) &&
      (q.responseId === undefined || data.responseId === q.responseId) &&
      (q.pageLoadId === undefined || context.pageLoadId === q.pageLoadId) &&
      (q.sessionId === undefined || context.sessionId === q.sessionId)
    );
  });
  return q.limit === undefined ? found : found.slice(Math.max(0, found.length - q.limit));
}

/** how many entries are cold, read white-box (the test must see that events did go cold) */
const coldCount = (log: EventLog) => (log as unknown as { cold: number }).cold;

/**
 * Every entry before the first one held as it came is cold, as many as the log counts; the cold ones after
 * it went with their page, at most 1,024 seqs later (cold-blocks.ts's PAGE_REACH); at most `hot` + a block
 * are not cold.
 */
function coldFirst(log: EventLog, hot: number): void {
  const entries = (log as unknown as { events: { toArray(): RecordedEvent[] } }).events.toArray();
  const isCold = (e: unknown) => e instanceof ColdEvent;
  const cold = entries.filter(isCold).length;
  expect(cold).toBe(coldCount(log));
  const firstHot = entries.findIndex((e) => !isCold(e));
  if (firstHot !== -1) {
    const reach = entries[firstHot]!.seq + 1_024;
    expect(
      entries
        .slice(firstHot)
        .filter(isCold)
        .every((e) => e.seq < reach),
    ).toBe(true);
  }
  expect(entries.length - cold).toBeLessThan(hot + COLD_BLOCK);
}

function same(log: EventLog, reference: EventLog): void {
  expect(log.size()).toBe(reference.size());
  expect(log.all()).toEqual(reference.all());
  expect(JSON.stringify(log.all())).toBe(JSON.stringify(reference.all()));
  expect([...log.snapshot()]).toEqual(reference.all());
  // the lines a journal compaction writes: a cold event's kept line (with a later answer), not parsed again
  const snapshot = log.snapshot();
  expect(snapshot.lines(0, snapshot.length)).toEqual(reference.all().map((e) => JSON.stringify(e)));
  for (const q of QUERIES) {
    expect(log.query(q), JSON.stringify(q)).toEqual(reference.query(q));
    expect(reference.query(q), JSON.stringify(q)).toEqual(naive(reference.all(), q));
    expect(log.count(q)).toBe(reference.query(q).length);
    // the same answer read one event at a time, as the admin API writes it
    const chosen = log.select(q);
    const expected = reference.query(q);
    expect([...chosen]).toEqual(expected);
    expect([...chosen.json()]).toEqual(expected.map((e) => JSON.stringify(e)));
    expect(chosen.lastSeq()).toBe(expected.at(-1)?.seq ?? null);
    expect([...chosen.newest(2)]).toEqual(expected.slice(-2));
  }
  // every event by its id, compared at once (one expect, not one per event: ~12 µs a call)
  expect(reference.all().map((e) => log.get(e.id))).toEqual(reference.all());
  expect(log.upstreamAnswers()).toEqual(reference.upstreamAnswers());
}

describe('cold events', () => {
  it('are read back exactly as the events were stored, by id, filter and list', async () => {
    const log = new EventLog({ retention: 10_000, hot: 0 });
    const reference = new EventLog({ retention: 10_000, hot: Infinity });
    const all = drafts(700);
    // an answer put on while the event is still held as it came: it must go cold with it
    for (const [i, d] of all.entries()) {
      const a = await log.append(structuredClone(d));
      const b = await reference.append(structuredClone(d));
      if (i % 9 === 0) {
        log.setUpstream(a.id, answer(i));
        reference.setUpstream(b.id, answer(i));
      }
    }
    // compacted after each turn of appends (not inside the append): blocks take a page's events held as
    // they came then, so the count is not a multiple of COLD_BLOCK; fewer than a block stay as they came
    await log.compacted();
    coldFirst(log, 0);
    same(log, reference);
    // answers to cold events: on the compact entry, shown on every read
    for (const id of ['ev_000000002', 'ev_000000300', 'ev_000000650', 'ev_000000699']) {
      expect(log.setUpstream(id, answer(1))).toBe(true);
      reference.setUpstream(id, answer(1));
    }
    expect(log.setUpstream('ev_000009999', answer(1))).toBe(false);
    same(log, reference);
    expect(log.get('ev_000000300')!.upstream).toEqual(answer(1));
    // a read back is a copy: changing it changes nothing stored
    (log.get('ev_000000300')!.body as { data: { price: number } }).data.price = -1;
    same(log, reference);
  });

  it('keep retention, its listener, a reset and a snapshot as events held whole do', async () => {
    const log = new EventLog({ retention: 450, hot: 100 });
    const reference = new EventLog({ retention: 450, hot: Infinity });
    const dropped: DroppedEvent[][] = [[], []];
    log.onDrop((e) => dropped[0]!.push(e));
    reference.onDrop((e) => dropped[1]!.push(e));
    const all = drafts(1_000);
    for (const d of all.slice(0, 500)) {
      await log.append(structuredClone(d));
      await reference.append(structuredClone(d));
    }
    const before = log.snapshot();
    const referenceBefore = reference.all();
    for (const d of all.slice(500)) {
      await log.append(structuredClone(d));
      await reference.append(structuredClone(d));
    }
    await log.compacted();
    expect(coldCount(log)).toBeGreaterThan(256);
    coldFirst(log, 100);
    same(log, reference);
    expect(dropped[0]).toHaveLength(550);
    expect(dropped[0]).toEqual(dropped[1]);
    // taken before, read after: what it held then, though retention dropped most of it since
    expect([...before]).toEqual(referenceBefore);
    expect(before.lines(10, 20)).toEqual(
      referenceBefore.slice(10, 20).map((e) => JSON.stringify(e)),
    );

    await log.reset('site-b');
    await reference.reset('site-b');
    same(log, reference);
    coldFirst(log, 100);
    expect(log.query({ siteId: 'site-b' })).toEqual([]);
    // the store goes on: cold, then dropped, as before the reset
    for (const d of drafts(400)) {
      await log.append(structuredClone(d));
      await reference.append(structuredClone(d));
    }
    same(log, reference);
    await log.compacted();
    coldFirst(log, 100);
    await log.reset();
    await reference.reset();
    same(log, reference);
    expect(coldCount(log)).toBe(0);
  });

  it('go cold a page at a time when pages interleave, and lists in seq order reopen no block', async () => {
    // 100 pages browsed at once, event i of each in turn (as the store bench and a load test send them),
    // 600 pages in all; a second site uses the same page ids; one page lasts through all of them
    // (more held as they came than a block's reach, so the reach is what bounds it)
    const log = new EventLog({ retention: 10_000, hot: 2_000 });
    const reference = new EventLog({ retention: 10_000, hot: Infinity });
    for (let batch = 0; batch < 6; batch++)
      for (let i = 0; i < 10; i++)
        for (let p = batch * 100; p < batch * 100 + 100; p++) {
          const d = drafts(1)[0]!;
          const siteId = p % 10 === 9 ? 'site-b' : 'site-a';
          const body = {
            context: { pageLoadId: `p-${p % 10 === 9 ? p - 1 : p}`, sessionId: `s-${p % 7}` },
            data: { responseId: `r-${p}`, i },
          };
          for (const store of [log, reference])
            await store.append({ ...structuredClone(d), siteId, body });
          // and one page kept open all along, an event every 100: a block takes its events up to
          // PAGE_REACH seqs ahead, not all of them (coldFirst)
          if (p % 100 === 0) {
            for (const store of [log, reference])
              await store.append({
                ...structuredClone(d),
                siteId: 'site-a',
                body: { context: { pageLoadId: 'p-long' }, data: { i } },
              });
            await log.compacted();
            coldFirst(log, 2_000);
          }
        }
    await log.compacted();
    expect(coldCount(log)).toBeGreaterThan(4_000);
    coldFirst(log, 2_000);
    same(log, reference);
    const entries = (log as unknown as { events: { toArray(): unknown[] } }).events.toArray();
    const blocks = new Map<string, Set<unknown>>();
    for (const e of entries)
      if (e instanceof ColdEvent) {
        const page = `${e.siteId} ${e.pageLoadId}`;
        blocks.set(page, (blocks.get(page) ?? new Set()).add(e.block));
      }
    // the first 400 pages are wholly cold: each in one block (seq order would give each 10)
    expect(blocks.size).toBeGreaterThanOrEqual(400);
    const spread = [...blocks.values()].map((b) => b.size);
    expect(spread.filter((n) => n > 1).length).toBeLessThanOrEqual(spread.length / 10);
    // a list in seq order of every cold event opens each block once (the reader keeps the last 128)
    const opened = new Set<unknown>();
    let reopened = 0;
    const open: unknown[] = [];
    for (const e of entries)
      if (e instanceof ColdEvent && !open.includes(e.block)) {
        if (opened.has(e.block)) reopened++;
        opened.add(e.block);
        open.push(e.block);
        if (open.length > 128) open.shift();
      }
    expect(reopened).toBe(0);
  });
});

describe('cold events from the journal’s own lines', () => {
  it('deflate the line read back from the journal, as it was read; made again without one', async () => {
    const log = new EventLog({ retention: 10_000, hot: 0 });
    const events = drafts(40).map((d, i) => ({
      id: `ev_${String(i + 1).padStart(9, '0')}`,
      seq: i + 1,
      ...d,
    }));
    // one line per event in another key order than JSON.stringify's (the event it means is the same)
    const reordered = (e: RecordedEvent) => {
      const { body, ...rest } = e;
      return JSON.stringify({ body, ...rest });
    };
    for (const [i, e] of events.entries())
      log.restore(structuredClone(e), i % 2 === 0 ? reordered(e) : undefined);
    expect(coldCount(log)).toBeGreaterThanOrEqual(32);
    const snapshot = log.snapshot();
    const lines = snapshot.lines(0, snapshot.length);
    for (const [i, e] of events.entries()) {
      expect(log.get(e.id)).toEqual(e);
      const cold = (log as unknown as { events: { at(i: number): unknown } }).events.at(i);
      if (!(cold instanceof ColdEvent)) continue;
      expect(lines[i]).toBe(i % 2 === 0 ? reordered(e) : JSON.stringify(e));
    }
  });
});
