// The event store: retained events in memory with indexes for every filter, bounded retention, long-poll
// waiters, and an optional journal that makes each append durable before it becomes visible.
import type { RecordedEvent } from '../../shared/events';
import type { EventDraft, EventQuery, EventStore, WaitResult } from './types';
import { KeyIndex, SeqList, keysOf, matches } from './event-index';
import { Listeners } from '../listeners';
import { StringPool } from './shared-strings';

/** Where appends and resets go before they take effect (the NDJSON journal); absent = memory only. */
export interface EventPersistence {
  /** resolves once the record reached the OS; records resolve in the order they were written */
  writeEvent(event: RecordedEvent): Promise<void>;
  writeReset(siteId: string | undefined, nextSeq: number): Promise<void>;
  warnings(): string[];
  close(): Promise<void>;
}

export interface EventLogOptions {
  /** keep at most this many events; the oldest are dropped */
  retention: number;
  /** seq of the first new event (continues after a reloaded journal) */
  nextSeq?: number;
}

interface Waiter {
  q: EventQuery;
  count: number;
  matched: number;
  finish: (done: boolean) => void;
}

export function eventId(seq: number): string {
  return `ev_${String(seq).padStart(9, '0')}`;
}

export class EventLog implements EventStore {
  private readonly events = new SeqList();
  private readonly bySite = new KeyIndex();
  private readonly byResponse = new KeyIndex();
  private readonly byPageLoad = new KeyIndex();
  private readonly bySession = new KeyIndex();
  // a failing listener (timelines, SSE) must not turn a stored event into a failed request
  private readonly appendListeners = new Listeners<RecordedEvent>('event listener');
  private readonly resetListeners = new Listeners<string | undefined>('reset listener');
  private readonly dropListeners = new Listeners<RecordedEvent>('retention listener');
  private readonly waiters = new Set<Waiter>();
  private readonly strings = new StringPool();
  private persistence: EventPersistence | null = null;
  private nextSeq: number;
  private closed = false;
  readonly retention: number;

  constructor(options: EventLogOptions) {
    this.retention = options.retention;
    this.nextSeq = options.nextSeq ?? 1;
  }

  /** Attach the journal after the reloaded events were restored (restore itself is not journaled). */
  attach(persistence: EventPersistence): void {
    this.persistence = persistence;
  }

  /** Put a reloaded event back without journaling or notifying; seq order must be kept by the caller. */
  restore(event: RecordedEvent): void {
    this.insert(event);
    this.bumpSeq(event.seq + 1);
  }

  /** Apply a reloaded reset record. */
  restoreReset(siteId: string | undefined, nextSeq: number): void {
    this.forget(siteId);
    this.bumpSeq(nextSeq);
  }

  /** Ids never repeat within a data dir: continue after the highest seq the journal ever handed out. */
  bumpSeq(nextSeq: number): void {
    if (nextSeq > this.nextSeq) this.nextSeq = nextSeq;
  }

  /** seq the next append will get */
  peekNextSeq(): number {
    return this.nextSeq;
  }

  append(draft: EventDraft): Promise<RecordedEvent> {
    if (this.closed) return Promise.reject(new Error('the event store is closed'));
    // seq is taken now so arrival order is kept even though the event becomes visible only once written.
    const seq = this.nextSeq++;
    const event: RecordedEvent = { id: eventId(seq), seq, ...draft };
    if (!this.persistence) {
      this.commit(event);
      return Promise.resolve(event);
    }
    return this.persistence.writeEvent(event).then(() => {
      this.commit(event);
      return event;
    });
  }

  query(q: EventQuery): RecordedEvent[] {
    const list = this.candidates(q);
    if (!list) return [];
    const start = q.since === undefined ? 0 : list.indexAfter(q.since);
    const end = q.before === undefined ? list.length : list.indexAfter(q.before - 1);
    const limit = q.limit ?? Infinity;
    const out: RecordedEvent[] = [];
    // Walk from the newest end so `limit` costs O(limit) matches, not a scan of history.
    for (let i = end - 1; i >= start && out.length < limit; i--) {
      const event = list.at(i);
      if (matches(event, q)) out.push(event);
    }
    return out.reverse();
  }

