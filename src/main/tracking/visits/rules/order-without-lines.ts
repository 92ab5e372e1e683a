// `order-without-lines` (warning): an order/transaction with no results.
//
// Why it is certain: the provider's tracker builds an order's results from the `items` of the thank-you
// page's athos/track/order/transaction script, one line per item (T track.order.transaction), and every
// order has at least one item; so an order with none comes from a template that did not list them (or a
// direct call without them). What it exempts: nothing about the order's totals (a free order still has
// lines); a results that is not an array is the schema's.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { money } from './types';

const meta: RuleMeta<'visit'> = {
  id: 'order-without-lines',
  judges: ['visit'],
  title: 'Order without lines',
  description:
    'An order/transaction whose results are empty: the provider’s tracker maps one line per item of the thank-you page’s order script.',
  expects:
    'data.results holds the order’s lines (uid, qty, price), mapped from the order script’s items.',
  appliesTo: ['order'],
  guards: ['order.transaction'],
  defaultSeverity: 'warning',
  messages: {
    noLines:
      "order/transaction {{eventId}} (orderId {{orderId}}, total {{total}}) has no lines: nothing of it can be credited to the searches and clicks that led to it, and the merchant's product reports miss what was bought. The provider's tracker sends one line per item of the thank-you page's order script, so an order without lines comes from a template that did not list its items.",
  },
  fix: 'List the order’s items in the athos/track/order/transaction script (items: [{uid, parentId, sku, qty, price}]).',
  listens: ['order/transaction'],
  needs: { visit: true },
};

export const orderWithoutLines = defineRule({
  meta,
  visit(_page, ctx) {
    return ctx.accepted
      .filter((o) => o.endpoint === 'order/transaction' && o.items.length === 0)
      .map((o) =>
        finding(
          meta,
          o.base.id,
          {
            messageId: 'noLines',
            data: {
              eventId: o.base.id,
              orderId: JSON.stringify(o.orderId ?? ''),
              total: money(o.total ?? 0),
            },
          },
          [o.base.id],
        ),
      );
  },
});
