// The event store: retained events in memory with indexes for every filter, bounded retention, long-poll
// waiters, and an optional journal that makes each append durable before it becomes visible. The newest
// events are held as they came; older ones compact (cold-events.ts), read back when asked for.
import type { RecordedEvent, UpstreamAnswer } from '../../shared/events';
import type {
  DroppedEvent,
  EventDraft,
  EventLogOptions,
  EventPersistence,
  EventQuery,
  EventStore,
  RequestFields,
  UpstreamRecord,
  WaitResult,
} from './types';
import { KeyIndex, SeqList, keysOf, matches, type EventKeys } from './event-index';
import { Listeners } from '../listeners';
import { StringPool } from './shared-strings';
import { COLD_BLOCK, ColdEvent, ColdReader, freeze, lineOf } from './cold-events';
import { EventSnapshot, type Entry } from './event-snapshot';
import { nextColdBlock } from './cold-blocks';
import { Later } from './later';
import { eventId } from './event-id';

export { EventSnapshot } from './event-snapshot';
export type { EventLogOptions, EventPersistence } from './types';

const HOT = 8_192;

/** blocks compacted per turn of the loop after live appends: a small share of a turn, not a stall */
const FREEZE_BLOCKS_PER_TURN = 64;

interface Waiter {
  q: EventQuery;
  count: number;
  matched: number;
  finish: (done: boolean) => void;
}

export { eventId } from './event-id';

export class EventLog implements EventStore {
  private readonly events = new SeqList<Entry>();
  private readonly bySite = new KeyIndex<Entry>();
  private readonly byResponse = new KeyIndex<Entry>();
  private readonly byPageLoad = new KeyIndex<Entry>();
  private readonly bySession = new KeyIndex<Entry>();
  /** how many entries are cold (compact); the rest are events as they came */
  private cold = 0;
  /** every entry before this index is cold (the first event held as it came is here or a little later) */
  private coldUpTo = 0;
  private readonly hot: number;
  private readonly reader = new ColdReader();
  // a failing listener (timelines, SSE) must not turn a stored event into a failed request
  private readonly appendListeners = new Listeners<RecordedEvent>('event listener');
  private readonly resetListeners = new Listeners<string | undefined>('reset listener');
  private readonly dropListeners = new Listeners<DroppedEvent>('retention listener');
  private readonly waiters = new Set<Waiter>();
  private readonly strings = new StringPool();
  /**
   * A reloaded event's line as the journal held it, until the event goes cold: a reload compacts each
   * block as soon as it is read, and deflating the line read saves making it again. Live appends keep
   * none: their line would live on until the event goes cold, thousands of events later, which costs the
   * young collections what it saves (docs/benchmarks.md, "Tried and not kept").
   * Weak: an event dropped before it went cold takes its line along.
   */
  private readonly lines = new WeakMap<RecordedEvent, string>();
  private persistence: EventPersistence | null = null;
  /**
   * The writes that change the events as a whole (an import, from its begin to its end; a reset), one
   * after the other in the order they came: this settles once the last of them is done. Appends of
   * beacons never wait for it.
   */
  private writes: Promise<void> = Promise.resolve();
  /** each open import's end of its turn (see `writes`), by its id */
  private readonly importTurns = new Map<string, () => void>();
  /** answers of imports that had their turn, not sent yet (see `answering`) */
  private readonly answers = new Set<Promise<void>>();
  private nextSeq: number;
  private closed = false;
  /** the sandbox is closing: waits end at once (endWaits) */
  private waitsEnded = false;
  /**
   * Compacting old events (deflating blocks) is memory work, not durability: the journal line made the
   * event durable before the append resolved. Done inside the append, it ran before every beacon answer of
   * a group commit; on the next turn, it runs after them.
   */
  private readonly freezing = new Later(
    () => this.overHot(),
    () => this.freezeOldest(),
    FREEZE_BLOCKS_PER_TURN,
  );
  readonly retention: number;

  constructor(options: EventLogOptions) {
    this.retention = options.retention;
    this.nextSeq = options.nextSeq ?? 1;
    this.hot = options.hot ?? HOT;
  }

