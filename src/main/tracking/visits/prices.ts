// The prices a visit's cart events and quick adds carried, and an order's lines (or a cart event's items)
// priced in another unit than those (`price-unit-mismatch`: cents against units, or the line's total where
// the client sends a unit price). The client sends every one of them as the product's unit price: a quick
// add `price: Number(price) || 0` of the result (SC track.product.addToCart), cart items and order lines
// `Number(price)` of the page's globals (T).
import type { QuickLine, QuickPriceIssue, VisitEvent } from './events';

type Known = { price: number; eventId: string };

/** What a visit remembers of the prices its cart events and its quick adds carried. */
export interface PricedVisit {
  prices?: Map<string, Known>;
  /**
   * the price each quick-added product last carried and the quick add's eventId, as one string
   * (`quickPrice`): a visit keeps every quick add's, and `check` of the benchmark's million events holds a
   * hundred thousand of them (as objects of the price and the id: 14 MB of heap; as strings: 9 MB)
   */
  quickPrices?: Map<string, string>;
  /** the currency those prices were in (context.currency.code), when their events named one */
  priceCurrency?: string;
}

/**
 * The event's prices are in `currency` ('' when it names none): the prices the visit kept in another one
 * are let go, so that no price is compared across currencies. A storefront that lets the shopper switch
 * currency sets the client's currency from the page (T setCurrency), and T's cart comparison matches items
 * by ids and quantities only: after a switch, an order's lines come in the new currency while the visit's
 * cart prices are in the old one (150× for USD to JPY), which is no unit mistake.
 */
export function pricesIn(visit: PricedVisit, currency: string): void {
  if (currency === '') return;
  if (visit.priceCurrency !== undefined && visit.priceCurrency !== currency) {
    visit.prices = undefined;
    visit.quickPrices = undefined;
  }
  visit.priceCurrency = currency;
}

/** The prices a quick add carries, by uid (a price of 0 is the client's missing price: not kept). */
export function noteQuickPrices(visit: PricedVisit, lines: readonly QuickLine[], eventId: string) {
  for (const l of lines)
    // joined, not a template literal: one flat string, where a template's rope kept its parts too
    if (l.price > 0) (visit.quickPrices ??= new Map()).set(l.key, [l.price, eventId].join(' '));
}

/** The price a quick add of the product carried last in the visit, and that quick add's eventId. */
function quickPrice(visit: PricedVisit, uid: string): Known | undefined {
  const kept = visit.quickPrices?.get(uid);
  if (kept === undefined) return undefined;
  // a number's text has no space: the first one ends it
  const at = kept.indexOf(' ');
  return { price: Number(kept.slice(0, at)), eventId: kept.slice(at + 1) };
}

/**
 * A cart event's items priced about 100 times (or a hundredth of) what a quick add of the same product
 * carried earlier in the visit: one of the two is in cents (which one, `price-unit-mismatch` tells by the
 * product's unit price, when the sandbox knows it). A sale between them moves a price far less.
 */
export function quickPriceIssues(v: VisitEvent, visit: PricedVisit): QuickPriceIssue[] | undefined {
  if (!visit.quickPrices) return undefined;
  const out: QuickPriceIssue[] = [];
  for (const item of v.items) {
    const known = quickPrice(visit, item.uid);
    if (known && unitRatio(item.price, known.price) !== null)
      out.push({
        uid: item.uid,
        price: item.price,
        quickPrice: known.price,
        quickEventId: known.eventId,
      });
  }
  return out.length > 0 ? out : undefined;
}

/** "about 100×", "about 1/100" */
export function about(ratio: number): string {
  return `about ${ratio >= 1 ? `${Math.round(ratio)}×` : `1/${Math.round(1 / ratio)}`}`;
}

/** The prices a cart event carries, by uid (a price of 0 is the client's missing price: not kept). */
export function notePrices(visit: PricedVisit, v: VisitEvent): void {
  for (const item of [...v.items, ...(v.cart ?? [])])
    if (item.uid !== '' && item.price > 0)
      (visit.prices ??= new Map()).set(item.uid, { price: item.price, eventId: v.base.id });
}

/** How far a price is from the cart's: the ratio when it is about 100× or 1/100 (cents against units). */
export function unitRatio(price: number, cartPrice: number): number | null {
  if (price <= 0 || cartPrice <= 0) return null;
  const ratio = price / cartPrice;
  return ratio >= 50 || ratio <= 0.02 ? ratio : null;
}

