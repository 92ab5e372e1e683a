// Where each responseId was first seen, per site: the first page of any kind (responseid-cross-kind) and
// the first of each kind (responseid-reused). Kept for every responseId of the traffic (`check` keeps one
// per response of its whole input), and read only when a responseId comes again, so it is kept in columns:
// an origin is a row of typed arrays and one array of its strings, not an object; its site, kind and
// event are numbers into a table of each. One map, keyed by the responseId string the event already
// holds, gives the row of its first origin; a responseId's other origins (other sites, other kinds)
// follow it in a chain, in arrival order. Objects are made only for a rule that reads one.
import type { ResponseKind } from '../../../shared/kinds';
import { pageKey } from './model';
import type { ResponseOrigin } from './rules/types';
import { ChunkedMap } from '../../chunked';

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
/** strings per row: pageLoadId, pageUrl, sessionId, eventId */
const STRINGS = 4;
/** the end of a chain; the number of a name no row holds; the event of a row not written or let go */
const NONE = -1;
/** any kind (`first`) */
const ANY = -2;

class Block {
  readonly strings: string[] = new Array<string>(ROWS * STRINGS).fill('');
  readonly time = new Float64Array(ROWS);
  /** the row's site, kind and event, as numbers into the tables of each */
  readonly site = new Int32Array(ROWS);
  readonly kind = new Int32Array(ROWS);
  /** NONE for a row not written yet or forgotten */
  readonly event = new Int32Array(ROWS).fill(NONE);
  readonly dev = new Uint8Array(ROWS);
  /**
   * the row of the responseId's next origin (another site or kind), or NONE; a float: a sandbox kept
   * running counts its rows past 2³¹
   */
  readonly next = new Float64Array(ROWS).fill(NONE);
  /** rows written and not forgotten */
  live = 0;
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
  /** each responseId's first origin's row */
  private readonly byId = new ChunkedMap<string, number>();
  private blocks: Array<Block | undefined> = [];
  /** the next row written */
  private rows = 0;
  private readonly sites = new Names();
  private readonly kinds = new Names();
  private readonly events = new Names();

  /** responseIds held */
  get size(): number {
    return this.byId.size;
  }

  /**
   * Note where `ev.responseId` was seen, on `page`, unless the page's site already has an origin of the
   * event's kind. The page's own strings are kept where the event's are the same (one string per page).
   */
  note(page: OriginPage, ev: OriginEvent): void {
    const site = this.sites.numberOf(page.siteId);
    const kind = this.kinds.numberOf(ev.kind);
    const head = this.byId.get(ev.responseId);
    if (head === undefined) {
      this.byId.setNew(ev.responseId, this.write(page, ev, site, kind));
      return;
    }
    let row = head;
    for (;;) {
      const b = this.blockOf(row);
      const i = row % ROWS;
      if (b.site[i] === site && b.kind[i] === kind) return;
      if (b.next[i] === NONE) {
        b.next[i] = this.write(page, ev, site, kind);
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
    for (const [id, head] of this.byId) {
      if (this.byId.size <= max) break;
      this.byId.delete(id);
      for (let row = head; row !== NONE;) row = this.letGo(row);
      forgotten++;
    }
    return forgotten;
  }

  /** Forget every origin, or those of one site. */
  reset(siteId?: string): void {
    const site = siteId === undefined ? NONE : this.sites.find(siteId);
    if (siteId === undefined || !this.heldByOtherThan(site)) {
      // one site's reset that leaves no other site's origin empties it all at once, not id by id
      this.byId.clear();
      this.blocks = [];
      this.rows = 0;
      return;
    }
    for (const [id, head] of this.byId) {
      // the chain without the site's rows, in its order
      let first = NONE;
      let last = NONE;
      for (let row = head; row !== NONE;) {
        const b = this.blockOf(row);
        const i = row % ROWS;
        const next = b.next[i]!;
        if (b.site[i] === site) this.letGo(row);
        else {
          b.next[i] = NONE;
          if (last === NONE) first = row;
          else this.blockOf(last).next[last % ROWS] = row;
          last = row;
        }
        row = next;
      }
      if (first === NONE) this.byId.delete(id);
      else if (first !== head) this.byId.set(id, first);
    }
  }

  private find(siteId: string, responseId: string, kind: number): ResponseOrigin | undefined {
    const head = this.byId.get(responseId);
    if (head === undefined) return undefined;
    const site = this.sites.find(siteId);
    for (let row = head; row !== NONE;) {
      const b = this.blockOf(row);
      const i = row % ROWS;
      if (b.site[i] === site && (kind === ANY || b.kind[i] === kind)) return this.origin(b, i);
      row = b.next[i]!;
    }
    return undefined;
  }

  private write(page: OriginPage, ev: OriginEvent, site: number, kind: number): number {
    const row = this.rows++;
    const i = row % ROWS;
    if (i === 0) this.blocks.push(new Block());
    const b = this.blocks[this.blocks.length - 1]!;
    const s = i * STRINGS;
    b.strings[s] = page.pageLoadId;
    b.strings[s + 1] = ev.pageUrl === page.pageUrl ? page.pageUrl : ev.pageUrl;
    b.strings[s + 2] = ev.sessionId === page.sessionId ? page.sessionId : ev.sessionId;
    b.strings[s + 3] = ev.id;
    b.time[i] = ev.time;
    b.site[i] = site;
    b.kind[i] = kind;
    b.event[i] = this.events.numberOf(ev.event);
    b.dev[i] = ev.dev ? 1 : 0;
    b.live++;
    return row;
  }

  /** The row is forgotten (its block goes with its last row, unless rows are still written to it); its chain's next row. */
  private letGo(row: number): number {
    const at = Math.floor(row / ROWS);
    const b = this.blocks[at]!;
    const next = b.next[row % ROWS]!;
    if (--b.live === 0 && at < this.blocks.length - 1) this.blocks[at] = undefined;
    else {
      // its strings go now, not with the block
      const i = row % ROWS;
      b.strings.fill('', i * STRINGS, (i + 1) * STRINGS);
      b.event[i] = NONE;
    }
    return next;
  }

  private blockOf(row: number): Block {
    return this.blocks[Math.floor(row / ROWS)]!;
  }

  private origin(b: Block, i: number): RowOrigin {
    const s = i * STRINGS;
    return new RowOrigin(
      this.sites.name(b.site[i]!),
      b.strings[s]!,
      b.strings[s + 1]!,
      b.strings[s + 2]!,
      b.strings[s + 3]!,
      this.kinds.name(b.kind[i]!) as ResponseKind,
      this.events.name(b.event[i]!),
      b.time[i]!,
      b.dev[i] === 1,
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