  /** Attach the journal after the reloaded events were restored (restore itself is not journaled). */
  attach(persistence: EventPersistence): void {
    this.persistence = persistence;
  }

  /**
   * Put a reloaded event back without journaling or notifying; seq order must be kept by the caller. `line`:
   * its JSON line as read, without the real service's answer (which is kept beside a cold event).
   */
  restore(event: RecordedEvent, line?: string): void {
    if (line !== undefined) this.lines.set(event, line);
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

  append(draft: EventDraft, importId?: string): Promise<RecordedEvent> {
    if (this.closed) return Promise.reject(new Error('the event store is closed'));
    // seq is taken now so arrival order is kept even though the event becomes visible only once written.
    const seq = this.nextSeq++;
    const event: RecordedEvent = { id: eventId(seq), seq, ...draft };
    if (!this.persistence) {
      this.commit(event, importId !== undefined);
      return Promise.resolve(event);
    }
    return this.persistence.writeEvent(event, importId).then(() => {
      this.commit(event, importId !== undefined);
      return event;
    });
  }

  query(q: EventQuery): RecordedEvent[] {
    return this.matching(q).map((e) => this.read(e));
  }

  /** How many events `query(q)` would give, none read back. */
  count(q: EventQuery): number {
    return this.matching(q).length;
  }

  get(id: string): RecordedEvent | undefined {
    const entry = this.entry(id);
    return entry && this.read(entry);
  }

  all(): readonly RecordedEvent[] {
    return this.events.toArray().map((e) => this.read(e));
  }

  /** Every retained event as of now, each read when reached (a copy of the list, not of the events). */
  snapshot(): EventSnapshot {
    return this.list(this.events.toArray());
  }

  select(q: EventQuery): EventSnapshot {
    return this.list(this.matching(q));
  }

  private list(entries: readonly Entry[]): EventSnapshot {
    return new EventSnapshot(
      entries,
      (e) => this.read(e),
      (e) => (e instanceof ColdEvent ? this.reader.text(e) : JSON.stringify(e)),
    );
  }

  /**
   * How many retained events of one page (site and `body.context.pageLoadId`) pass `test`, read from what
   * the store keeps of each: none is read back.
   */
  countPage(siteId: string, pageLoadId: string, test: (e: RequestFields) => boolean): number {
    const list = this.byPageLoad.get(pageLoadId);
    let n = 0;
    for (let i = 0; list && i < list.length; i++) {
      const e = list.at(i);
      if (e.siteId === siteId && test(e)) n++;
    }
    return n;
  }

  /** Put the real service's answer on a retained event; false when it is no longer retained. */
  setUpstream(id: string, upstream: UpstreamAnswer): boolean {
    const entry = this.entry(id);
    if (!entry) return false;
    entry.upstream = upstream;
    return true;
  }

  /** The real service's answers of retained events, oldest first. */
  upstreamAnswers(): UpstreamRecord[] {
    const out: UpstreamRecord[] = [];
    for (const e of this.events.toArray())
      if (e.upstream) out.push({ eventId: eventId(e.seq), upstream: e.upstream });
    return out;
  }

  size(): number {
    return this.events.length;
  }

  async beginImport(): Promise<string> {
    const done = await this.turn();
    try {
      const id = `import-${this.nextSeq}-${Date.now().toString(36)}`;
      await this.persistence?.writeImport(id, 'begin');
      this.importTurns.set(id, done);
      return id;
    } catch (err) {
      done();
      throw err;
    }
  }

  get closing(): boolean {
    return this.waitsEnded;
  }

  /**
   * Resolves once the imports and resets under way or waiting have ended, and each import that had its
   * turn was answered (`answering`): an orderly close answers them before it closes the connections.
   */
  async writesDone(): Promise<void> {
    for (let last = this.writes; ; last = this.writes) {
      await last;
      await Promise.all(this.answers);
      if (last === this.writes) return;
    }
  }

  /** `writesDone` waits for `answered` too (an import's answer, sent after its turn ended). */
  answering(answered: Promise<void>): void {
    this.answers.add(answered);
    void answered.finally(() => this.answers.delete(answered));
  }

  async endImport(id: string, outcome: 'commit' | 'abort'): Promise<void> {
    try {
      await this.persistence?.writeImport(id, outcome);
    } finally {
      // an end that could not be written still ends the turn: the import is undone at the next start
      this.importTurns.get(id)?.();
      this.importTurns.delete(id);
    }
  }

  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    const done = await this.turn();
    try {
      return await work();
    } finally {
      done();
    }
  }

