// The visit book: beside the page timelines, per visit (siteId + sessionId) its pages, identity and cart,
// and per userId the clicks and quick adds that can earn an order line credit; its orders are in the order
// book (order-book.ts). Incremental: an event touches its own visit only; reads build the DTOs (README,
// "The whole visit and its credit").
import type { VisitFilter, VisitPageDto } from '../../../shared/visits';
import type { Verdict } from '../../../shared/timeline';
import type { Interaction, LostInteraction } from './credit';
import { productIds, type PageEvent, type QuickLine, type VisitEvent } from './events';
import {
  emptyLedger,
  noteCartEvent,
  noteOrderPlaced,
  noteRefusedCartEvent,
  noteQuickAdd,
  type CartLedger,
} from './cart-ledger';
import {
  currencyMismatch,
  notePrices,
  noteQuickPrices,
  priceIssues,
  pricesIn,
  quickPriceIssues,
} from './prices';
import { RecentCarts, type RecentCart, type UserReset } from './recent-carts';
import { originOf } from '../page-url';
import { ChunkedMap } from '../../chunked';
import { visitJson } from './visit-dto';
import { SiteCounts } from '../site-counts';
import {
  noteIdentity,
  type EventIdentity,
  type PageIdentity,
  type VisitIdentity,
} from './identity';
import { OrderBook, type OrderOptions, type OrderRecord } from './order-book';
import { addMark, type ShopperMark } from './shopper-marks';
import { UserStarts } from './user-starts';
import type { ShownOnPage } from './shown-on-page';

/** What the timeline engine tells the book about a page when a visit is read. */
export interface PageInfo {
  kind: VisitPageDto['kind'];
  verdict: Verdict;
  pageUrl: string;
}

/**
 * A page of the visit's site and sessionId whose every event was refused: the book never hears of it (a
 * visit is made of accepted events), but the timelines group it with the session, so the visit lists it.
 */
export interface RefusedPage extends PageInfo {
  pageLoadId: string;
  /** when it was first seen (ms): its place among the visit's pages */
  first: number;
}

/** A page load whose URL set the client's mode for it and the visit's pages after it. */
export interface DevSwitch {
  time: number;
  dev: boolean;
  /** the page load's first event in the visit, and the page load */
  eventId: string;
  pageLoadId: string;
}

/** switches a visit keeps (a shopper toggling more is a test: its latest ones are what pages follow) */
const MAX_SWITCHES = 8;

/**
 * The mode a page URL sets (Snap.tsx: a `dev` query parameter sets development mode and a session cookie
 * that keeps it, `dev=false` or `dev=0` production and clears the cookie), or undefined when it sets none.
 */
export function devSwitchOf(pageUrl: string): boolean | undefined {
  if (!pageUrl.includes('dev')) return undefined;
  let dev: string | null;
  try {
    dev = new URL(pageUrl).searchParams.get('dev');
  } catch {
    return undefined;
  }
  if (dev === null) return undefined;
  return dev !== 'false' && dev !== '0';
}

/**
 * A visit's latest page loads (up to MAX_LOADS) and the time of each one's first event: when the client read
 * the session and rolled its 30 minutes (B getStoredId, once per page load). Kept whatever `check` lets go
 * of, for the session rules; written in place (a page load per beacon costs no allocation).
 */
export class RecentLoads {
  private readonly keys: Array<string | undefined> = new Array<string | undefined>(MAX_LOADS);
  private readonly firsts = new Float64Array(MAX_LOADS);
  /** how many were noted, all told (the newest is at (count - 1) % MAX_LOADS) */
  private count = 0;

  get size(): number {
    return Math.min(this.count, MAX_LOADS);
  }

  /** The slot of `pageKey`'s page load, newest first; -1 when it is not among them. */
  find(pageKey: string): number {
    for (let n = 0; n < this.size; n++) {
      const i = (this.count - 1 - n) % MAX_LOADS;
      if (this.keys[i] === pageKey) return i;
    }
    return -1;
  }

  firstAt(slot: number): number {
    return this.firsts[slot]!;
  }

  /** An earlier first event of the page load in `slot`. */
  earlier(slot: number, time: number): void {
    if (time < this.firsts[slot]!) this.firsts[slot] = time;
  }

  add(pageKey: string, first: number): void {
    const i = this.count % MAX_LOADS;
    this.keys[i] = pageKey;
    this.firsts[i] = first;
    this.count++;
  }

  /** The page load's first event's time (undefined: not among its latest loads). */
  startOf(pageKey: string): number | undefined {
    const slot = this.find(pageKey);
    return slot === -1 ? undefined : this.firsts[slot];
  }

