// Where each responseId was first seen, per site: the first page of any kind (responseid-cross-kind) and
// the first of each kind (responseid-reused). Kept for every responseId of the traffic (`check` keeps one
// per response of its whole input, up to 250,000), and read only when a responseId comes again, so it is
// kept in columns, off V8's heap where it can be: an origin is a row of typed arrays; its site, kind and
// event are numbers into a table of each; its responseId and eventId are characters in its block's bytes.
// Only the page's three strings (pageLoadId, pageUrl, sessionId), which the page's visit and the released
// pages' list hold too, stay strings. A string of its own and a Map entry for each responseId were most of
// what `check` held for pages it had let go; V8 let its heap grow to 1.85 times that (docs/benchmarks.md,
// "check on a million events").
// A responseId's first row is its chain's head; the responseId's other origins (other sites, other kinds)
// follow it, in arrival order. The heads are found by the responseId's hash in one table cut in SHARDS
// parts by the hash's low byte: a part grows on its own (at a million responseIds, ~4,000 entries move,
// not a million at once) and a lookup reads one part. Objects are made only for a rule that reads one.
import type { ResponseKind } from '../../../shared/kinds';
import { keyHash } from '../../key-filter';
import { pageKey } from './model';
import type { ResponseOrigin } from './rules/types';

/** What an origin takes from the page that carried the responseId first. */
export interface OriginPage {
  siteId: string;
  pageLoadId: string;
  pageUrl: string;
  sessionId: string;
}

/** What an origin takes from the event that carried the responseId first. */
export interface OriginEvent {
  id: string;
  responseId: string;
  kind: ResponseKind;
  event: string;
  time: number;
  dev: boolean;
  pageUrl: string;
  sessionId: string;
}

/** Where a responseId was first seen, as a rule reads it: made from its row when asked for. */
class RowOrigin implements ResponseOrigin {
  constructor(
    readonly siteId: string,
    readonly pageLoadId: string,
    readonly pageUrl: string,
    readonly sessionId: string,
    readonly eventId: string,
    readonly kind: ResponseKind,
    readonly event: string,
    readonly time: number,
    readonly dev: boolean,
  ) {}

  /** made from the site and pageLoadId when read (rarely: a responseId seen again), not kept */
  get pageKey(): string {
    return pageKey(this.siteId, this.pageLoadId);
  }
}

/** rows per block: a block goes when its last origin is forgotten */
const ROWS = 4096;
/** strings per row: pageLoadId, pageUrl, sessionId */
const STRINGS = 3;
/** the end of a chain; the number of a name no row holds; the site and event of a row not written or let go */
const NONE = -1;
/** any kind (`first`) */
const ANY = -2;
/** a row's flags: it heads its responseId's chain (and is in the heads' table) */
const HEAD = 1;
/** its responseId's characters are kept as UTF-16 code units (one is over 0xFF), not a byte each */
const WIDE_ID = 2;
/** the same for its eventId */
const WIDE_EVENT = 4;
/** the event carried context.dev: true */
const DEV = 8;

class Block {
  readonly strings: string[] = new Array<string>(ROWS * STRINGS).fill('');
  readonly time = new Float64Array(ROWS);
  /** the row's site, kind and event, as numbers into the tables of each */
  readonly site = new Int32Array(ROWS).fill(NONE);
  readonly kind = new Int32Array(ROWS);
  /** NONE for a row not written yet, forgotten, or a head whose own origin went (a site's reset) */
  readonly event = new Int32Array(ROWS).fill(NONE);
  readonly flags = new Uint8Array(ROWS);
  /**
   * the row of the responseId's next origin (another site or kind), or NONE; a float: a sandbox kept
   * running counts its rows past 2³¹
   */
  readonly next = new Float64Array(ROWS).fill(NONE);
  /** a head's responseId's hash (keyHash): its place in the heads' table */
  readonly hash = new Int32Array(ROWS);
  /** where row i's responseId (at 2i) and eventId (at 2i + 1) begin in `text`; 2i + 2 is the end of both */
  readonly textAt = new Int32Array(ROWS * 2 + 1);
  /** a head's responseId and every row's eventId: a byte a character, or two where `flags` say wide */
  text = new Uint8Array(ROWS * 24);
  used = 0;
  /** rows written and not forgotten */
  live = 0;

