// `order-id-missing`: an order/transaction whose orderId is empty; the provider cannot tell it from others.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';

const meta: RuleMeta<'visit'> = {
  id: 'order-id-missing',
  judges: ['visit'],
  title: 'Order without an id',
  description:
    'An order/transaction whose orderId is empty (the provider’s client sends String(order.id || ""), so a thank-you page that never set order.id sends "").',
  expects: 'data.orderId is the merchant’s order number, unique per order.',
  appliesTo: ['order'],
  guards: ['order.transaction'],
  defaultSeverity: 'error',
  messages: {
    missing:
      "order/transaction {{eventId}} has orderId {{orderId}}: the provider cannot tell this order from any other, so revenue reports merge or drop it. The provider's client sends String(order.id || ''), so a thank-you page that never sets order.id sends \"\".",
  },
  fixes: {
    missing:
      "set order.id (the merchant's order number) in the athos/track/order/transaction script.",
  },
  fix: 'Set order.id in the thank-you page’s athos/track/order/transaction script (or orderId in a direct beacon call) to the order number.',
  listens: ['order/transaction'],
  needs: { visit: true },
};

export const orderIdMissing = defineRule({
  meta,
  visit(_page, ctx) {
    return ctx.accepted
      .filter((o) => o.endpoint === 'order/transaction' && (o.orderId ?? '').trim() === '')
      .map((o) =>
        finding(
          meta,
          o.base.id,
          {
            messageId: 'missing',
            data: { eventId: o.base.id, orderId: JSON.stringify(o.orderId ?? '') },
          },
          [o.base.id],
        ),
      );
  },
});
