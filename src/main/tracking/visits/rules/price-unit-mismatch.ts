// `price-unit-mismatch`: an order line priced about 100 times (or a hundredth of) what the visit's cart
// events said the product cost — cents in one place, units in the other. The book notes it when the
// order arrives (book.ts priceIssues). Exempt: any smaller difference (a sale, a coupon, rounding).
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import type { VisitRule } from './types';

const meta: RuleMeta = {
  id: 'price-unit-mismatch',
  title: 'Order prices in another unit than the cart’s',
  description:
    'An order line whose price is about 100× (or 1/100 of) the price the visit’s cart events carried for the same product: cents against units. Smaller differences (a sale, a coupon) are not findings.',
  expects:
    'Cart and order lines carry prices in the same unit, the currency unit (12.5, not 1250).',
  appliesTo: ['order'],
  guards: ['order.totals'],
  defaultSeverity: 'error',
  fix: 'Send order line prices in the unit the cart globals use (divide cents by 100 in the order script).',
  listens: ['cart/add', 'cart/remove', 'order/transaction'],
  needs: { visit: true },
};

export const priceUnitMismatch: VisitRule = {
  meta,
  judges: 'visit',
  check(_page, ctx) {
    return ctx.accepted
      .filter((o) => o.priceIssues !== undefined)
      .map((o) =>
        finding(
          meta,
          o.base.id,
          `order "${o.orderId ?? ''}" (${o.base.id}) prices ${o.priceIssues!.length === 1 ? 'a line' : `${o.priceIssues!.length} lines`} in another unit than the visit's cart: ${o.priceIssues!.slice(0, 5).join(', ')}. ` +
            `Revenue reports and the line's credit read the order's prices. ` +
            `Fix: send order line prices in the unit the cart uses (divide cents by 100 in the order script).`,
          [o.base.id],
        ),
      );
  },
};
