// Seq-ordered lists and the keys the event filters use, so queries and retention never rescan history.
// Every list only ever grows at the tail and shrinks at the head (retention drops the oldest), so both are O(1) amortised.
import type { RecordedEvent } from '../../shared/events';
import type { EventQuery } from './types';
import { ChunkedMap } from '../chunked';

/** What the lists hold: events, or what the store keeps of an older one (cold-events.ts). */
interface Sequenced {
  seq: number;
}

/** A FIFO of events in seq order: append at the tail, drop at the head, binary search by seq. */
export class SeqList<T extends Sequenced = RecordedEvent> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(event: T): void {
    this.items.push(event);
  }

  first(): T | undefined {
    return this.items[this.head];
  }

  /** Drop the oldest entry; the backing array is compacted once the dead prefix dominates it. */
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const event = this.items[this.head]!;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return event;
  }

  at(i: number): T {
    return this.items[this.head + i]!;
  }

  /** Put `item` (the same seq) in place of entry `i`. */
  setAt(i: number, item: T): void {
    this.items[this.head + i] = item;
  }

  /** index of the first entry whose seq is greater than `seq` */
  indexAfter(seq: number): number {
    let lo = this.head;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.items[mid]!.seq <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo - this.head;
  }

  /** index of the entry with exactly this seq, or -1 */
  indexOfSeq(seq: number): number {
    const i = this.indexAfter(seq - 1);
    return i < this.length && this.at(i).seq === seq ? i : -1;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }

  toArray(): T[] {
    return this.items.slice(this.head);
  }

  /**
   * The backing array cut to the entries it holds: an array grown by push keeps room for 16 more, and most
   * lists (a page's events, a response's) stop growing when their page ends.
   */
  fit(): void {
    this.items = this.items.slice(this.head);
    this.head = 0;
  }

  /** entries `from` to `to` (exclusive) */
  slice(from: number, to: number): T[] {
    return this.items.slice(this.head + from, this.head + to);
  }
}

/** The index keys of one event; read defensively because rejected bodies can be anything. */
export interface EventKeys {
  responseId?: string;
  pageLoadId?: string;
  sessionId?: string;
}

export function keysOf(event: RecordedEvent): EventKeys {
  const body = event.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  const { context, data } = body as { context?: unknown; data?: unknown };
  const keys: EventKeys = {};
  if (context && typeof context === 'object') {
    const c = context as Record<string, unknown>;
    if (typeof c.pageLoadId === 'string') keys.pageLoadId = c.pageLoadId;
    if (typeof c.sessionId === 'string') keys.sessionId = c.sessionId;
  }
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const responseId = (data as Record<string, unknown>).responseId;
    if (typeof responseId === 'string') keys.responseId = responseId;
  }
  return keys;
}

/** What the filters read of an event: its own fields, and its keys (read from its body unless given). */
type Filtered = Pick<RecordedEvent, 'siteId' | 'category' | 'event' | 'accepted' | 'seq'>;

/**
 * Does `event` pass every filter of `q` (except `limit`, which is positional)? An event held as it came
 * has its keys read from its body when a key filter needs them; anything else gives its keys.
 */
export function matches(event: RecordedEvent, q: EventQuery): boolean;
export function matches(event: Filtered, q: EventQuery, keys: EventKeys): boolean;
export function matches(event: Filtered, q: EventQuery, keys?: EventKeys): boolean {
  if (q.siteId !== undefined && event.siteId !== q.siteId) return false;
  if (q.category !== undefined && event.category !== q.category) return false;
  if (q.event !== undefined && event.event !== q.event) return false;
  if (q.accepted !== undefined && event.accepted !== q.accepted) return false;
  if (q.since !== undefined && event.seq <= q.since) return false;
  if (q.before !== undefined && event.seq >= q.before) return false;
  if (q.responseId === undefined && q.pageLoadId === undefined && q.sessionId === undefined)
    return true;
  const k = keys ?? keysOf(event as RecordedEvent);
  if (q.responseId !== undefined && k.responseId !== q.responseId) return false;
  if (q.pageLoadId !== undefined && k.pageLoadId !== q.pageLoadId) return false;
  if (q.sessionId !== undefined && k.sessionId !== q.sessionId) return false;
  return true;
}

/**
 * A map from a key value to the seq-ordered events carrying it. Most keys (a responseId, a pageLoadId)
 * belong to a handful of events, many to one: a lone event is stored as itself, a list only from the second.
 */
export class KeyIndex<T extends Sequenced = RecordedEvent> {
  private readonly entries = new ChunkedMap<string, T | SeqList<T>>();

  add(key: string | undefined, event: T): void {
    if (key === undefined) return;
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.entries.set(key, event);
    } else if (entry instanceof SeqList) {
      entry.push(event);
    } else {
      const list = new SeqList<T>();
      list.push(entry);
      list.push(event);
      this.entries.set(key, list);
    }
  }

  /** Retention dropped `event`, the oldest of all, so it is also the oldest of its list. */
  dropOldest(key: string | undefined, event: T): void {
    if (key === undefined) return;
    const entry = this.entries.getOld(key);
    if (entry === event) {
      this.entries.delete(key);
    } else if (entry instanceof SeqList && entry.first() === event) {
      entry.shift();
      if (entry.length === 0) this.entries.delete(key);
    }
  }

  get(key: string): SeqList<T> | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry instanceof SeqList) return entry;
    const single = new SeqList<T>();
    single.push(entry);
    return single;
  }

  /** How many events carry `key`. */
  count(key: string): number {
    const entry = this.entries.get(key);
    return entry === undefined ? 0 : entry instanceof SeqList ? entry.length : 1;
  }

  /** The events of `key` when there are two or more (`get` without making a list for a lone one). */
  list(key: string): SeqList<T> | undefined {
    const entry = this.entries.get(key);
    return entry instanceof SeqList ? entry : undefined;
  }

  /** Hold `next` where `held` was (the same event, kept another way). */
  replace(key: string | undefined, held: T, next: T): void {
    if (key === undefined) return;
    const entry = this.entries.get(key);
    if (entry === held) this.entries.set(key, next);
    else if (entry instanceof SeqList) {
      const i = entry.indexOfSeq(held.seq);
      if (i === -1) return;
      entry.setAt(i, next);
      // the newest of its key now kept another way: its list has likely stopped growing (its page ended)
      if (i === entry.length - 1) entry.fit();
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