  /** Append `s` to the text; true when it went as UTF-16 code units. */
  append(s: string): boolean {
    const n = s.length;
    this.room(n);
    const t = this.text;
    let at = this.used;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c > 0xff) return this.appendWide(s);
      t[at++] = c;
    }
    this.used = at;
    return false;
  }

  /** Does the text from `from` to `to` hold `s`? */
  holds(from: number, to: number, wide: boolean, s: string): boolean {
    const t = this.text;
    const n = s.length;
    if (to - from !== (wide ? 2 * n : n)) return false;
    if (wide) {
      for (let i = 0; i < n; i++)
        if ((t[from + 2 * i]! | (t[from + 2 * i + 1]! << 8)) !== s.charCodeAt(i)) return false;
    } else for (let i = 0; i < n; i++) if (t[from + i] !== s.charCodeAt(i)) return false;
    return true;
  }

  read(from: number, to: number, wide: boolean): string {
    const t = this.text;
    let s = '';
    const step = wide ? 2 : 1;
    // fromCharCode takes its characters as arguments: a long text goes in parts
    for (let at = from; at < to;) {
      const end = Math.min(to, at + 4096 * step);
      const codes: number[] = [];
      for (let i = at; i < end; i += step) codes.push(wide ? t[i]! | (t[i + 1]! << 8) : t[i]!);
      s += String.fromCharCode(...codes);
      at = end;
    }
    return s;
  }

  private appendWide(s: string): boolean {
    const n = s.length;
    this.room(2 * n);
    const t = this.text;
    let at = this.used;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      t[at++] = c & 0xff;
      t[at++] = c >>> 8;
    }
    this.used = at;
    return true;
  }

  private room(bytes: number): void {
    if (this.used + bytes <= this.text.length) return;
    const grown = new Uint8Array(Math.max(2 * this.text.length, this.used + bytes));
    grown.set(this.text.subarray(0, this.used));
    this.text = grown;
  }
}

/** parts of the heads' table, by the hash's low byte */
const SHARDS = 256;
const SHARD_BITS = 8;
/** a part's slots when it begins, and its fewest */
const SHARD_SLOTS = 64;
/** a slot whose head went: a probe goes on past it */
const GONE = -1;

/**
 * One part of the heads' table: open addressing, linear probes. Rebuilt 40% full when over 60%, in any
 * size: sized in powers of two, the parts sat a quarter to a half full and took twice the memory.
 */
class Shard {
  /** a head's row + 1; 0 for a slot never used; GONE. Floats: a sandbox kept running counts past 2³¹ */
  rows: Float64Array;
  /** the hash of each slot's responseId */
  hashes: Int32Array;
  /** slots not 0 (heads and GONE) */
  used = 0;
  /** heads */
  live = 0;

  constructor(slots: number) {
    this.rows = new Float64Array(slots);
    this.hashes = new Int32Array(slots);
  }

  /** the first slot of `hash` */
  start(hash: number): number {
    return (hash >>> SHARD_BITS) % this.rows.length;
  }

  /** the slot after `s` */
  next(s: number): number {
    return s + 1 === this.rows.length ? 0 : s + 1;
  }

  add(hash: number, row: number): void {
    if (5 * (this.used + 1) > 3 * this.rows.length) this.rebuild();
    let s = this.start(hash);
    // a new head's responseId is in no slot: the first free one takes it, a GONE one too
    while (this.rows[s]! > 0) s = this.next(s);
    if (this.rows[s] === 0) this.used++;
    this.rows[s] = row + 1;
    this.hashes[s] = hash;
    this.live++;
  }