  /** Whether a page load other than `except`'s began after `from` and before `to`, at a URL `otherUrl` calls another. */
  beganBetween(
    from: number,
    to: number,
    except: readonly string[],
    otherUrl: (pageKey: string) => boolean,
  ): boolean {
    for (let n = 0; n < this.size; n++) {
      const key = this.keys[n]!;
      const first = this.firsts[n]!;
      if (first > from && first < to && !except.includes(key) && otherUrl(key)) return true;
    }
    return false;
  }

  /** The page loads that began after `from` and at or before `to`. */
  *begunBetween(from: number, to: number): Generator<string> {
    for (let n = 0; n < this.size; n++) {
      const first = this.firsts[n]!;
      if (first > from && first <= to) yield this.keys[n]!;
    }
  }

  /** The latest start of a page load at or before `time` (-Infinity: none). */
  latestStartBy(time: number): number {
    let t = -Infinity;
    for (let n = 0; n < this.size; n++) {
      const first = this.firsts[n]!;
      if (first <= time && first > t) t = first;
    }
    return t;
  }
}

/** page loads a visit remembers the start of (`Visit.loads`) */
const MAX_LOADS = 8;

/** An event of a visit that came after the visit had been quiet longer than a session lives. */
export interface SessionGap {
  eventId: string;
  pageKey: string;
  /** the visit's latest event time before it, and the gap */
  afterMs: number;
  gapMs: number;
}

/**
 * How long the provider's client keeps a sessionId without an event (rolling, 30 minutes), with a minute
 * for clocks: an event after a longer silence gets a new sessionId from the real client.
 */
export const SESSION_IDLE_MS = 31 * 60_000;
/** gaps a visit keeps (one is enough to name the fault; a few show it recurs) */
const MAX_GAPS = 5;

interface FirstEvent {
  eventId: string;
  pageKey: string;
  pageLoadId: string;
  pageUrl: string;
  userId: string;
  dev: boolean;
  time: number;
}

/**
 * A cart or order event's prices are in its currency (`pricesIn`), unless it names another currency than
 * the visit's prices at exactly those prices: then its amounts were not converted and are still in the
 * visit's currency (`order-currency-mismatch`), which the visit keeps.
 */
function pricedIn(visit: Visit, v: VisitEvent): void {
  const mismatch = currencyMismatch(v, visit);
  if (mismatch) v.currencyMismatch = mismatch;
  else pricesIn(visit, v.currency ?? '');
}

/**
 * A page of a visit: its pageLoadId, the times of its earliest and latest events, its identity marks, and
 * where the page keeps its visits (null once the page was let go).
 */
export type VisitPageEntry = {
  pageLoadId: string;
  first: number;
  last: number;
  holder: PageVisits | null;
  /**
   * how many of the visit's shopper marks and interactions are the page's: when it is forgotten, the
   * lists are read from their start until that many are taken out, not to their end (the page forgotten
   * is mostly the visit's oldest, its entries first)
   */
  marks: number;
  interactions: number;
  /**
   * what the page showed (its tiles, redirect, product views), kept when `check` let the page go, for the
   * visit rules of the pages after it (`click-not-sent`); absent while the timelines hold the page
   */
  shown?: ShownOnPage;
} & PageIdentity;

/**
 * Where the book keeps the visits a page is in: on the page itself (the engine's `Page`), so each of its
 * events finds them without a lookup, and a visit that goes takes itself off its pages (`VisitPageEntry`).
 */
export interface PageVisits {
  /** the page's visit; a list only for two (its sessionId changed); undefined before its first */
  bookVisits: Visit | Visit[] | undefined;
}

