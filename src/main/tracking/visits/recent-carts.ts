// The latest cart of each visit of a site, found by its content: an order that arrives in a visit of its
// own, on another origin, is matched with the storefront visit that held the same cart moments before
// (`order-other-domain`); one on the same origin, from the same browser under a new userId, with the
// visit of the userId it replaced (`order-user-reset`). Bounded: the visits whose cart changed longest ago
// are forgotten first.
import type { CartItemDto } from '../../../shared/visits';
import { lineKey } from './cart-issue';
import { originOf } from '../page-url';

/** A visit's cart as its last cart event left it. */
export interface RecentCart {
  visitKey: string;
  sessionId: string;
  /** the userIds of the visit (its own list: it grows with the visit) */
  userIds: readonly string[];
  /** the userId of that cart event */
  userId: string;
  /** the origin of the page of that cart event ('' when its pageUrl is no URL) */
  origin: string;
  /** the User-Agent header of that cart event ('' when the input recorded none) */
  userAgent: string;
  /** the cart event's time (its timestamp, else its receive time) */
  time: number;
  eventId: string;
}

/** What the order's own visit says of it when it is folded in. */
export interface OrderVisit {
  siteId: string;
  visitKey: string;
  userId: string;
  pageUrl: string;
  time: number;
  /** the order's visit began on the order's page: no earlier page of the visit */
  firstPage: boolean;
  /** the order's User-Agent header ('' when the input recorded none) */
  userAgent: string;
}

/** An order that arrived in a visit of its own on another origin than a storefront visit with its cart. */
export interface CartElsewhere extends RecentCart {
  /** the order page's origin */
  orderOrigin: string;
}

/**
 * An order from the same browser as a visit of another userId that held its cart: the order's userId
 * began after that cart (order-user-reset). The book tells it from the candidates `sameBrowser` gives.
 */
export interface UserReset extends RecentCart {
  /** when the order's userId was first seen (ms) */
  userFirstMs: number;
  /** a shopper/login of the order's visit before the order: the likely moment of the reset */
  loginEventId?: string;
  /** the cart's visit and the order's were one page load each: the browser kept no id across a page load */
  onePageEach?: true;
}

/**
 * How close before the order the storefront visit's cart must have changed: as long as the client keeps a
 * sessionId without an event (rolling 30 minutes, and a minute for clocks). Within it, passing the ids on
 * would have put the order in that visit; two shoppers whose identical carts meet in so short a window, one
 * of them ordering from another origin with no earlier page, are what the exemptions leave.
 */
export const CART_TO_ORDER_MS = 31 * 60_000;

/** visits whose latest cart is kept (a few hundred bytes each) */
const MAX_CARTS = 10_000;

const key2 = (a: string, b: string) => `${a}\u0000${b}`;

/**
 * What a cart holds, as one string: each line key with its quantity, sorted (two carts with the same
 * products in the same quantities give the same string; '' for an empty cart).
 */
export function cartContent(items: readonly CartItemDto[]): string {
  const qty = new Map<string, number>();
  for (const item of items) {
    const k = lineKey(item);
    if (k !== '') qty.set(k, (qty.get(k) ?? 0) + item.qty);
  }
  return [...qty]
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k}\u0001${n}`)
    .sort()
    .join('\u0002');
}

export class RecentCarts {
  /** siteId + content → the visits whose latest cart holds it, by visit key */
  private readonly byContent = new Map<string, Map<string, RecentCart>>();
  /** visit key → the content key of its latest cart, least recently changed first */
  private readonly byVisit = new Map<string, string>();

  constructor(private readonly max = MAX_CARTS) {}

  /** A cart event of the visit: its cart is the visit's latest (an empty one is forgotten). */
  note(siteId: string, cart: readonly CartItemDto[], entry: RecentCart): void {
    this.forget(entry.visitKey);
    const content = cartContent(cart);
    if (content === '') return;
    const k = key2(siteId, content);
    let visits = this.byContent.get(k);
    if (!visits) this.byContent.set(k, (visits = new Map()));
    visits.set(entry.visitKey, entry);
    this.byVisit.set(entry.visitKey, k);
    if (this.byVisit.size > this.max) this.forget(this.byVisit.keys().next().value!);
  }

  /** The visit's cart is gone (an order emptied it, or the visit went). */
  forget(visitKey: string): void {
    const k = this.byVisit.get(visitKey);
    if (k === undefined) return;
    this.byVisit.delete(visitKey);
    const visits = this.byContent.get(k);
    visits?.delete(visitKey);
    if (visits?.size === 0) this.byContent.delete(k);
  }

  /**
   * The storefront visit whose cart an order with these lines was bought from, when the order arrived in a
   * visit of its own on another origin: a visit of the site whose latest cart holds the same products in the
   * same quantities, changed at most CART_TO_ORDER_MS before the order, on another origin than the order's
   * page, under none of the order's userIds. The latest such visit, or undefined. Exempt: an order whose
   * visit had an earlier page (the visit is not its own), one on the cart's own origin (another shopper of
   * the same storefront, or a session that expired), one whose userId the cart's visit carried (the
   * integration passed the userId: credit follows it), an older cart (past a session's life the order would
   * have had a visit of its own anyway).
   */
  elsewhere(order: OrderVisit, lines: readonly CartItemDto[]): CartElsewhere | undefined {
    if (!order.firstPage) return undefined;
    const content = cartContent(lines);
    if (content === '') return undefined;
    const visits = this.byContent.get(key2(order.siteId, content));
    if (!visits) return undefined;
    const orderOrigin = originOf(order.pageUrl);
    if (orderOrigin === '') return undefined;
    let found: RecentCart | undefined;
    for (const c of visits.values()) {
      if (c.visitKey === order.visitKey || c.origin === '' || c.origin === orderOrigin) continue;
      if (c.userIds.includes(order.userId)) continue;
      if (c.time > order.time || order.time - c.time > CART_TO_ORDER_MS) continue;
      if (!found || c.time > found.time) found = c;
    }
    return found && { ...found, orderOrigin };
  }

  /**
   * The visits of other userIds whose latest cart holds the same products in the same quantities as the
   * order, on the order page's own origin, sent with the same User-Agent, changed at most CART_TO_ORDER_MS
   * before the order: the same browser's carts the order may have been bought from (the book tells which,
   * if any, a new userId replaced). None when either User-Agent is unknown (NDJSON of bare bodies): two
   * browsers could not be told apart.
   */
  *sameBrowser(order: OrderVisit, lines: readonly CartItemDto[]): Generator<RecentCart> {
    if (order.userAgent === '') return;
    const content = cartContent(lines);
    if (content === '') return;
    const visits = this.byContent.get(key2(order.siteId, content));
    if (!visits) return;
    const orderOrigin = originOf(order.pageUrl);
    if (orderOrigin === '') return;
    for (const c of visits.values()) {
      if (c.visitKey === order.visitKey || c.origin !== orderOrigin) continue;
      if (c.userAgent !== order.userAgent || c.userIds.includes(order.userId)) continue;
      if (c.time > order.time || order.time - c.time > CART_TO_ORDER_MS) continue;
      yield c;
    }
  }

  /** Forget every cart (a site's visits forget theirs as they go). */
  clear(): void {
    this.byContent.clear();
    this.byVisit.clear();
  }
}