  remove(hash: number, row: number): void {
    let s = this.start(hash);
    while (this.rows[s] !== row + 1) s = this.next(s);
    this.rows[s] = GONE;
    this.live--;
  }

  /** The heads again in a table 40% full, without the slots of heads gone. */
  private rebuild(): void {
    const slots = Math.max(SHARD_SLOTS, Math.ceil(2.5 * (this.live + 1)));
    const rows = this.rows;
    const hashes = this.hashes;
    this.rows = new Float64Array(slots);
    this.hashes = new Int32Array(slots);
    this.used = 0;
    this.live = 0;
    for (let s = 0; s < rows.length; s++) if (rows[s]! > 0) this.add(hashes[s]!, rows[s]! - 1);
  }
}

/** Few names (the sites, or the kinds, or the events), each a number for a row to hold. */
class Names {
  private readonly numbers = new Map<string, number>();
  private readonly list: string[] = [];
  /** the last name asked for, and its number: mostly the next one asked for */
  private last: string | undefined = undefined;
  private lastNumber = NONE;

  numberOf(name: string): number {
    if (name === this.last) return this.lastNumber;
    let n = this.numbers.get(name);
    if (n === undefined) {
      n = this.list.length;
      this.list.push(name);
      this.numbers.set(name, n);
    }
    this.last = name;
    this.lastNumber = n;
    return n;
  }

  /** the number of `name`, or NONE when no row holds it */
  find(name: string): number {
    return this.numbers.get(name) ?? NONE;
  }

  name(n: number): string {
    return this.list[n]!;
  }
}

export class ResponseOrigins {
  /** the blocks from number `base` on; one whose rows all went is undefined until the blocks before it go */
  private blocks: Array<Block | undefined> = [];
  private base = 0;
  /** the next row written */
  private rows = 0;
  /** responseIds held: the chains' heads */
  private ids = 0;
  /** no row before it heads a chain (the oldest responseIds are forgotten from there) */
  private oldestHead = 0;
  /**
   * the heads' table, by the hash's low byte; a part is made when its first head comes (an engine with
   * all 256 parts made at once took ~0.5 ms to start, and tests and `check` start thousands)
   */
  private heads: Array<Shard | undefined> = ResponseOrigins.shards();
  private readonly sites = new Names();
  private readonly kinds = new Names();
  private readonly events = new Names();

  /** responseIds held */
  get size(): number {
    return this.ids;
  }

  /**
   * Note where `ev.responseId` was seen, on `page`, unless the page's site already has an origin of the
   * event's kind. The page's own strings are kept where the event's are the same (one string per page).
   */
  note(page: OriginPage, ev: OriginEvent): void {
    const site = this.sites.numberOf(page.siteId);
    const kind = this.kinds.numberOf(ev.kind);
    const hash = keyHash(ev.responseId);
    const head = this.headOf(ev.responseId, hash);
    if (head === NONE) {
      this.write(page, ev, site, kind, hash);
      return;
    }
    for (let row = head; ;) {
      const b = this.blockOf(row)!;
      const i = row % ROWS;
      if (b.site[i] === site && b.kind[i] === kind) return;
      if (b.next[i] === NONE) {
        b.next[i] = this.write(page, ev, site, kind, NONE);
        return;
      }
      row = b.next[i]!;
    }
  }

  /** The first page of `responseId` on the site among responses of `kind`. */
  ofKind(siteId: string, responseId: string, kind: ResponseKind): ResponseOrigin | undefined {
    return this.find(siteId, responseId, this.kinds.find(kind));
  }

  /** The first event of any kind that carried `responseId` on the site. */
  first(siteId: string, responseId: string): ResponseOrigin | undefined {
    return this.find(siteId, responseId, ANY);
  }