/** A visit, with its cart ledger (cart-ledger.ts). */
export interface Visit extends CartLedger {
  key: string;
  siteId: string;
  sessionId: string;
  userIds: string[];
  shopperId: string;
  startMs: number;
  endMs: number;
  /**
   * the time of the event that arrived last (not the latest time: a clock set back moves it back too);
   * `check` lets go of what only events far older than it could read (`pageReleased`)
   */
  lastMs: number;
  /** pages `check` let go of since it last looked for what no page left to judge reads (`pageReleased`) */
  released: number;
  /**
   * the earliest time an event of the visit may have and still be read against all of it that was kept:
   * what `check` let go of could be read only by an earlier one (-Infinity while nothing went)
   */
  readsFrom: number;
  /**
   * page key → the times of its earliest and latest events in this visit, and its latest events that
   * carried no shopperId or attribution
   */
  pages: Map<string, VisitPageEntry>;
  /**
   * the shopperIds of its accepted product, cart, order and login events, and of its other events where
   * the page's shopperId changed, in time order (the login rules: shopper-marks.ts)
   */
  shoppers: ShopperMark[];
  /** the earliest events that carried a shopperId and an attribution (identity.ts) */
  identity?: VisitIdentity;
  /** the latest receive time of its events (null while none had one) */
  lastReceivedMs: number | null;
  /** events that came after more than the client's session lifetime without one (`session-expired`) */
  gaps?: SessionGap[];
  /** its latest page loads: when each read the session (`session-renewed`, `session-expired`) */
  loads: RecentLoads;
  /**
   * the page loads whose URL switched the client's mode (`?dev`, `?dev=false`: Snap keeps it in a session
   * cookie for the pages after), in time order; absent while none did (`visit-dev-mixed`)
   */
  devSwitches?: DevSwitch[];
  orders: OrderRecord[];
  /** the price each product's cart events last carried (by uid), and the event that carried it */
  prices?: Map<string, { price: number; eventId: string }>;
  interactions: Interaction[];
  /** clicks and quick adds the service rejected (rare): no credit, but the lines they would credit say so */
  lostInteractions?: LostInteraction[];
  /** an entry of a page it did not hold went into `shoppers` or `interactions`: they are read whole */
  uncounted?: true;
  /** the visit's first accepted event (by arrival): its identity and mode are the visit's */
  first: FirstEvent;
  /** bumped on every change to the visit; with its pages' kinds and verdicts, the key of its cached JSON */
  changes: number;
  cache?: { stamp: string; json: string };
}

/**
 * The sessionId of the visit an accepted event of a page belongs to. A page load has one shopper, whose ids
 * are the page's first accepted event's (B reads userId and sessionId once per page load and keeps them):
 * an event of the page's userId whose sessionId changed midway stays in the page's visit, so the drift
 * (`context-drift` names it) makes no visit of its own, and its cart, clicks and order count where the
 * shopper's do. An event with another userId too is another shopper sharing the pageLoadId
 * (`pageload-shared`): its own visit, by its own sessionId.
 */
export function visitSessionOf(
  page: { readonly sessionId: string; readonly userId: string },
  ev: Pick<PageEvent, 'sessionId' | 'userId'>,
): string {
  return ev.sessionId !== page.sessionId && ev.userId === page.userId && page.sessionId !== ''
    ? page.sessionId
    : ev.sessionId;
}

/**
 * How far back the pages still to be judged read a visit (`pageReleased`): a page's rules read the visit's
 * clicks and page starts from `readsBackMs` before its own events, events of the visit arrive no more than
 * `lagMs` (in the client's time) behind the one that arrived last, and the pages begun within
 * `keepWithinMs` of the visit's start are read whenever a page is judged. `clicks`: the clicks may go too
 * (they credit no order: `check`'s report).
 */
export interface ReleaseReach {
  keepWithinMs: number;
  readsBackMs: number;
  lagMs: number;
  clicks: boolean;
}

/**
 * What of a visit no page still open, nor one yet to come, can read goes: the places of released pages
 * (past the first `keepWithinMs`) and, with `clicks`, the clicks, older than `readsBackMs` before the
 * earliest time such a page can have (its first event; `lagMs` before the event that arrived last).
 */
function forgetUnreadable(v: Visit, reach: ReleaseReach): void {
  let earliest = v.lastMs - reach.lagMs;
  for (const p of v.pages.values()) if (p.holder !== null && p.first < earliest) earliest = p.first;
  if (earliest > v.readsFrom) v.readsFrom = earliest;
  const oldest = earliest - reach.readsBackMs;
  for (const [key, p] of v.pages)
    if (p.holder === null && p.first < oldest && p.first - v.first.time > reach.keepWithinMs)
      v.pages.delete(key);
  if (!reach.clicks) return;
  const list = v.interactions;
  let kept = 0;
  for (let i = 0; i < list.length; i++) {
    const x = list[i]!;
    if (x.time < oldest) {
      const p = v.pages.get(x.source.pageKey);
      if (p) p.interactions--;
      continue;
    }
    if (kept !== i) list[kept] = x;
    kept++;
  }
  if (kept !== list.length) list.length = kept;
}

/** The page holds `v` among its visits (`onPage`: its visits as the event found them, unchanged since). */
function holdVisit(holder: PageVisits, onPage: Visit | Visit[] | undefined, v: Visit): void {
  if (onPage === undefined) holder.bookVisits = v;
  else if (Array.isArray(onPage)) onPage.push(v);
  else holder.bookVisits = [onPage, v];
}

/** The book reads its options only for the credit of its orders' lines. */
export type BookOptions = OrderOptions;

const key2 = (a: string, b: string) => `${a}\u0000${b}`;

/** A page's visits as `PageVisits` holds them, as a list. */
const listOf = (held: Visit | Visit[]): readonly Visit[] => (Array.isArray(held) ? held : [held]);