  get(id: string): RecordedEvent | undefined {
    // Ids encode the seq, and the list is in seq order: a binary search needs no id map.
    const m = /^ev_(\d+)$/.exec(id);
    if (!m) return undefined;
    const i = this.events.indexOfSeq(Number(m[1]));
    const event = i === -1 ? undefined : this.events.at(i);
    return event?.id === id ? event : undefined;
  }

  all(): readonly RecordedEvent[] {
    return this.events.toArray();
  }

  size(): number {
    return this.events.length;
  }

  async reset(siteId?: string): Promise<void> {
    if (this.persistence) await this.persistence.writeReset(siteId, this.nextSeq);
    this.forget(siteId);
    for (const waiter of this.waiters) waiter.matched = this.query(waiter.q).length;
    this.resetListeners.emit(siteId);
  }

  onAppend(listener: (event: RecordedEvent) => void): () => void {
    return this.appendListeners.on(listener);
  }

  onReset(listener: (siteId?: string) => void): () => void {
    return this.resetListeners.on(listener);
  }

  onDrop(listener: (event: RecordedEvent) => void): () => void {
    return this.dropListeners.on(listener);
  }

  waitFor(
    q: EventQuery,
    count: number,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<WaitResult> {
    const { limit: _limit, ...filters } = q;
    const result = (done: boolean): WaitResult => ({ done, events: this.query(q) });
    const matched = this.query(filters).length;
    if (matched >= count || this.closed || signal?.aborted)
      return Promise.resolve(result(matched >= count));
    return new Promise((resolve) => {
      // Real time, not sandbox time: a long-poll waits for the caller, whatever the sandbox clock says.
      const timer = setTimeout(() => waiter.finish(false), Math.max(0, timeoutMs));
      const onAbort = () => waiter.finish(false);
      signal?.addEventListener('abort', onAbort, { once: true });
      const waiter: Waiter = {
        q: filters,
        count,
        matched,
        finish: (done) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          this.waiters.delete(waiter);
          resolve(result(done));
        },
      };
      this.waiters.add(waiter);
    });
  }

  loadWarnings(): string[] {
    return this.persistence?.warnings() ?? [];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of [...this.waiters]) waiter.finish(false);
    await this.persistence?.close();
  }

  private commit(event: RecordedEvent): void {
    this.insert(event);
    for (const waiter of this.waiters) {
      if (matches(event, waiter.q) && ++waiter.matched >= waiter.count) waiter.finish(true);
    }
    this.appendListeners.emit(event);
  }

  private insert(event: RecordedEvent): void {
    this.strings.shareEvent(event);
    // Keys are re-read from the body when needed rather than stored: a side table per event costs GC time.
    const keys = keysOf(event);
    this.events.push(event);
    this.bySite.add(event.siteId, event);
    this.byResponse.add(keys.responseId, event);
    this.byPageLoad.add(keys.pageLoadId, event);
    this.bySession.add(keys.sessionId, event);
    while (this.events.length > this.retention) this.dropOldest();
  }

  private dropOldest(): void {
    const event = this.events.shift();
    if (!event) return;
    const keys = keysOf(event);
    this.bySite.dropOldest(event.siteId, event);
    this.byResponse.dropOldest(keys.responseId, event);
    this.byPageLoad.dropOldest(keys.pageLoadId, event);
    this.bySession.dropOldest(keys.sessionId, event);
    this.dropListeners.emit(event);
  }

  /** Forget all events or one site's; rebuilding the indexes is O(n), which a reset may cost. */
  private forget(siteId: string | undefined): void {
    const kept =
      siteId === undefined ? [] : this.events.toArray().filter((e) => e.siteId !== siteId);
    this.events.clear();
    for (const index of [this.bySite, this.byResponse, this.byPageLoad, this.bySession])
      index.clear();
    for (const event of kept) this.insert(event);
  }

  /** The smallest seq-ordered list that can hold every match of `q` (null when none can match). */
  private candidates(q: EventQuery): SeqList | null {
    let best: SeqList = this.events;
    const narrow = (index: KeyIndex, key: string | undefined): boolean => {
      if (key === undefined) return true;
      const list = index.get(key);
      if (!list) return false;
      if (list.length < best.length) best = list;
      return true;
    };
    const ok =
      narrow(this.bySite, q.siteId) &&
      narrow(this.byResponse, q.responseId) &&
      narrow(this.byPageLoad, q.pageLoadId) &&
      narrow(this.bySession, q.sessionId);
    return ok ? best : null;
  }
}