  /** Resolves once every write before it in `writes` is done, with the function that ends this one. */
  private turn(): Promise<() => void> {
    const before = this.writes;
    let done!: () => void;
    this.writes = new Promise<void>((resolve) => (done = resolve));
    return before.then(() => done);
  }

  /** `resetId`: the id of the reset this is the commit point of, in its journal record (reset-commit.ts) */
  async reset(siteId?: string, importId?: string, resetId?: string): Promise<void> {
    if (this.persistence)
      await this.persistence.writeReset(siteId, this.nextSeq, importId, resetId);
    this.forget(siteId);
    for (const waiter of this.waiters) waiter.matched = this.count(waiter.q);
    this.resetListeners.emit(siteId);
  }

  /** The journal's compaction held (see Journal.holdCompaction); null in memory. */
  holdJournal(): Promise<{ bytes: number; release(): void }> | null {
    return this.persistence?.holdCompaction() ?? null;
  }

  onAppend(listener: (event: RecordedEvent) => void): () => void {
    return this.appendListeners.on(listener);
  }

  onReset(listener: (siteId?: string) => void): () => void {
    return this.resetListeners.on(listener);
  }

  onDrop(listener: (dropped: DroppedEvent) => void): () => void {
    return this.dropListeners.on(listener);
  }