/**
 * Take the `count` entries of `pageKey` out of `list`, in place, reading from its start; `Infinity` reads
 * it all. Each entry read is an object of its own: at the retention limit, where a page is forgotten with
 * every beacon, reading every one of a long visit's entries cost more than the rest of the fold.
 */
function withoutPage<T>(list: T[], pageKey: string, count: number, pageOf: (x: T) => string): void {
  if (count === Infinity) return withoutAll(list, pageKey, pageOf);
  for (let i = 0; count > 0 && i < list.length;)
    if (pageOf(list[i]!) === pageKey) {
      list.splice(i, 1);
      count--;
    } else i++;
}

const ownPage = (x: { pageKey: string }) => x.pageKey;
const sourcePage = (i: Interaction) => i.source.pageKey;

/**
 * One more of the page's entries in a list of the visit (its shopper marks or its interactions), counted
 * on its entry; a page the visit does not hold (no caller does that) makes every forgetting read whole.
 */
function counted(v: Visit, pageKey: string, list: 'marks' | 'interactions'): void {
  const p = v.pages.get(pageKey);
  if (p) p[list]++;
  else v.uncounted = true;
}

/** Every entry of `pageKey` out of `list`, in place (a list that holds none is left as it is). */
function withoutAll<T>(list: T[], pageKey: string, pageOf: (x: T) => string): void {
  let kept = 0;
  for (let i = 0; i < list.length; i++) {
    const x = list[i]!;
    if (pageOf(x) === pageKey) continue;
    if (kept !== i) list[kept] = x;
    kept++;
  }
  if (kept !== list.length) list.length = kept;
}

/**
 * The visit's span in the client's time, its latest receive time, and a gap when the event came after a
 * silence longer than a session lives.
 */
function noteTime(v: Visit, pageKey: string, ev: PageEvent): void {
  if (ev.time < v.startMs) v.startMs = ev.time;
  // a silence in the client's own time; when both were received, in the sandbox's too (an hour-old
  // timestamp arriving with the rest is a clock or caching bug, `timestamp-skew`, not a long session).
  // Only a new page load reads the session again: the client reads its sessionId once per page load and
  // keeps it in memory (B getContext: `this.sessionId || this.getSessionId()`), so a page open through a
  // longer silence (an SPA left idle) keeps it rightly
  const slot = v.loads.find(pageKey);
  if (
    ev.time - v.endMs > SESSION_IDLE_MS &&
    !(slot !== -1 && v.loads.firstAt(slot) <= v.endMs) &&
    (ev.receivedMs === null ||
      v.lastReceivedMs === null ||
      ev.receivedMs - v.lastReceivedMs > SESSION_IDLE_MS) &&
    (v.gaps?.length ?? 0) < MAX_GAPS
  )
    (v.gaps ??= []).push({
      eventId: ev.id,
      pageKey,
      afterMs: v.endMs,
      gapMs: ev.time - v.endMs,
    });
  if (slot === -1) {
    v.loads.add(pageKey, ev.time);
    const dev = devSwitchOf(ev.pageUrl);
    if (dev !== undefined) {
      const switches = (v.devSwitches ??= []);
      switches.push({ time: ev.time, dev, eventId: ev.id, pageLoadId: ev.pageLoadId });
      if (switches.length > MAX_SWITCHES) switches.shift();
      // in time order (events of a visit arrive nearly so)
      switches.sort((a, b) => a.time - b.time);
    }
  } else v.loads.earlier(slot, ev.time);
  if (ev.time > v.endMs) v.endMs = ev.time;
  v.lastMs = ev.time;
  if (ev.receivedMs !== null && (v.lastReceivedMs === null || ev.receivedMs > v.lastReceivedMs))
    v.lastReceivedMs = ev.receivedMs;
}

export class VisitBook {
  private readonly visits = new ChunkedMap<string, Visit>();
  /** visits per siteId: a reset of the one site that holds every visit empties the book at once */
  private readonly siteVisits = new SiteCounts();
  /** siteId + userId → the visits of that userId (credit looks across visits) */
  private readonly byUser = new ChunkedMap<string, Set<Visit>>();
  /** a userId's visits by start time, where it has many (`previousVisitOf`) */
  private readonly userStarts = new UserStarts<Visit>();
  /** each visit's latest cart by content: an order on another origin finds the visit it came from */
  private readonly recentCarts = new RecentCarts();
  /** the visits' orders, each line with its credit */
  readonly orders: OrderBook;
  /**
   * events that came earlier (in their visit's time) than what `check` kept of their visit can be read
   * from (`Visit.readsFrom`): they were judged without the clicks and pages let go of
   */
  lateArrivals = 0;

  constructor(options: BookOptions) {
    this.orders = new OrderBook(options, {
      visitOf: (siteId, sessionId) => this.visitOf(siteId, sessionId),
      visitsOf: (siteId, userId) => this.byUser.get(key2(siteId, userId)),
      matching: (filter) => this.candidates(filter),
    });
  }