  /** Forget the oldest responseIds (by first arrival) while more than `max` are held; how many went. */
  forgetOldest(max: number): number {
    let forgotten = 0;
    let row = this.headFrom(this.oldestHead);
    for (; this.ids > max && row < this.rows; row = this.headFrom(row + 1)) {
      this.forgetChain(row);
      forgotten++;
    }
    this.oldestHead = row;
    return forgotten;
  }

  /** Forget every origin, or those of one site. */
  reset(siteId?: string): void {
    const site = siteId === undefined ? NONE : this.sites.find(siteId);
    // a site no row ever held: nothing to forget
    if (siteId !== undefined && site === NONE) return;
    if (siteId === undefined || !this.heldByOtherThan(site)) {
      // one site's reset that leaves no other site's origin empties it all at once, not id by id
      this.blocks = [];
      this.base = 0;
      this.rows = 0;
      this.ids = 0;
      this.oldestHead = 0;
      this.heads = ResponseOrigins.shards();
      return;
    }
    for (let row = this.headFrom(this.oldestHead); row < this.rows; row = this.headFrom(row + 1))
      this.withoutSite(row, site);
  }

  /** The first row from `row` on that heads a chain, or `this.rows` when none does. */
  private headFrom(row: number): number {
    for (; row < this.rows; row++) {
      const b = this.blockOf(row);
      // a block gone whole: on to the next
      if (b === undefined) row = (Math.floor(row / ROWS) + 1) * ROWS - 1;
      else if ((b.flags[row % ROWS]! & HEAD) !== 0) return row;
    }
    return this.rows;
  }

  /** The chain headed by `head` without the site's rows, in its order. Its head stays while any is left. */
  private withoutSite(head: number, site: number): void {
    const hb = this.blockOf(head)!;
    const h = head % ROWS;
    // the head holds the responseId's place among the oldest (and its text) even when its own origin goes
    if (hb.site[h] === site) this.blank(hb, h);
    let last = head;
    let row = hb.next[h]!;
    hb.next[h] = NONE;
    while (row !== NONE) {
      const b = this.blockOf(row)!;
      const i = row % ROWS;
      const next = b.next[i]!;
      if (b.site[i] === site) this.letGo(row);
      else {
        b.next[i] = NONE;
        this.blockOf(last)!.next[last % ROWS] = row;
        last = row;
      }
      row = next;
    }
    if (last === head && hb.event[h] === NONE) this.forgetChain(head);
  }

  private find(siteId: string, responseId: string, kind: number): ResponseOrigin | undefined {
    const site = this.sites.find(siteId);
    if (site === NONE) return undefined;
    const head = this.headOf(responseId, keyHash(responseId));
    for (let row = head; row !== NONE;) {
      const b = this.blockOf(row)!;
      const i = row % ROWS;
      if (b.site[i] === site && (kind === ANY || b.kind[i] === kind)) return this.origin(b, i);
      row = b.next[i]!;
    }
    return undefined;
  }

  /** The row heading `responseId`'s chain, or NONE. */
  private headOf(responseId: string, hash: number): number {
    const shard = this.heads[hash & (SHARDS - 1)];
    if (shard === undefined) return NONE;
    const rows = shard.rows;
    for (let s = shard.start(hash); ; s = shard.next(s)) {
      const v = rows[s]!;
      if (v === 0) return NONE;
      if (v > 0 && shard.hashes[s] === hash) {
        const row = v - 1;
        const b = this.blockOf(row)!;
        const i = row % ROWS;
        if (
          b.holds(b.textAt[2 * i]!, b.textAt[2 * i + 1]!, (b.flags[i]! & WIDE_ID) !== 0, responseId)
        )
          return row;
      }
    }
  }

  /** The part of the heads' table that holds `hash`, made if it is not yet. */
  private shardOf(hash: number): Shard {
    const at = hash & (SHARDS - 1);
    return (this.heads[at] ??= new Shard(SHARD_SLOTS));
  }

  private static shards(): Array<Shard | undefined> {
    return new Array<Shard | undefined>(SHARDS).fill(undefined);
  }

