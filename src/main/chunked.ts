// A Map and a Set for the collections that grow with the store (pages, visits, responseIds, the indexes
// by page and session): kept as a list of ordinary ones of at most CHUNK entries each. V8 grows a Map or
// a Set by building a table twice the size and moving every entry into it, all at once: the bigger the
// map, the longer the event loop stalls when it grows (docs/benchmarks.md, "Growth without stalls"), and
// the engine, the visits and the store's indexes hold ten of them, which grow at the same beacon. Here
// only the newest part grows, at most CHUNK entries.
// Insertion order is kept as a Map keeps it (a new key goes last; setting a key that is there keeps its
// place). A lookup asks the parts newest first: most lookups are of recent keys; one of a missing key reads
// one word of each part's filter (key-filter.ts) instead of asking each part's Map (61 at a million entries).

import { KeyFilter, keyHash } from './key-filter';

/** entries per part: growing one moves at most this many (~4 ms) */
export const CHUNK = 16_384;

/** The insertion-ordered parts, with the bookkeeping both collections share. */
abstract class Chunked<K, P extends Map<K, unknown> | Set<K>> {
  protected parts: P[] = [];
  /** each part's filter of the keys ever put in it */
  protected filters: KeyFilter[] = [];
  /** each part's number, rising in the order the parts were made (an iteration goes on past a part removed meanwhile) */
  private ids: number[] = [];
  private made = 0;
  private count = 0;

  /**
   * The last key hashed, and its hash: a key looked up and not found is mostly put in next (a new page,
   * response or session), and its hash is one loop over its characters.
   */
  private hashedKey: K | undefined = undefined;
  private hashed = -1;

  constructor(
    protected readonly chunk = CHUNK,
    private readonly make: () => P,
  ) {}

  protected hashOf(key: K): number {
    if (key !== this.hashedKey) {
      this.hashed = keyHash(key);
      this.hashedKey = key;
    }
    return this.hashed;
  }

  /**
   * The part holding `key`, newest first; -1 when none does. The newest is asked first (most lookups are
   * of recent keys); the older ones only where their filter may hold the key (key-filter.ts).
   */
  protected find(key: K): number {
    const parts = this.parts;
    const last = parts.length - 1;
    if (last < 0 || parts[last]!.has(key)) return last;
    const hash = this.hashOf(key);
    for (let i = last - 1; i >= 0; i--)
      if (this.filters[i]!.mayHave(hash) && parts[i]!.has(key)) return i;
    return -1;
  }

  get size(): number {
    return this.count;
  }

  has(key: K): boolean {
    return this.find(key) >= 0;
  }

  delete(key: K): boolean {
    // the oldest part first: retention and trimming delete the oldest keys, which a newest-first search
    // reaches last
    const parts = this.parts;
    const at = parts.length > 1 && parts[0]!.has(key) ? 0 : this.find(key);
    if (at < 0) return false;
    const part = parts[at]!;
    part.delete(key);
    this.deleted(key);
    this.count--;
    // an emptied part goes (the newest stays, to take the next keys)
    if (part.size === 0 && at < this.parts.length - 1) {
      this.parts.splice(at, 1);
      this.filters.splice(at, 1);
      this.ids.splice(at, 1);
    }
    return true;
  }

  /** `key` left the collection (a subclass that keeps a position in it hears of it). */
  protected deleted(_key: K): void {}

  clear(): void {
    // emptied, not only dropped: an iteration under way ends as a Map's does
    for (const part of this.parts) part.clear();
    this.parts = [];
    this.filters = [];
    this.ids = [];
    this.count = 0;
  }

  /**
   * What `read` gives of each part, in order. As a Map's iteration: entries deleted meanwhile and not yet
   * reached are not given, entries added meanwhile are.
   */
  protected *each<X>(read: (part: P) => IterableIterator<X>): Generator<X> {
    let id = -1;
    for (;;) {
      const at = this.ids.findIndex((n) => n > id);
      if (at < 0) return;
      id = this.ids[at]!;
      yield* read(this.parts[at]!);
    }
  }

  /** The part a new key goes into (the newest, or a new one when it is full), its filter told of the key. */
  protected newest(key: K): P {
    this.count++;
    let last = this.parts.length - 1;
    if (last < 0 || this.parts[last]!.size >= this.chunk) {
      this.parts.push(this.make());
      this.filters.push(new KeyFilter(this.chunk));
      this.ids.push(this.made++);
      last++;
    }
    this.filters[last]!.add(this.hashOf(key));
    return this.parts[last]!;
  }

  /** Entries per part (for tests: none above `chunk`). */
  partSizes(): number[] {
    return this.parts.map((p) => p.size);
  }
}