  /**
   * An accepted event of any kind arrived on a page: the visit's pages, identity and time span. `who`:
   * what its context said of the shopper; `visitEvent`: a product, cart, order or login event, whose
   * shopper mark `noteVisitEvent` adds. `holder`: the page, which keeps its visits. `sessionId`: the
   * visit's (`visitSessionOf`), the event's own unless told.
   */
  noteEvent(
    siteId: string,
    pageKey: string,
    holder: PageVisits,
    ev: PageEvent,
    who?: EventIdentity,
    visitEvent = false,
    sessionId = ev.sessionId,
  ): Visit {
    // the page's visits, held by the page: they find the visit, and a new page of it is entered in them
    const onPage = holder.bookVisits;
    const v = this.visitFor(siteId, pageKey, ev, onPage, sessionId);
    v.changes++;
    if (ev.time < v.readsFrom) this.lateArrivals++;
    const startMs = v.startMs;
    noteTime(v, pageKey, ev);
    if (v.startMs !== startMs)
      for (const u of v.userIds) this.userStarts.restarted(key2(v.siteId, u), v);
    this.noteUser(v, ev.userId);
    const p = this.notePage(v, pageKey, ev, holder, onPage);
    if (who) {
      noteIdentity(v, p, pageKey, ev.id, ev.time, who);
      // a search-side event marks the shopper where its page's shopperId changes: the login rules read
      // every event's shopper that way, at a mark or two per page
      if (!visitEvent && p.shopper !== who.shopperId) {
        p.shopper = who.shopperId;
        p.marks++;
        addMark(v.shoppers, {
          eventId: ev.id,
          pageKey,
          time: ev.time,
          shopperId: who.shopperId,
          login: false,
        });
      }
    }
    return v;
  }

  /** The visit of the event's page and sessionId, begun with this event when it is the first. */
  private visitFor(
    siteId: string,
    pageKey: string,
    ev: PageEvent,
    onPage: Visit | Visit[] | undefined,
    sessionId: string,
  ): Visit {
    // the page's visit is found through the page (its key is a string already hashed), not by building
    // the visit's key again for every event
    let v: Visit | undefined;
    if (onPage === undefined) v = undefined;
    else if (!Array.isArray(onPage))
      v = onPage.sessionId === sessionId && onPage.siteId === siteId ? onPage : undefined;
    else v = onPage.find((x) => x.sessionId === sessionId && x.siteId === siteId);
    const key = v?.key ?? key2(siteId, sessionId);
    v ??= this.visits.get(key);
    if (v) return v;
    v = {
      key,
      siteId,
      sessionId,
      userIds: [],
      shopperId: '',
      startMs: ev.time,
      endMs: ev.time,
      lastMs: ev.time,
      loads: new RecentLoads(),
      released: 0,
      readsFrom: -Infinity,
      pages: new Map(),
      shoppers: [],
      lastReceivedMs: null,
      ...emptyLedger(),
      orders: [],
      interactions: [],
      changes: 0,
      first: {
        eventId: ev.id,
        pageKey,
        pageLoadId: ev.pageLoadId,
        pageUrl: ev.pageUrl,
        userId: ev.userId,
        dev: ev.dev,
        time: ev.time,
      },
    };
    this.visits.setNew(key, v);
    this.siteVisits.added(siteId);
    return v;
  }

  /** A userId the visit had not carried: the visit is one of its visits (credit looks across them). */
  private noteUser(v: Visit, userId: string): void {
    if (v.userIds.includes(userId)) return;
    v.userIds.push(userId);
    const uk = key2(v.siteId, userId);
    let set = this.byUser.get(uk);
    if (!set) this.byUser.setNew(uk, (set = new Set()));
    set.add(v);
    this.userStarts.added(uk, v, set);
  }

  /** The page's entry in the visit: its span, begun with this event when it is the page's first. */
  private notePage(
    v: Visit,
    pageKey: string,
    ev: PageEvent,
    holder: PageVisits,
    onPage: Visit | Visit[] | undefined,
  ): VisitPageEntry {
    let p = v.pages.get(pageKey);
    if (!p) {
      // every field it may get, set now: one added later goes to a second object of the entry's own
      p = {
        pageLoadId: ev.pageLoadId,
        first: ev.time,
        last: ev.time,
        anonymous: undefined,
        unattributed: undefined,
        shopper: undefined,
        holder,
        marks: 0,
        interactions: 0,
      };
      v.pages.set(pageKey, p);
      holdVisit(holder, onPage, v);
    } else {
      // a page `check` let go of gets events again (a later part of it): it holds its place once more, so
      // the place and the clicks its rules read stay while it is open (`forgetUnreadable`)
      if (p.holder === null) {
        p.holder = holder;
        holdVisit(holder, onPage, v);
      }
      if (ev.time < p.first) p.first = ev.time;
      if (ev.time > p.last) p.last = ev.time;
    }
    return p;
  }

