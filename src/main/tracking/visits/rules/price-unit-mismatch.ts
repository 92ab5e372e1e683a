// `price-unit-mismatch`: an order line whose price is not a unit price in the cart's unit: about 100 times
// (or a hundredth of) what the visit's cart events said the product cost — cents in one place, units in
// the other — or the line's total (qty × the cart's price, or prices that add up to transactionTotal only
// without their quantities); and a cart event's item priced about 100 times (or a hundredth of) what a
// quick add of the same product carried (the client sends both as the product's unit price: SC
// track.product.addToCart `Number(price) || 0`, T's cart globals `price`). The book notes both when the
// event arrives (prices.ts). With the site's indexed catalog, a cart item or order line priced about 100
// times (or a hundredth of) the product's catalog price is named too (the feed's price is the one the
// search results, and so the quick adds, carry). Exempt: any smaller difference (a sale, a coupon,
// rounding), a missing price (0), and, for a line's total, lines of one.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { about, unitRatio } from '../prices';
import type { VisitContext } from './types';

const meta: RuleMeta<'visit'> = {
  id: 'price-unit-mismatch',
  judges: ['visit'],
  title: 'Prices in another unit than the cart’s, the quick add’s or the catalog’s',
  description:
    'An order line whose price is not a unit price in the cart’s unit: about 100× (or 1/100 of) the price the visit’s cart events (or quick adds) carried for the same product (cents against units), or the line’s total (qty × price); a cart event’s item about 100× (or 1/100 of) what a quick add of it carried; with an indexed catalog, a cart item or order line about 100× (or 1/100 of) the product’s catalog price. Smaller differences (a sale, a coupon) are not findings.',
  expects:
    'Quick adds, cart and order lines carry unit prices in the same unit, the currency unit (12.5, not 1250; the price of one, not of the line).',
  appliesTo: ['order', 'cart'],
  guards: ['order.totals', 'search.addtocart', 'cart.items'],
  defaultSeverity: 'error',
  messages: {
    catalogOtherUnit:
      "{{eventId}} prices {{lines}} in another unit than site {{siteId}}'s indexed catalog: {{issues}}. The provider's client sends the product's unit price, in the unit of the feed's prices (which the search results and the quick adds carry), so revenue and cart values are off by a factor of 100.",
    otherUnit:
      "order \"{{orderId}}\" ({{eventId}}) prices {{lines}} other than as a unit price in the visit's cart's unit: {{issues}}. Revenue reports (Σ qty × price) and the line's credit read the order's prices.",
    quickAddOtherUnit:
      "{{eventId}} prices {{lines}} in another unit than the quick add of the same product: {{issues}}. The provider's client sends both as the product's unit price (the quick add the result's price, the cart the page's cart globals), so one of the two is in cents and the cart's value or the add's revenue is off by a factor of 100.",
    cartOtherUnit:
      "order \"{{orderId}}\" ({{eventId}}) prices {{lines}} at a hundredth of what the visit's cart (or quick add) carried: {{issues}}. The order's lines are the smaller unit, the currency unit; the cents are in the cart events' prices (the page's cart globals) or the tiles' data a quick add reads, so the cart's value and the add's revenue are off by a factor of 100.",
  },
  fixes: {
    catalogOtherUnit:
      'send unit prices in the unit of the feed (the currency unit, not cents): divide cents by 100 in the cart globals or the order script.',
    quickAddOtherUnit:
      'send the same unit price in the tiles’ data (the quick add) and in the cart globals: the currency unit, not cents.',
    otherUnit:
      "send each line's unit price in the unit the cart uses (divide cents by 100 in the order script; never qty × price).",
    cartOtherUnit:
      'send the cart globals’ prices (and the tiles’ data a quick add reads) in the currency unit, as the order’s lines are: divide cents by 100 there, not in the order script.',
  },
  fix: 'Send unit prices in one unit, the currency unit, in the cart globals, the tiles’ data and the order script: divide cents by 100 where they are (an order line a hundredth of the cart’s is right, its cart is not); never qty × price.',
  listens: ['cart/add', 'cart/remove', 'order/transaction'],
  needs: { visit: true, catalog: true },
};

export const priceUnitMismatch = defineRule({
  meta,
  visit(page, ctx) {
    const byCatalog = ctx.catalog?.priceOf ? catalogIssues(page.siteId, ctx) : [];
    return ctx.accepted
      .filter((o) => o.priceIssues !== undefined)
      .map((o) =>
        finding(
          meta,
          o.base.id,
          {
            messageId:
              o.endpoint !== 'order/transaction'
                ? 'quickAddOtherUnit'
                : o.pricedElsewhereInCents
                  ? 'cartOtherUnit'
                  : 'otherUnit',
            data: {
              orderId: o.orderId ?? '',
              eventId: o.base.id,
              lines: count(
                o.priceIssues!.length,
                o.endpoint === 'order/transaction' ? 'line' : 'item',
              ),
              issues: o.priceIssues!.slice(0, 5).join(', '),
            },
          },
          [o.base.id],
          // an order's lines are its totals' unit (unless the cents are the cart's: its items); a cart event
          // off from the quick add of the same product: the quick add's price is the one the client takes
          // from the result
          {
            behaviour:
              o.endpoint !== 'order/transaction'
                ? 'search.addtocart'
                : o.pricedElsewhereInCents
                  ? 'cart.items'
                  : 'order.totals',
          },
        ),
      )
      .concat(byCatalog);
  },
});

/** Cart and order events (without a visit price issue) whose items are about 100× off the catalog's. */
function catalogIssues(siteId: string, ctx: VisitContext) {
  const priceOf = ctx.catalog!.priceOf!;
  const out = [];
  for (const o of ctx.accepted) {
    if (o.priceIssues !== undefined || o.endpoint === 'product/pageview') continue;
    const issues: string[] = [];
    for (const item of o.items) {
      const known = priceOf(item.uid);
      const ratio = known === undefined ? null : unitRatio(item.price, known);
      if (ratio !== null)
        issues.push(
          `uid "${item.uid}" at ${item.price} where the catalog has ${known} (${about(ratio)})`,
        );
    }
    if (issues.length === 0) continue;
    const what = o.endpoint === 'order/transaction' ? 'line' : 'item';
    const data = {
      eventId: o.base.id,
      siteId,
      lines: count(issues.length, what),
      issues: issues.slice(0, 5).join(', '),
    };
    out.push(
      finding(meta, o.base.id, { messageId: 'catalogOtherUnit', data }, [o.base.id], {
        behaviour: o.endpoint === 'order/transaction' ? 'order.totals' : 'cart.items',
      }),
    );
  }
  return out;
}

/** "a line", "an item", "2 lines" */
function count(n: number, what: 'line' | 'item'): string {
  return n === 1 ? `${what === 'item' ? 'an' : 'a'} ${what}` : `${n} ${what}s`;
}
