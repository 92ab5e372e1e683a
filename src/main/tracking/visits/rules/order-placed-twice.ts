// `order-placed-twice` (warning): one purchase sent as two orders. A page load sent an order, then, more
// than RELOAD_MIN_MS and at most SAME_PURCHASE_MS later, another order with another orderId and the same
// totals and lines, and sent no product view or cart event between them.
//
// Why it is certain enough: the provider's tracker sends an order when it reads the confirmation page's
// order script, once per load of that page (T), and a reload sends the same orderId again (order-reloaded's).
// Another orderId for the same purchase on the same page load comes from code that sent the order when the
// shopper placed it, before the payment was confirmed: a declined card paid again gets a new order number,
// and the provider counts both. What it exempts: orders sent less than RELOAD_MIN_MS apart (two order
// scripts read at once: a split order), other totals or lines, a product view or cart event between the
// two (the shopper shopped again: an SPA that tracks its routes and cart), orders more than
// SAME_PURCHASE_MS apart, and other page loads (separate checkouts). Not told apart, and said in the
// message: an SPA that tracks neither its routes nor its cart, whose shopper buys exactly the same again.
import { duration, finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { orderSent } from '../order-book';
import { RELOAD_MIN_MS } from './utils/order-repeat';

/** a payment retried within this is the same purchase */
const SAME_PURCHASE_MS = 30 * 60_000;

const meta: RuleMeta<'visit'> = {
  id: 'order-placed-twice',
  judges: ['visit'],
  title: 'One purchase sent as two orders',
  description:
    'Two order/transaction events of one page load with different orderIds and the same totals and lines, 0.5 s to 30 min apart, with no product view or cart event between them: the order was sent when it was placed, then again with a new order number (a retried payment).',
  expects:
    'One order/transaction per purchase, sent from the confirmation page once the payment succeeded.',
  appliesTo: ['order'],
  guards: ['order.transaction'],
  defaultSeverity: 'warning',
  messages: {
    twice:
      'order "{{orderId}}" ({{eventId}}) was sent {{gap}} after order "{{firstOrderId}}" ({{firstId}}) on the same page load, with the same totals and lines and no product view or cart event between them: one purchase sent as two orders. The provider’s tracker sends an order when it reads the confirmation page’s order script, once per load of that page; an order sent when the shopper places it, before the payment is confirmed, is sent again when a declined payment is retried under a new order number, and the provider counts both. (A single-page shop that tracks neither its routes nor its cart, whose shopper bought exactly the same again, looks the same.)',
  },
  fixes: {
    twice:
      'send the order once the payment has succeeded, from the confirmation step, with the final order number.',
  },
  fix: 'Send the order once the payment has succeeded, from the confirmation step, with the final order number.',
  listens: ['order/transaction'],
};

export const orderPlacedTwice = defineRule({
  meta,
  visit(_page, { accepted }) {
    const out = [];
    for (let i = 0; i < accepted.length; i++) {
      const o = accepted[i]!;
      if (o.endpoint !== 'order/transaction' || !o.orderId?.trim()) continue;
      // the latest earlier order of the page, with nothing the shopper did between
      for (let j = i - 1; j >= 0; j--) {
        const p = accepted[j]!;
        if (p.endpoint !== 'order/transaction') {
          if (p.endpoint === 'shopper/login' || p.endpoint === 'log/snap') continue;
          break;
        }
        if (!p.orderId?.trim() || p.orderId === o.orderId) break;
        const gap = o.base.time - p.base.time;
        if (gap < RELOAD_MIN_MS || gap > SAME_PURCHASE_MS) break;
        const a = orderSent(p);
        const b = orderSent(o);
        if (
          a.lines !== b.lines ||
          a.transactionTotal !== b.transactionTotal ||
          a.total !== b.total ||
          p.items.length === 0
        )
          break;
        out.push(
          finding(
            meta,
            o.base.id,
            {
              messageId: 'twice',
              data: {
                orderId: o.orderId,
                eventId: o.base.id,
                firstOrderId: p.orderId,
                firstId: p.base.id,
                gap: duration(gap),
              },
            },
            [p.base.id, o.base.id],
          ),
        );
        break;
      }
    }
    return out;
  },
});