  /**
   * The sessionId of the visit of `userId` that holds the place of a page `check` let go of
   * (`pageReleased`), if one still does: the visit the page's earlier part was in, which a later part
   * rejoins (one page load has one shopper, whose ids are its first event's).
   */
  releasedSessionOf(siteId: string, pageKey: string, userId: string): string | undefined {
    for (const v of this.byUser.get(key2(siteId, userId)) ?? [])
      if (v.pages.get(pageKey)?.holder === null) return v.sessionId;
    return undefined;
  }

  /**
   * An accepted clickthrough or addtocart of any kind: it may earn credit; a quick add (`lines`: its items'
   * line keys and quantities) moves the cart on.
   */
  noteInteraction(
    visit: Visit,
    i: Interaction,
    lines: readonly QuickLine[] = [],
    currency = '',
  ): void {
    visit.changes++;
    this.orders.creditChanged(visit.siteId, i.userId);
    counted(visit, i.source.pageKey, 'interactions');
    visit.interactions.push(i);
    if (i.event === 'addtocart') this.noteQuickAdd(visit, i.ids, lines, i.eventId, currency);
  }

  /** A click or quick add the service rejected: it earns no credit, and the line it would have credited says so. */
  noteLostInteraction(visit: Visit, i: LostInteraction): void {
    visit.changes++;
    this.orders.creditChanged(visit.siteId, i.userId);
    (visit.lostInteractions ??= []).push(i);
  }

  /**
   * A quick add moves the client's stored cart on (it adds the items without a cart/add): cart events
   * comparing with the last cart exempt its ids, and the ledger counts its quantities; the prices it
   * carried are what later cart events and orders of the visit are compared with (`price-unit-mismatch`).
   */
  noteQuickAdd(
    visit: Visit,
    ids: string | readonly string[],
    lines: readonly QuickLine[],
    eventId: string,
    /** the quick add's context.currency.code ('' when it names none) */
    currency = '',
  ): void {
    visit.changes++;
    noteQuickAdd(visit, ids, lines);
    pricesIn(visit, currency);
    noteQuickPrices(visit, lines, eventId);
  }

  /** An accepted product, cart, order or login event. */
  noteVisitEvent(visit: Visit, pageKey: string, v: VisitEvent): void {
    const e = v.base;
    visit.changes++;
    if (v.shopperId) visit.shopperId = v.shopperId;
    counted(visit, pageKey, 'marks');
    addMark(visit.shoppers, {
      eventId: e.id,
      pageKey,
      time: e.time,
      shopperId: v.shopperId,
      login: v.endpoint === 'shopper/login',
    });
    if (v.endpoint === 'cart/add' || v.endpoint === 'cart/remove') {
      pricedIn(visit, v);
      v.quickAddIssues = quickPriceIssues(v, visit);
      // an event whose currency is not its prices' keeps the events that priced them in theirs
      if (!v.currencyMismatch) notePrices(visit, v);
    }
    noteCartEvent(visit, pageKey, v);
    if (v.cart)
      this.recentCarts.note(visit.siteId, v.cart, {
        visitKey: visit.key,
        sessionId: visit.sessionId,
        userIds: visit.userIds,
        userId: e.userId,
        origin: originOf(e.pageUrl),
        userAgent: v.userAgent ?? '',
        time: e.time,
        eventId: e.id,
      });
    if (v.endpoint === 'order/transaction') this.noteOrder(visit, pageKey, v);
  }

  /**
   * A cart event the service rejected, of a visit that has begun: the client stored its cart all the same
   * (cart-ledger.ts `noteRefusedCartEvent`).
   */
  noteRefusedCartEvent(siteId: string, sessionId: string, v: VisitEvent): void {
    const visit = sessionId === '' ? undefined : this.visitOf(siteId, sessionId);
    if (!visit) return;
    visit.changes++;
    noteRefusedCartEvent(visit, v);
  }

