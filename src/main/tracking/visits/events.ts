// Product page, cart, order and login events read out of recorded requests, and the items of the clicks
// and quick adds that can earn an order line its credit. Tolerant of anything a rejected body may hold.
import { str } from '../values';
import { isObject } from '../../../shared/values';
import type { RecordedEvent } from '../../../shared/events';
import type { CartItemDto, VisitEventDto } from '../../../shared/visits';
import type { PageEventDto } from '../../../shared/timeline';
import type { CartReading } from './cart-issue';
import type { CartElsewhere, UserReset } from './recent-carts';

/** The beacon v2 endpoints of the rest of the visit (as the provider's client sends them). */
export const VISIT_ENDPOINTS = [
  'product/pageview',
  'cart/add',
  'cart/remove',
  'order/transaction',
  'shopper/login',
  'log/snap',
] as const;
export type VisitEndpoint = (typeof VISIT_ENDPOINTS)[number];

export function isVisitEndpoint(category: string, event: string): boolean {
  // asked of every event the timelines fold: no endpoint string is built to ask it
  return VISIT_EVENTS.get(category)?.includes(event) ?? false;
}

/** VISIT_ENDPOINTS by category: each category's events */
const VISIT_EVENTS: ReadonlyMap<string, readonly string[]> = (() => {
  const by = new Map<string, string[]>();
  for (const endpoint of VISIT_ENDPOINTS) {
    const [category, event] = endpoint.split('/') as [string, string];
    by.set(category, [...(by.get(category) ?? []), event]);
  }
  return by;
})();

/**
 * What every event on a page has (the timeline engine's event satisfies it): the visit domain reads it
 * without depending on the timeline's model.
 */
export interface PageEvent extends PageEventDto {
  /** receivedAt in ms (null when the input had none) */
  receivedMs: number | null;
  /** ms the event is ordered by: its timestamp, else its receive time */
  time: number;
  pageLoadId: string;
  dev: boolean;
}

/** A visit event: the timeline fields every page event has, plus what the visit rules read. */
export interface VisitEvent {
  base: PageEvent;
  endpoint: VisitEndpoint;
  shopperId: string;
  items: CartItemDto[];
  /** data.cart of cart events */
  cart: CartItemDto[] | null;
  /** a cart or order event's context.currency.code, when it names one */
  currency?: string;
  orderId: string | null;
  transactionTotal: number | null;
  total: number | null;
  /** data.vat of an order (a rate: 0.20 for 20%); null when it has none */
  vat: number | null;
  /**
   * set by the book when an order is folded in: the visit's cart events priced its lines exactly in another
   * currency (and the cart event that did), so the order's currency code is not its amounts'
   */
  currencyMismatch?: { cart: string; eventId: string };
  /** what a log/snap reported: the provider's client's own error message (`cart-globals-invalid`) */
  logged?: ClientLog;
  /** set by the book when the event is folded in: what its cart contradicts (cart-inconsistent) */
  cartReading?: CartReading;
  /**
   * set by the book when a cart/remove is folded in: the uids of its results that a quick add since the
   * last cart event stored with an empty parentId, which the client removes as it stored them (an empty
   * parentId there is its own traffic: item-ids-unmapped exempts them)
   */
  storedAsQuickAdded?: readonly string[];
  /**
   * set by the book when an order is folded in: its lines whose price is about 100 times (or a
   * hundredth of) what the visit's cart events said the product cost
   */
  priceIssues?: string[];
  /**
   * set by the book when a cart event is folded in: its items priced about 100 times (or a hundredth of)
   * what a quick add of the same product carried earlier in the visit
   */
  quickAddIssues?: QuickPriceIssue[];
  /**
   * with `priceIssues` of an order: every line off is a hundredth of the cart's (or quick add's) price, so
   * the cents are there, not in the order (price-unit-mismatch's fix says so)
   */
  pricedElsewhereInCents?: true | undefined;
  /**
   * set by the book when an order is folded in: the storefront visit whose cart it bought, when the order
   * arrived in a visit of its own on another origin (order-other-domain)
   */
  cartElsewhere?: CartElsewhere;
  /**
   * set by the book when an order is folded in: the visit of another userId of the same browser whose cart
   * it bought, when the order's userId began after that cart (order-user-reset)
   */
  userReset?: UserReset;
  /**
   * set by the book when an order is folded in: none of its lines' products was carted (cart/add) or
   * quick-added in the visit before it (cart-after-order)
   */
  uncarted?: true;
  /** the User-Agent header of a cart event or order, when the input recorded one (recent-carts.ts) */
  userAgent?: string;
}