/** A Map (the methods the sandbox uses) that never grows by more than CHUNK entries at once. Values are never undefined. */
export class ChunkedMap<K, V extends NonNullable<unknown> | null> extends Chunked<K, Map<K, V>> {
  constructor(chunk = CHUNK) {
    super(chunk, () => new Map<K, V>());
  }

  get(key: K): V | undefined {
    const parts = this.parts;
    const last = parts.length - 1;
    if (last < 0) return undefined;
    const v = parts[last]!.get(key);
    if (v !== undefined || last === 0) return v;
    const hash = this.hashOf(key);
    for (let i = last - 1; i >= 0; i--) {
      if (!this.filters[i]!.mayHave(hash)) continue;
      const v = parts[i]!.get(key);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  /**
   * The oldest entry (the first a walk would give), for a caller that deletes the oldest again and again
   * (the timelines forgetting their oldest page at the event limit). A Map deletes an entry by leaving a hole
   * where it was, and a new walk steps over every hole before the first entry: thousands in a part whose
   * oldest keys went one by one, and at the retention limit every beacon paid for that walk. This keeps one
   * walk of the oldest part going, which steps over each hole once. The entry it stands on is told apart by its
   * key; deleting that key moves it on, so a key deleted and set again (now the newest) is never taken for
   * the oldest.
   */
  oldest(): [K, V] | undefined {
    const part = this.parts[0];
    if (part === undefined || part.size === 0) return undefined;
    let walk = this.walk;
    if (walk === null || walk.part !== part) walk = this.walk = { part, it: part.keys(), at: null };
    if (walk.at === null) {
      let next = walk.it.next();
      // Every key before the walk's place is gone and the part is not empty, so a key follows; were the walk
      // ever over (a finished Map walk stays finished even when keys come), a new one answers right.
      if (next.done) next = (walk.it = part.keys()).next();
      walk.at = { key: next.value as K };
    }
    const key = walk.at.key;
    return [key, part.get(key)!];
  }

  /** The walk `oldest` keeps: the oldest part, and the key it stands on (null: step on). */
  private walk: { part: Map<K, V>; it: Iterator<K>; at: { key: K } | null } | null = null;

  protected override deleted(key: K): void {
    if (this.walk?.at && this.walk.at.key === key) this.walk.at = null;
  }

  /** `get` for a key known to be among the oldest (retention drops them): the oldest part is asked first. */
  getOld(key: K): V | undefined {
    for (const part of this.parts) {
      const v = part.get(key);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  set(key: K, value: V): this {
    const at = this.find(key);
    if (at >= 0) this.parts[at]!.set(key, value);
    else this.newest(key).set(key, value);
    return this;
  }

  /**
   * `set` of a key the caller knows is not in the map: it goes last without asking every part for it
   * (a new key's `set` asks them all: at 100,000 entries, 7 lookups that each miss the CPU's caches).
   * A key that is there would be held twice.
   */
  setNew(key: K, value: V): this {
    this.newest(key).set(key, value);
    return this;
  }

  keys(): IterableIterator<K> {
    return this.each((part) => part.keys());
  }

  values(): IterableIterator<V> {
    return this.each((part) => part.values());
  }

  entries(): IterableIterator<[K, V]> {
    return this.each((part) => part.entries());
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }

  /** Every entry, in order, to `fn`, which adds and deletes nothing: no generator step per entry. */
  forEach(fn: (value: V, key: K) => void): void {
    for (const part of this.parts) part.forEach(fn);
  }

  /** The newest `n` values, oldest first: reads the parts they are in, not the whole map. */
  lastValues(n: number): V[] {
    const out: V[][] = [];
    let wanted = Math.max(0, Math.floor(n));
    for (let i = this.parts.length - 1; i >= 0 && wanted > 0; i--) {
      const values = [...this.parts[i]!.values()];
      out.push(values.length > wanted ? values.slice(values.length - wanted) : values);
      wanted -= Math.min(wanted, values.length);
    }
    return out.reverse().flat();
  }
}

/** A Set (the methods the sandbox uses) that never grows by more than CHUNK entries at once. */
export class ChunkedSet<T> extends Chunked<T, Set<T>> {
  constructor(chunk = CHUNK) {
    super(chunk, () => new Set<T>());
  }

  add(value: T): this {
    if (this.find(value) < 0) this.newest(value).add(value);
    return this;
  }

  /** `add` of a value the caller knows is not in the set (see ChunkedMap.setNew). */
  addNew(value: T): this {
    this.newest(value).add(value);
    return this;
  }

  values(): IterableIterator<T> {
    return this.each((part) => part.values());
  }

  [Symbol.iterator](): IterableIterator<T> {
    return this.values();
  }

  /** Every value, in order, to `fn`, which adds and deletes nothing: no generator step per value. */
  forEach(fn: (value: T) => void): void {
    for (const part of this.parts) for (const value of part) fn(value);
  }
}