  /** Write a row; a head (`hash` not NONE) goes into the heads' table, with its responseId's text. */
  private write(
    page: OriginPage,
    ev: OriginEvent,
    site: number,
    kind: number,
    hash: number,
  ): number {
    const row = this.rows++;
    const i = row % ROWS;
    if (i === 0) this.blocks.push(new Block());
    const b = this.blocks[this.blocks.length - 1]!;
    const s = i * STRINGS;
    b.strings[s] = page.pageLoadId;
    b.strings[s + 1] = ev.pageUrl === page.pageUrl ? page.pageUrl : ev.pageUrl;
    b.strings[s + 2] = ev.sessionId === page.sessionId ? page.sessionId : ev.sessionId;
    b.time[i] = ev.time;
    b.site[i] = site;
    b.kind[i] = kind;
    b.event[i] = this.events.numberOf(ev.event);
    let flags = ev.dev ? DEV : 0;
    b.textAt[2 * i] = b.used;
    if (hash !== NONE) {
      flags |= HEAD;
      if (b.append(ev.responseId)) flags |= WIDE_ID;
      b.hash[i] = hash;
      this.shardOf(hash).add(hash, row);
      this.ids++;
    }
    b.textAt[2 * i + 1] = b.used;
    if (b.append(ev.id)) flags |= WIDE_EVENT;
    b.textAt[2 * i + 2] = b.used;
    b.flags[i] = flags;
    b.live++;
    return row;
  }

  /** The chain headed by `head` goes, and the responseId with it. */
  private forgetChain(head: number): void {
    const b = this.blockOf(head)!;
    const i = head % ROWS;
    this.shardOf(b.hash[i]!).remove(b.hash[i]!, head);
    b.flags[i]! &= ~HEAD;
    this.ids--;
    for (let row = head; row !== NONE;) row = this.letGo(row);
  }

  /** The row's own origin goes; it stays as its chain's head. */
  private blank(b: Block, i: number): void {
    b.strings.fill('', i * STRINGS, (i + 1) * STRINGS);
    b.site[i] = NONE;
    b.event[i] = NONE;
  }

  /** The row is forgotten (its block goes with its last row, unless rows are still written to it); its chain's next row. */
  private letGo(row: number): number {
    const k = Math.floor(row / ROWS) - this.base;
    const b = this.blocks[k]!;
    const i = row % ROWS;
    const next = b.next[i]!;
    if (--b.live === 0 && k < this.blocks.length - 1) {
      this.blocks[k] = undefined;
      // the blocks gone before any kept are let go of, so that a lookup does not pass them
      while (this.blocks.length > 1 && this.blocks[0] === undefined) {
        this.blocks.shift();
        this.base++;
      }
    } else {
      // its strings go now, not with the block
      this.blank(b, i);
      b.next[i] = NONE;
    }
    return next;
  }

  private blockOf(row: number): Block | undefined {
    return this.blocks[Math.floor(row / ROWS) - this.base];
  }

  private origin(b: Block, i: number): RowOrigin {
    const s = i * STRINGS;
    const f = b.flags[i]!;
    return new RowOrigin(
      this.sites.name(b.site[i]!),
      b.strings[s]!,
      b.strings[s + 1]!,
      b.strings[s + 2]!,
      b.read(b.textAt[2 * i + 1]!, b.textAt[2 * i + 2]!, (f & WIDE_EVENT) !== 0),
      this.kinds.name(b.kind[i]!) as ResponseKind,
      this.events.name(b.event[i]!),
      b.time[i]!,
      (f & DEV) !== 0,
    );
  }

  /** Does a site other than `site` have a row? */
  private heldByOtherThan(site: number): boolean {
    for (const b of this.blocks) {
      if (b === undefined) continue;
      for (let i = 0; i < ROWS; i++) if (b.event[i] !== NONE && b.site[i] !== site) return true;
    }
    return false;
  }
}
