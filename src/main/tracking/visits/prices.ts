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

/**
 * An order's lines priced about 100 times (or a hundredth of) what the visit's cart events said: cents
 * against units. A sale, a coupon or a currency rounding moves a price by far less.
 */
export function priceIssues(order: VisitEvent, visit: PricedVisit): string[] | undefined {
  if (!visit.prices) return undefined;
  const out: string[] = [];
  for (const line of order.items) {
    const known = visit.prices.get(line.uid);
    if (!known || line.price <= 0) continue;
    const ratio = line.price / known.price;
    if (ratio >= 50 || ratio <= 0.02)
      out.push(
        `uid "${line.uid}" at ${line.price} where ${known.eventId} carried ${known.price} (about ${ratio >= 1 ? `${Math.round(ratio)}×` : `1/${Math.round(1 / ratio)}`})`,
      );
  }
  return out.length > 0 ? out : undefined;
}
