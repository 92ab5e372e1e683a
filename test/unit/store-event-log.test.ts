// The in-memory event store: ids and seq, filters and their indexes, retention, reset, waiters, listeners.
import { describe, expect, it } from 'vitest';
import { EventLog, eventId } from '../../src/main/store/event-log';
import type { EventDraft } from '../../src/main/store/types';

let clockMs = Date.UTC(2026, 10, 21, 4, 0, 0);

function draft(
  overrides: Partial<EventDraft> & {
    responseId?: string;
    pageLoadId?: string;
    sessionId?: string;
  } = {},
): EventDraft {
  const { responseId = 'r1', pageLoadId = 'p1', sessionId = 's1', ...rest } = overrides;
  return {
    receivedAt: new Date(clockMs++).toISOString(),
    siteId: 'demo42',
    category: 'search',
    event: 'render',
    path: `/beacon/v2/${rest.siteId ?? 'demo42'}/search/${rest.event ?? 'render'}`,
    accepted: true,
    status: 200,
    errors: [],
    body: { context: { pageLoadId, sessionId }, data: { responseId } },
    ...rest,
  };
}

describe('EventLog', () => {
  it('assigns increasing seq and ev_ ids, and finds events by id', async () => {
    const log = new EventLog({ retention: 100 });
    const a = await log.append(draft());
    const b = await log.append(draft({ event: 'impression' }));
    expect([a.seq, b.seq]).toEqual([1, 2]);
    expect(a.id).toBe('ev_000000001');
    expect(eventId(42)).toBe('ev_000000042');
    expect(log.get(b.id)?.event).toBe('impression');
    expect(log.get('ev_999')).toBeUndefined();
    expect(log.get('ev_1')).toBeUndefined();
    expect(log.get('1')).toBeUndefined();
    expect(log.size()).toBe(2);
    expect(log.all().map((e) => e.id)).toEqual([a.id, b.id]);
  });

  it('filters by every query field, newest last, limit keeping the newest', async () => {
    const log = new EventLog({ retention: 100 });
    await log.append(
      draft({ siteId: 'aaaaaa', responseId: 'r1', pageLoadId: 'p1', sessionId: 's1' }),
    );
    await log.append(
      draft({
        siteId: 'bbbbbb',
        event: 'impression',
        responseId: 'r2',
        pageLoadId: 'p2',
        sessionId: 's1',
      }),
    );
    await log.append(
      draft({
        siteId: 'aaaaaa',
        event: 'clickthrough',
        accepted: false,
        status: 400,
        responseId: 'r1',
        pageLoadId: 'p1',
        sessionId: 's2',
      }),
    );
    await log.append(draft({ siteId: 'aaaaaa', category: 'cart', event: 'add', body: 'not json' }));
    const seqs = (q: Parameters<EventLog['query']>[0]) => log.query(q).map((e) => e.seq);
    expect(seqs({})).toEqual([1, 2, 3, 4]);
    expect(seqs({ siteId: 'aaaaaa' })).toEqual([1, 3, 4]);
    expect(seqs({ siteId: 'cccccc' })).toEqual([]);
    expect(seqs({ category: 'search' })).toEqual([1, 2, 3]);
    expect(seqs({ event: 'impression' })).toEqual([2]);
    expect(seqs({ accepted: false })).toEqual([3]);
    expect(seqs({ accepted: true, siteId: 'aaaaaa' })).toEqual([1, 4]);
    expect(seqs({ responseId: 'r1' })).toEqual([1, 3]);
    expect(seqs({ pageLoadId: 'p2' })).toEqual([2]);
    expect(seqs({ sessionId: 's1' })).toEqual([1, 2]);
    expect(seqs({ sessionId: 's1', responseId: 'r1' })).toEqual([1]);
    expect(seqs({ since: 2 })).toEqual([3, 4]);
    expect(seqs({ before: 3 })).toEqual([1, 2]);
    expect(seqs({ before: 4, limit: 1 })).toEqual([3]);
    expect(seqs({ since: 1, before: 4, siteId: 'aaaaaa' })).toEqual([3]);
    expect(seqs({ limit: 2 })).toEqual([3, 4]);
    expect(seqs({ siteId: 'aaaaaa', since: 1, limit: 1 })).toEqual([4]);
    expect(seqs({ limit: 0 })).toEqual([]);
  });

  it('keeps only the newest `retention` events, in every index', async () => {
    const log = new EventLog({ retention: 3 });
    for (let i = 1; i <= 5; i++)
      await log.append(draft({ responseId: `r${i % 2}`, siteId: i === 1 ? 'old111' : 'demo42' }));
    expect(log.size()).toBe(3);
    expect(log.all().map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(log.get(eventId(1))).toBeUndefined();
    expect(log.query({ siteId: 'old111' })).toEqual([]);
    expect(log.query({ responseId: 'r1' }).map((e) => e.seq)).toEqual([3, 5]);
    expect(log.query({ since: 0 }).map((e) => e.seq)).toEqual([3, 4, 5]);
  });

  it('survives long runs past retention (index lists compact) with correct queries', async () => {
    const log = new EventLog({ retention: 50 });
    for (let i = 1; i <= 5000; i++)
      await log.append(draft({ responseId: `r${i % 7}`, sessionId: 'same' }));
    expect(log.size()).toBe(50);
    expect(log.all()[0]!.seq).toBe(4951);
    expect(log.query({ sessionId: 'same' })).toHaveLength(50);
    const r3 = log.query({ responseId: 'r3' }).map((e) => e.seq);
    expect(r3.every((s) => s % 7 === 3 && s > 4950)).toBe(true);
    expect(r3).toHaveLength(7);
  });

  it('resets all events or one site, keeps seq increasing and tells listeners', async () => {
    const log = new EventLog({ retention: 100 });
    const resets: Array<string | undefined> = [];
    log.onReset((siteId) => resets.push(siteId));
    await log.append(draft({ siteId: 'aaaaaa' }));
    await log.append(draft({ siteId: 'bbbbbb' }));
    await log.reset('aaaaaa');
    expect(log.all().map((e) => e.siteId)).toEqual(['bbbbbb']);
    expect(log.query({ siteId: 'bbbbbb', responseId: 'r1' })).toHaveLength(1);
    await log.reset();
    expect(log.size()).toBe(0);
    expect(log.get(eventId(2))).toBeUndefined();
    const next = await log.append(draft());
    expect(next.seq).toBe(3);
    // the one site left, reset by name: every event and index entry goes (the store keeps none of it)
    await log.reset('demo42');
    expect([log.size(), log.query({ siteId: 'demo42' }), log.query({ responseId: 'r1' })]).toEqual([
      0,
      [],
      [],
    ]);
    expect(resets).toEqual(['aaaaaa', undefined, 'demo42']);
  });

  it('notifies append listeners after the event is queryable; a throwing listener does not fail the append', async () => {
    const log = new EventLog({ retention: 100 });
    const seen: number[] = [];
    log.onAppend(() => {
      throw new Error('broken listener');
    });
    const off = log.onAppend((e) => seen.push(log.get(e.id) ? e.seq : -1));
    const errors = console.error;
    console.error = () => {};
    try {
      await log.append(draft());
      off();
      await log.append(draft());
    } finally {
      console.error = errors;
    }
    expect(seen).toEqual([1]);
  });

  it('waitFor resolves at once when enough match, later when they arrive, or at the timeout with what was seen', async () => {
    const log = new EventLog({ retention: 100 });
    await log.append(draft({ event: 'render' }));
    expect(await log.waitFor({ event: 'render' }, 1, 10_000)).toMatchObject({
      done: true,
      events: [{ seq: 1 }],
    });

    const pending = log.waitFor({ event: 'impression' }, 2, 10_000);
    await log.append(draft({ event: 'impression' }));
    await log.append(draft({ event: 'clickthrough' }));
    await log.append(draft({ event: 'impression' }));
    const done = await pending;
    expect(done.done).toBe(true);
    expect(done.events.map((e) => e.seq)).toEqual([2, 4]);

    const timedOut = await log.waitFor({ event: 'addtocart' }, 1, 0);
    expect(timedOut).toEqual({ done: false, events: [] });
    const partial = await log.waitFor({ event: 'impression' }, 3, 0);
    expect(partial.done).toBe(false);
    expect(partial.events).toHaveLength(2);
  });

  it('waitFor recounts after a reset and is released on close', async () => {
    const log = new EventLog({ retention: 100 });
    await log.append(draft());
    const pending = log.waitFor({}, 2, 60_000);
    await log.reset();
    await log.append(draft());
    let settled = false;
    void pending.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await log.close();
    expect(await pending).toMatchObject({ done: false, events: [{ seq: 2 }] });
    await expect(log.append(draft())).rejects.toThrow(/closed/);
  });

  it('waitFor gives up when its signal aborts (a long-poll client went away)', async () => {
    const log = new EventLog({ retention: 100 });
    const gone = new AbortController();
    const pending = log.waitFor({}, 1, 60_000, gone.signal);
    gone.abort();
    expect(await pending).toEqual({ done: false, events: [] });
    expect(await log.waitFor({}, 1, 60_000, gone.signal)).toEqual({ done: false, events: [] });
  });
});