/** The price the visit's cart events carried last for a product, and the cart event that carried it. */
export function cartPriceOf(
  visit: PricedVisit | undefined,
  uid: string,
): { price: number; eventId: string } | undefined {
  return visit?.prices?.get(uid);
}

/** The cart price an order line disagrees with by a factor of about 100, when it does. */
export function lineUnitMismatch(
  line: { uid: string; price: number },
  visit: PricedVisit | undefined,
): { cartPrice: number; eventId: string } | undefined {
  const known = visit?.prices?.get(line.uid);
  if (!known || unitRatio(line.price, known.price) === null) return undefined;
  return { cartPrice: known.price, eventId: known.eventId };
}

/**
 * An order's lines priced about 100 times (or a hundredth of) what the visit's cart events said (cents
 * against units), or at their line's total. A sale, a coupon or a currency rounding moves a price by far less.
 * `elsewhereInCents`: every line off is a hundredth of the price it was compared with, so the order holds the
 * smaller unit, the currency unit, and the cents are on the other side (the cart globals, or a tile's data
 * for a quick add): the fix is there, not in the order script.
 */
export function priceIssues(
  order: VisitEvent,
  visit: PricedVisit,
): { issues: string[]; elsewhereInCents: boolean } | undefined {
  const out: string[] = [];
  // lines a hundredth of the price compared with (the other lines off are 100× it, or a line's total)
  let smaller = 0;
  for (const line of order.items) {
    const known = visit.prices?.get(line.uid) ?? quickPrice(visit, line.uid);
    if (!known || line.price <= 0) continue;
    const ratio = unitRatio(line.price, known.price);
    if (ratio !== null) {
      if (ratio < 1) smaller++;
      out.push(
        `uid "${line.uid}" at ${line.price} where ${known.eventId} carried ${known.price} (${about(ratio)})`,
      );
    } else if (line.qty >= 2 && near(line.price, line.qty * known.price))
      out.push(
        `uid "${line.uid}" at ${line.price}, ${line.qty} × the ${known.price} ${known.eventId} carried: the line's total, not its unit price`,
      );
  }
  const totals = lineTotals(order);
  if (totals && out.length === 0) out.push(totals);
  if (out.length === 0) return undefined;
  return { issues: out, elsewhereInCents: smaller > 0 && smaller === out.length };
}

/**
 * A cart or order event in another currency than the visit's earlier cart events, each of whose lines
 * those priced costing exactly what they said (`order-currency-mismatch`): no conversion happened, so the
 * event's currency code is not its amounts'. Undefined when the cart named no currency, the event names
 * none or the same, no line was priced before, or a line's price differs (a switch of currency converts
 * prices).
 */
export function currencyMismatch(
  event: VisitEvent,
  visit: PricedVisit,
): { cart: string; eventId: string } | undefined {
  const cart = visit.priceCurrency;
  if (cart === undefined || !event.currency || event.currency === cart || !visit.prices)
    return undefined;
  let eventId: string | undefined;
  for (const line of event.items) {
    const known = visit.prices.get(line.uid);
    if (!known || line.price <= 0) continue;
    if (line.price !== known.price) return undefined;
    eventId ??= known.eventId;
  }
  return eventId === undefined ? undefined : { cart, eventId };
}

/** within a cent, or half a per cent of the larger */
function near(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.max(0.01, Math.max(Math.abs(a), Math.abs(b)) * 0.005);
}

/**
 * An order whose lines' prices add up to its transactionTotal only when their quantities are left out:
 * each price is its line's total (the client sends Number(price), the unit price, and the OAS's
 * transactionTotal is Σ qty × price before discounts). Needs a line of 2 or more to tell.
 */
function lineTotals(order: VisitEvent): string | undefined {
  const tt = order.transactionTotal;
  if (tt === null || tt <= 0 || !order.items.some((l) => l.qty >= 2)) return undefined;
  const prices = order.items.reduce((n, l) => n + l.price, 0);
  const extended = order.items.reduce((n, l) => n + l.qty * l.price, 0);
  if (!near(prices, tt) || near(extended, tt)) return undefined;
  return `its lines' prices add up to its transactionTotal ${tt} only without their quantities (Σ qty × price is ${extended}): each price is its line's total, not its unit price`;
}