  waitFor(
    q: EventQuery,
    count: number,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<WaitResult> {
    const { limit: _limit, ...filters } = q;
    const result = (done: boolean): WaitResult => ({
      done,
      events: this.query(q),
      ...(!done && this.waitsEnded && { closing: true as const }),
    });
    const matched = this.count(filters);
    if (matched >= count || this.waitsEnded || signal?.aborted)
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

  endWaits(): void {
    this.waitsEnded = true;
    for (const waiter of [...this.waiters]) waiter.finish(false);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.freezing.stop();
    this.endWaits();
    await this.persistence?.close();
  }

  /** `imported`: its draft came from the import's reader (a structured clone: see shared-strings.ts) */
  private commit(event: RecordedEvent, imported: boolean): void {
    this.insert(event, true, imported);
    for (const waiter of this.waiters) {
      if (matches(event, waiter.q) && ++waiter.matched >= waiter.count) waiter.finish(true);
    }
    this.appendListeners.emit(event);
  }

  /** `later`: a live append, whose answer waits for this turn (see `freezing`); a reload compacts at once. */
  private insert(event: RecordedEvent, later = false, imported = false): void {
    this.strings.shareEvent(event, imported);
    this.place(event);
    while (this.events.length > this.retention) this.dropOldest();
    if (!this.overHot()) return;
    if (later) this.freezing.schedule();
    else this.freezeOldest();
  }

  private overHot(): boolean {
    return this.events.length - this.cold >= this.hot + COLD_BLOCK;
  }

  /** Resolves once the compaction live appends scheduled has run (tests read the compact entries). */
  compacted(): Promise<void> {
    return this.freezing.done();
  }

  /** Add to the list and the indexes. Keys are re-read from the body rather than stored for hot events. */
  private place(entry: Entry): void {
    const keys = keysOfEntry(entry);
    this.events.push(entry);
    this.bySite.add(entry.siteId, entry);
    this.byResponse.add(keys.responseId, entry);
    this.byPageLoad.add(keys.pageLoadId, entry);
    this.bySession.add(keys.sessionId, entry);
  }

  /** The next block of events held as they came goes cold (cold-blocks.ts says which). */
  private freezeOldest(): void {
    const next = nextColdBlock(this.events, this.coldUpTo, (id) => this.byPageLoad.list(id));
    this.coldUpTo = next.from;
    const hot = next.events;
    if (hot.length === 0) return;
    const cold = freeze(hot, keysOf, this.coldLine);
    for (let i = 0; i < cold.length; i++) {
      const e = hot[i]!;
      const c = cold[i]!;
      this.events.setAt(this.events.indexOfSeq(e.seq), c);
      this.bySite.replace(e.siteId, e, c);
      this.byResponse.replace(c.responseId, e, c);
      this.byPageLoad.replace(c.pageLoadId, e, c);
      this.bySession.replace(c.sessionId, e, c);
    }
    this.cold += cold.length;
  }

  /** The line compaction deflates for `e`: the journal's as read back, when it is kept, else made now. */
  private readonly coldLine = (e: RecordedEvent): string => {
    const line = this.lines.get(e);
    if (line === undefined) return lineOf(e);
    this.lines.delete(e);
    return line;
  };

  private dropOldest(): void {
    const entry = this.events.shift();
    if (!entry) return;
    if (entry instanceof ColdEvent) this.cold--;
    if (this.coldUpTo > 0) this.coldUpTo--;
    const keys = keysOfEntry(entry);
    this.bySite.dropOldest(entry.siteId, entry);
    this.byResponse.dropOldest(keys.responseId, entry);
    this.byPageLoad.dropOldest(keys.pageLoadId, entry);
    this.bySession.dropOldest(keys.sessionId, entry);
    if (this.dropListeners.size > 0)
      this.dropListeners.emit({
        seq: entry.seq,
        siteId: entry.siteId,
        pageLoadId: keys.pageLoadId,
      });
  }

  /** Forget all events or one site's; rebuilding the indexes is O(n), which a reset may cost. */
  private forget(siteId: string | undefined): void {
    const kept =
      // the one site that holds every event keeps none: no pass over a million events to find that out
      siteId === undefined || this.bySite.count(siteId) === this.events.length
        ? []
        : this.events.toArray().filter((e) => e.siteId !== siteId);
    this.events.clear();
    for (const index of [this.bySite, this.byResponse, this.byPageLoad, this.bySession])
      index.clear();
    this.reader.forget();
    this.cold = 0;
    this.coldUpTo = 0;
    for (const entry of kept) {
      this.place(entry);
      if (entry instanceof ColdEvent) this.cold++;
    }
  }

  private read(entry: Entry): RecordedEvent {
    return entry instanceof ColdEvent ? this.reader.read(entry) : entry;
  }

  private entry(id: string): Entry | undefined {
    // Ids encode the seq, and the list is in seq order: a binary search needs no id map.
    const m = /^ev_(\d+)$/.exec(id);
    if (!m) return undefined;
    const i = this.events.indexOfSeq(Number(m[1]));
    const entry = i === -1 ? undefined : this.events.at(i);
    return entry && eventId(entry.seq) === id ? entry : undefined;
  }

  /** The entries `query(q)` answers with, oldest first. */
  private matching(q: EventQuery): Entry[] {
    const list = this.candidates(q);
    if (!list) return [];
    const start = q.since === undefined ? 0 : list.indexAfter(q.since);
    const end = q.before === undefined ? list.length : list.indexAfter(q.before - 1);
    const limit = q.limit ?? Infinity;
    // nothing to test but the site, which the list already holds only (its index's list, or every event
    // when they are all of it): the newest `limit` of the range as they are (a copy of 100,000 entries,
    // where testing each held the loop 20 ms)
    const { siteId: _site, since: _since, before: _before, limit: _limit, ...tested } = q;
    if (Object.values(tested).every((v) => v === undefined))
      return list.slice(Math.max(start, end - limit), end);
    const out: Entry[] = [];
    // Walk from the newest end so `limit` costs O(limit) matches, not a scan of history.
    for (let i = end - 1; i >= start && out.length < limit; i--) {
      const entry = list.at(i);
      if (entry instanceof ColdEvent ? matches(entry, q, entry) : matches(entry, q))
        out.push(entry);
    }
    return out.reverse();
  }

  /** The smallest seq-ordered list that can hold every match of `q` (null when none can match). */
  private candidates(q: EventQuery): SeqList<Entry> | null {
    let best: SeqList<Entry> = this.events;
    const narrow = (index: KeyIndex<Entry>, key: string | undefined): boolean => {
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

function keysOfEntry(entry: Entry): EventKeys {
  return entry instanceof ColdEvent ? entry : keysOf(entry);
}