  /** An order/transaction: its price issues, the cart it came from, the order book. */
  private noteOrder(visit: Visit, pageKey: string, v: VisitEvent): void {
    const e = v.base;
    pricedIn(visit, v);
    const prices = priceIssues(v, visit);
    v.priceIssues = prices?.issues;
    // set only on the few orders that need it (every order carrying the field would cost it a slot)
    if (prices?.elsewhereInCents || v.pricedElsewhereInCents)
      v.pricedElsewhereInCents = prices?.elsewhereInCents ? true : undefined;
    const order = {
      siteId: visit.siteId,
      visitKey: visit.key,
      userId: e.userId,
      pageUrl: e.pageUrl,
      time: e.time,
      firstPage: visit.first.pageKey === pageKey,
      userAgent: v.userAgent ?? '',
    };
    const elsewhere = this.recentCarts.elsewhere(order, v.items);
    if (elsewhere) v.cartElsewhere = elsewhere;
    else {
      const reset = this.userReset(visit, v, this.recentCarts.sameBrowser(order, v.items));
      if (reset) v.userReset = reset;
    }
    this.recentCarts.forget(visit.key);
    // read before the order empties the cart: a cart/add of its items after it is the cart event sent late
    if (
      v.items.length > 0 &&
      !v.items.some((l) => productIds(l).some((id) => visit.addedEver.has(id)))
    )
      v.uncarted = true;
    this.orders.note(visit, pageKey, v);
    noteOrderPlaced(visit);
  }

  /**
   * Of the same browser's carts the order could have been bought from (`candidates`), the latest one a new
   * userId replaced: the order's visit never carted anything itself (no cart event, no quick add: the
   * order bought a cart its own userId never held), the order's userId was first seen after that cart
   * changed, the cart's visit sent nothing since the order's userId appeared (one identity after the
   * other, not two at once), and the two visits share no userId (visit-user-changed's, and credit follows
   * a shared one). Exempt, and why: an order whose visit carted or quick-added (its own identity held a
   * cart: a second shopper of the same machine does that, and so does a storefront whose cart page sends
   * the cart again after the reset — the two look alike); a cart visit still sending after the new userId
   * began (two tabs, two shoppers at once); a userId seen before the cart changed.
   */
  private userReset(
    visit: Visit,
    v: VisitEvent,
    candidates: Iterable<RecentCart>,
  ): UserReset | undefined {
    if (visit.cart !== null || visit.addedEver.size > 0) return undefined;
    let userFirstMs = Infinity;
    for (const x of this.byUser.get(key2(visit.siteId, v.base.userId)) ?? [])
      userFirstMs = Math.min(userFirstMs, x.startMs);
    let found: RecentCart | undefined;
    for (const c of candidates) {
      if (userFirstMs <= c.time || (found && found.time >= c.time)) continue;
      const cartVisit = this.visits.get(c.visitKey);
      if (!cartVisit || cartVisit.endMs > userFirstMs) continue;
      if (visit.userIds.some((u) => cartVisit.userIds.includes(u))) continue;
      found = c;
    }
    if (!found) return undefined;
    const login = visit.shoppers.find((m) => m.login && m.time <= v.base.time);
    // each visit one page load: the browser kept neither id across a navigation (B could not store them:
    // cookies and localStorage blocked), or the storefront gives every page's tracker new ids
    const onePageEach = visit.loads.size === 1 && this.visits.get(found.visitKey)?.loads.size === 1;
    return {
      ...found,
      userFirstMs,
      ...(login && { loginEventId: login.eventId }),
      ...(onePageEach && { onePageEach: true as const }),
    };
  }

  /** The visit of the same userId (its first) that began latest before `visit` did, if the book has one. */
  previousVisitOf(visit: Visit): Visit | undefined {
    const uk = key2(visit.siteId, visit.first.userId);
    return this.userStarts.previous(uk, visit, this.byUser.get(uk));
  }

  visitOf(siteId: string, sessionId: string): Visit | undefined {
    return this.visits.get(key2(siteId, sessionId));
  }

  /** A page was forgotten (retention): visits left without pages go, with their orders. */
  forgetPage(siteId: string, pageKey: string, holder: PageVisits): void {
    const visits = holder.bookVisits;
    if (!visits) return;
    holder.bookVisits = undefined;
    for (const v of listOf(visits)) {
      const p = v.pages.get(pageKey);
      if (v.siteId !== siteId || !p) continue;
      v.pages.delete(pageKey);
      v.changes++;
      for (const u of v.userIds) this.orders.creditChanged(siteId, u);
      this.orders.forgetPage(v, pageKey);
      // in place: at the retention limit a page goes with every beacon, and most lists hold none of it
      const all = v.uncounted === true;
      withoutPage(v.interactions, pageKey, all ? Infinity : p.interactions, sourcePage);
      withoutPage(v.shoppers, pageKey, all ? Infinity : p.marks, ownPage);
      if (v.gaps) withoutPage(v.gaps, pageKey, Infinity, ownPage);
      if (v.lostInteractions) withoutPage(v.lostInteractions, pageKey, Infinity, sourcePage);
      if (v.pages.size === 0) this.drop(v);
    }
  }