/** A cart event's item priced in another unit than a quick add of the same product carried. */
export interface QuickPriceIssue {
  uid: string;
  /** the cart event's price */
  price: number;
  /** the price the quick add carried, and its eventId */
  quickPrice: number;
  quickEventId: string;
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

export function readItem(v: unknown): CartItemDto {
  const o = isObject(v) ? v : {};
  return {
    uid: str(o.uid),
    parentId: str(o.parentId),
    sku: str(o.sku),
    qty: num(o.qty),
    price: num(o.price),
  };
}

// A hostile body may hold hundreds of thousands of items: the rules and the views need far fewer.
const MAX_ITEMS = 500;

function readItems(v: unknown): CartItemDto[] {
  if (!Array.isArray(v)) return [];
  const out: CartItemDto[] = [];
  for (const item of v) {
    if (out.length >= MAX_ITEMS) break;
    out.push(readItem(item));
  }
  return out;
}

export function readVisitEvent(rec: RecordedEvent, base: PageEvent): VisitEvent {
  const body = isObject(rec.body) ? rec.body : {};
  const ctx = isObject(body.context) ? body.context : {};
  const data = isObject(body.data) ? body.data : {};
  const endpoint = `${rec.category}/${rec.event}` as VisitEndpoint;
  const isOrder = endpoint === 'order/transaction';
  // only carts and orders are matched by browser: the other events go without the header
  const userAgent =
    rec.userAgent && (isOrder || endpoint.startsWith('cart/')) ? rec.userAgent : undefined;
  // the prices of carts and orders are compared only in one currency
  const currency = isOrder || endpoint.startsWith('cart/') ? currencyOf(rec) : '';
  return {
    base,
    endpoint,
    shopperId: str(ctx.shopperId),
    items: endpoint === 'product/pageview' ? [readItem(data.result)] : readItems(data.results),
    cart: endpoint.startsWith('cart/') ? readItems(data.cart) : null,
    orderId: isOrder ? (typeof data.orderId === 'string' ? data.orderId : str(data.orderId)) : null,
    transactionTotal: isOrder ? num(data.transactionTotal) : null,
    total: isOrder ? num(data.total) : null,
    vat: isOrder && typeof data.vat === 'number' && Number.isFinite(data.vat) ? data.vat : null,
    ...(userAgent !== undefined && { userAgent }),
    ...(currency !== '' && { currency }),
    ...(endpoint === 'log/snap' && { logged: readLog(data) }),
  };
}

/**
 * What the provider's client reported in a log/snap: its message, and of a cart it sent in the details
 * (T: "cart globals missing properties", `details: { cart }`) how many items and the keys they had.
 */
export interface ClientLog {
  message: string;
  cartItems?: number;
  /** the keys the cart's items had, each once, in the order first met (at most 12) */
  cartKeys?: string[];
}

function readLog(data: Record<string, unknown>): ClientLog {
  const message = typeof data.message === 'string' ? data.message : '';
  const details = isObject(data.details) ? data.details : undefined;
  const cart = details && Array.isArray(details.cart) ? details.cart : undefined;
  if (!cart) return { message };
  const keys: string[] = [];
  for (const item of cart.slice(0, 50))
    if (isObject(item))
      for (const k of Object.keys(item)) if (keys.length < 12 && !keys.includes(k)) keys.push(k);
  return { message, cartItems: cart.length, cartKeys: keys };
}

/** The product ids of an item that can match another's: empty ids never match. */
export function productIds(item: Pick<CartItemDto, 'uid' | 'parentId' | 'sku'>): string[] {
  const ids: string[] = [];
  for (const id of [item.uid, item.parentId, item.sku])
    if (id !== '' && !ids.includes(id)) ids.push(id);
  return ids;
}

/**
 * The product ids (uid, parentId, sku; each once) of an accepted clickthrough or addtocart body: all
 * that credit and the cart need of its items, kept compact (a visit holds every click of its shopper):
 * a lone id as itself, several in a list exactly as long as they are (push leaves room for 17).
 */
export function interactionIds(rec: RecordedEvent): string | readonly string[] {
  const body = isObject(rec.body) ? rec.body : {};
  const data = isObject(body.data) ? body.data : {};
  const ids: string[] = [];
  for (const item of readItems(data.results))
    for (const id of productIds(item)) if (!ids.includes(id)) ids.push(id);
  return ids.length === 0 ? NO_IDS : ids.length === 1 ? ids[0]! : ids.slice();
}

const NO_IDS: readonly string[] = [];

/**
 * Whether a clickthrough or addtocart names products only, as the client types each product tile
 * (`{type: 'product', uid, parentId, sku}`; an inline banner is `{type: 'banner', uid}`, a slot banner has
 * no results): a lone id is then a product's, not a banner's.
 */
export function typedProducts(rec: RecordedEvent): boolean {
  const body = isObject(rec.body) ? rec.body : {};
  const data = isObject(body.data) ? body.data : {};
  const results = data.results;
  return (
    Array.isArray(results) &&
    results.length > 0 &&
    results.every((item) => isObject(item) && item.type === 'product')
  );
}

/** An item of a quick add as the client's stored cart takes it: its line key, quantity and price. */
export interface QuickLine {
  key: string;
  /**
   * sent with an empty parentId (a tile of a product without a parent): the client stores it as sent
   * (`parentId || ''`), so a cart/remove of what is left of its stored cart sends it so too
   */
  bare: boolean;
  qty: number;
  /** the price it was added at (0: the client's missing price) */
  price: number;
}

/**
 * The currency a request's prices are in: its `context.currency.code` ('' when it names none). The client
 * sends the currency its page set (T setCurrency, from the page's globals) with every event.
 */
export function currencyOf(rec: RecordedEvent): string {
  const body = isObject(rec.body) ? rec.body : {};
  const ctx = isObject(body.context) ? body.context : {};
  return isObject(ctx.currency) && typeof ctx.currency.code === 'string' ? ctx.currency.code : '';
}

/** The items of an accepted addtocart as the client's stored cart takes them. */
export function quickAddLines(rec: RecordedEvent): QuickLine[] {
  const body = isObject(rec.body) ? rec.body : {};
  const data = isObject(body.data) ? body.data : {};
  const out: QuickLine[] = [];
  for (const item of readItems(data.results)) {
    // the client stores only items with a uid (B cart.add), keyed as cart lines are (cart-issue lineKey)
    if (item.uid === '') continue;
    out.push({
      key: item.uid,
      bare: item.parentId === '',
      qty: item.qty > 0 ? item.qty : 1,
      price: item.price,
    });
  }
  return out;
}

export function visitEventDto(v: VisitEvent): VisitEventDto {
  const e = v.base;
  return {
    id: e.id,
    seq: e.seq,
    arrival: e.arrival,
    endpoint: v.endpoint,
    accepted: e.accepted,
    status: e.status,
    receivedAt: e.receivedAt,
    ...(e.clockOffsetMs !== undefined && { clockOffsetMs: e.clockOffsetMs }),
    timestamp: e.timestamp,
    sessionId: e.sessionId,
    userId: e.userId,
    ...(v.shopperId && { shopperId: v.shopperId }),
    pageUrl: e.pageUrl,
    dev: e.dev,
    items: v.items,
    ...(v.cart && { cart: v.cart }),
    ...(v.orderId !== null && { orderId: v.orderId }),
    ...(v.transactionTotal !== null && { transactionTotal: v.transactionTotal }),
    ...(v.total !== null && { total: v.total }),
    ...(v.logged && { message: v.logged.message }),
    errors: e.errors,
  };
}
