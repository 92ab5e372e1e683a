// The prices a visit's cart events carried, and an order's lines priced in another unit than those
// (`price-unit-mismatch`: cents against units).
import type { VisitEvent } from './events';

/** What a visit remembers of the prices its cart events carried. */
export interface PricedVisit {
  prices?: Map<string, { price: number; eventId: string }>;
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
 * An order's lines priced about 100 times (or a hundredth of) what the visit's cart events said: cents
 * against units. A sale, a coupon or a currency rounding moves a price by far less.
 */
export function priceIssues(order: VisitEvent, visit: PricedVisit): string[] | undefined {
  if (!visit.prices) return undefined;
  const out: string[] = [];
  for (const line of order.items) {
    const known = visit.prices.get(line.uid);
    if (!known) continue;
    const ratio = unitRatio(line.price, known.price);
    if (ratio !== null)
      out.push(
        `uid "${line.uid}" at ${line.price} where ${known.eventId} carried ${known.price} (about ${ratio >= 1 ? `${Math.round(ratio)}×` : `1/${Math.round(1 / ratio)}`})`,
      );
  }
  return out.length > 0 ? out : undefined;
}
