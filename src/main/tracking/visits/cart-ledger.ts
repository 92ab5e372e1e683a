// The cart ledger of a visit: the client's stored cart as the visit's cart events, quick adds and orders
// move it (T's constructor compares the page's cart globals with the cart B stored; every */addtocart adds
// to that stored cart without a cart/add; an order clears it). Each cart event is read against it when it
// is folded in (cart-issue.ts), so cart-inconsistent never looks back through the visit.
import type { CartItemDto } from '../../../shared/visits';
import { productIds, type QuickLine, type VisitEvent } from './events';
import { cartIssue, lineKey } from './cart-issue';

/** a cart/add and a cart/remove of one page this close were sent from one comparison of the tracker */
const SAME_COMPARISON_MS = 2_000;

/** The last cart event and the cart (and quick adds) it was read against: its pair is read the same. */
export interface LastCartEvent {
  pageKey: string;
  endpoint: string;
  time: number;
  /** the keys of its results */
  keys: ReadonlySet<string>;
  before: CartItemDto[] | null;
  quickAdded: ReadonlySet<string>;
  quickQty?: ReadonlyMap<string, number>;
  quickBare?: ReadonlySet<string>;
}

/** What a visit keeps of its cart. */
export interface CartLedger {
  /** the cart as the last cart event left it, emptied by an order; null before any */
  cart: CartItemDto[] | null;
  /** product ids quick-added (addtocart) since the last cart event: the client's stored cart moved on */
  quickAdded: Set<string>;
  /**
   * how many of each item (by its cart line key) quick adds put in the client's stored cart since the last
   * cart event: a cart/add of it must raise the cart beyond them
   */
  quickQty?: Map<string, number>;
  /** the uids quick adds since the last cart event stored with an empty parentId (QuickLine.bare) */
  quickBare?: Set<string>;
  /** product ids any addtocart or cart/add of the visit added (a removal of one is no phantom) */
  addedEver: Set<string>;
  /**
   * product ids the cart events the service rejected since the last accepted one named (results): the
   * client stored the cart it sent all the same, so the next cart's loss or gain of them is no contradiction
   */
  refused?: RefusedCart;
  lastCart?: LastCartEvent;
}

/** What the cart events the service rejected since the last accepted one removed and added. */
export interface RefusedCart {
  removed: Set<string>;
  added: Set<string>;
}

/** The ledger of a visit before any cart event. */
export function emptyLedger(): CartLedger {
  return { cart: null, quickAdded: new Set(), addedEver: new Set() };
}

/**
 * A quick add moves the client's stored cart on (it adds the items without a cart/add): cart events
 * comparing with the last cart exempt its ids, and the ledger counts its quantities.
 */
export function noteQuickAdd(
  ledger: CartLedger,
  ids: string | readonly string[],
  lines: readonly QuickLine[],
): void {
  for (const id of typeof ids === 'string' ? [ids] : ids) {
    ledger.quickAdded.add(id);
    ledger.addedEver.add(id);
  }
  if (lines.length === 0) return;
  const q = (ledger.quickQty ??= new Map());
  for (const { key, qty, bare } of lines) {
    q.set(key, (q.get(key) ?? 0) + qty);
    if (bare) (ledger.quickBare ??= new Set()).add(key);
  }
}

/** A cart/add or cart/remove with its whole cart: read against the ledger (`cartReading`), then kept. */
export function noteCartEvent(ledger: CartLedger, pageKey: string, v: VisitEvent): void {
  if (!v.cart) return;
  const e = v.base;
  // the tracker sends a cart/add and a cart/remove from one comparison, each with the whole cart
  // after both: the second is read against the cart before the first
  const pair = ledger.lastCart;
  // (one comparison raises or lowers each item once: events naming one item are two changes)
  const oneComparison =
    pair !== undefined &&
    pair.pageKey === pageKey &&
    pair.endpoint !== v.endpoint &&
    Math.abs(pair.time - e.time) <= SAME_COMPARISON_MS;
  // the client's comparison tells a stored item with an empty parentId from the globals' mapped one (its
  // key holds the parentId), so a cart/add of an item and a cart/remove of it as a quick add stored it
  // are one comparison, though they name one line key
  const quickBare = oneComparison ? pair.quickBare : ledger.quickBare;
  const same =
    oneComparison &&
    !v.items.some((i) => pair.keys.has(lineKey(i)) && quickBare?.has(i.uid) !== true);
  const before = same ? pair.before : ledger.cart;
  const quickAdded = same ? pair.quickAdded : ledger.quickAdded;
  const quickQty = same ? pair.quickQty : ledger.quickQty;
  if (v.endpoint === 'cart/remove' && quickBare) {
    const stored = v.items.filter((i) => i.parentId === '' && quickBare.has(i.uid));
    if (stored.length > 0) v.storedAsQuickAdded = stored.map((i) => i.uid);
  }
  v.cartReading = cartIssue(v, {
    cart: before,
    quickAdded,
    addedEver: ledger.addedEver,
    ...(quickQty && { quickQty }),
    ...(quickBare && { quickBare }),
    ...(ledger.refused && { refused: ledger.refused }),
  });
  ledger.refused = undefined;
  if (v.endpoint === 'cart/add')
    for (const item of v.items) for (const id of productIds(item)) ledger.addedEver.add(id);
  ledger.lastCart = {
    pageKey,
    endpoint: v.endpoint,
    time: e.time,
    keys: new Set(v.items.map(lineKey)),
    before,
    quickAdded: new Set(quickAdded),
    ...(quickQty && { quickQty }),
    ...(quickBare && { quickBare }),
  };
  ledger.cart = v.cart;
  ledger.quickAdded.clear();
  ledger.quickQty = undefined;
  ledger.quickBare = undefined;
}

/**
 * A cart/add or cart/remove the service rejected (an item with only a sku, say): the client stored the cart
 * it sent all the same (it compares the next page's cart globals with that one), so the next accepted cart
 * event that lost what it removed, or gained what it added, is read as the client sends it.
 */
export function noteRefusedCartEvent(ledger: CartLedger, v: VisitEvent): void {
  if (v.endpoint !== 'cart/add' && v.endpoint !== 'cart/remove') return;
  const refused = (ledger.refused ??= { removed: new Set(), added: new Set() });
  const ids = v.endpoint === 'cart/add' ? refused.added : refused.removed;
  for (const item of v.items) for (const id of productIds(item)) ids.add(id);
}

/** An order was placed: the client clears its stored cart. */
export function noteOrderPlaced(ledger: CartLedger): void {
  ledger.refused = undefined;
  ledger.cart = [];
  ledger.quickAdded.clear();
  ledger.quickQty = undefined;
  ledger.quickBare = undefined;
}
