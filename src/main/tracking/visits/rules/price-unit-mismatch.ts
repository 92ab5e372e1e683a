// `price-unit-mismatch`: an order line whose price is not a unit price in the cart's unit: about 100 times
// (or a hundredth of) what the visit's cart events said the product cost — cents in one place, units in
// the other — or the line's total (qty × the cart's price, or prices that add up to transactionTotal only
// without their quantities). The book notes it when the order arrives (prices.ts). Exempt: any smaller
// difference (a sale, a coupon, rounding), and lines of one.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';

const meta: RuleMeta<'visit'> = {
  id: 'price-unit-mismatch',
  judges: ['visit'],
  title: 'Order prices in another unit than the cart’s',
  description:
    'An order line whose price is not a unit price in the cart’s unit: about 100× (or 1/100 of) the price the visit’s cart events carried for the same product (cents against units), or the line’s total (qty × price). Smaller differences (a sale, a coupon) are not findings.',
  expects:
    'Cart and order lines carry unit prices in the same unit, the currency unit (12.5, not 1250; the price of one, not of the line).',
  appliesTo: ['order'],
  guards: ['order.totals'],
  defaultSeverity: 'error',
  messages: {
    otherUnit:
      "order \"{{orderId}}\" ({{eventId}}) prices {{lines}} other than as a unit price in the visit's cart's unit: {{issues}}. Revenue reports (Σ qty × price) and the line's credit read the order's prices.",
  },
  fixes: {
    otherUnit:
      "send each line's unit price in the unit the cart uses (divide cents by 100 in the order script; never qty × price).",
  },
  fix: 'Send each order line’s unit price in the unit the cart globals use (divide cents by 100; never qty × price).',
  listens: ['cart/add', 'cart/remove', 'order/transaction'],
  needs: { visit: true },
};

export const priceUnitMismatch = defineRule({
  meta,
  visit(_page, ctx) {
    return ctx.accepted
      .filter((o) => o.priceIssues !== undefined)
      .map((o) =>
        finding(
          meta,
          o.base.id,
          {
            messageId: 'otherUnit',
            data: {
              orderId: o.orderId ?? '',
              eventId: o.base.id,
              lines: o.priceIssues!.length === 1 ? 'a line' : `${o.priceIssues!.length} lines`,
              issues: o.priceIssues!.slice(0, 5).join(', '),
            },
          },
          [o.base.id],
        ),
      );
  },
});