  /**
   * `check` judged the page and let it go; its visits stay (their cart and identity judge later pages).
   * What the visits keep goes too where no page left to judge can read it again: the page's hold on its
   * visits (a shortcut: an event for it finds the visit by siteId and sessionId) and theirs on the page, and
   * in each visit the places of pages and, with `clicks`, the clicks that no page still open, nor one yet
   * to come, can read (`forgetUnreadable`); a page begun within `keepWithinMs` of the visit's start keeps
   * its place (the visit rules read the others' start times for a page begun that early: tabs opened
   * together, `CONCURRENT_START_MS`).
   */
  pageReleased(
    pageKey: string,
    holder: PageVisits,
    reach: ReleaseReach,
    shown?: ShownOnPage,
  ): void {
    const visits = holder.bookVisits;
    if (!visits) return;
    holder.bookVisits = undefined;
    for (const v of listOf(visits)) {
      const p = v.pages.get(pageKey);
      if (!p) continue;
      p.holder = null;
      if (shown) p.shown = shown;
      // looked for once an eighth of the visit's pages were let go (at each for a visit of 8 pages or
      // fewer): a visit of thousands of pages open at once (a sessionId every shopper shares) is read
      // through once every few hundred pages, not for each
      if (++v.released * 8 < v.pages.size) continue;
      v.released = 0;
      forgetUnreadable(v, reach);
    }
  }

  /**
   * Offline input too big to hold (`check`): keep at most `max` visits, forgetting the oldest begun
   * (their clicks can no longer earn a later order credit). Returns how many were forgotten.
   */
  forgetOldestVisits(max: number): number {
    let forgotten = 0;
    for (const v of this.visits.values()) {
      if (this.visits.size <= max) break;
      this.drop(v);
      forgotten++;
    }
    return forgotten;
  }

  /** Every visit goes, or those of one site; the caller forgets their pages with them (`PageVisits`). */
  reset(siteId?: string): void {
    if (siteId === undefined || this.siteVisits.holdsAll(siteId, this.visits.size)) {
      // every visit goes, emptied at once, not visit by visit
      this.visits.clear();
      this.siteVisits.clear();
      this.byUser.clear();
      this.userStarts.clear();
      this.orders.clear();
      this.recentCarts.clear();
      return;
    }
    for (const v of [...this.visits.values()])
      if (siteId === undefined || v.siteId === siteId) this.drop(v);
  }

  private drop(v: Visit): void {
    this.visits.delete(v.key);
    this.recentCarts.forget(v.key);
    this.siteVisits.removed(v.siteId);
    for (const p of v.pages.values()) {
      const holder = p.holder;
      if (holder === null || holder.bookVisits === undefined) continue;
      const list = listOf(holder.bookVisits).filter((x) => x !== v);
      holder.bookVisits = list.length === 0 ? undefined : list.length === 1 ? list[0]! : list;
    }
    // a userId with visits left: its credit changed (this visit's clicks are gone); with none, its count goes
    for (const u of v.userIds) {
      const uk = key2(v.siteId, u);
      const set = this.byUser.get(uk);
      set?.delete(v);
      this.userStarts.removed(uk, v, set?.size ?? 0);
      if (set?.size !== 0) this.orders.creditChanged(v.siteId, u);
      else {
        this.byUser.delete(uk);
        this.orders.userGone(v.siteId, u);
      }
    }
    this.orders.forgetVisit(v);
  }

  /**
   * Visits matching the filter, newest last (by start). Each DTO is made when it is read, so an answer
   * streamed in slices (10,000 visits) never holds the event loop for long.
   */
  *listVisits(
    filter: VisitFilter,
    page: (key: string) => PageInfo | undefined,
    refused: (siteId: string, sessionId: string) => readonly RefusedPage[],
  ): Generator<string> {
    const out: Visit[] = [];
    for (const v of this.candidates(filter)) out.push(v);
    out.sort((a, b) => a.startMs - b.startMs);
    for (const v of out) yield visitJson(v, page, refused(v.siteId, v.sessionId));
  }

  private *candidates(filter: VisitFilter): Iterable<Visit> {
    let pool: Iterable<Visit>;
    if (filter.siteId !== undefined && filter.sessionId !== undefined) {
      const v = this.visits.get(key2(filter.siteId, filter.sessionId));
      pool = v ? [v] : [];
    } else if (filter.siteId !== undefined && filter.userId !== undefined)
      pool = this.byUser.get(key2(filter.siteId, filter.userId)) ?? [];
    else pool = this.visits.values();
    for (const v of pool) {
      if (filter.siteId !== undefined && v.siteId !== filter.siteId) continue;
      if (filter.sessionId !== undefined && v.sessionId !== filter.sessionId) continue;
      if (filter.userId !== undefined && !v.userIds.includes(filter.userId)) continue;
      yield v;
    }
  }
}
