// `order-currency-mismatch` (warning): an order that names another currency than the visit's cart events,
// at exactly the prices the cart gave its products: the order's currency code is not its amounts'. The
// same of a cart event (`cart`: a cart page whose template writes another code), reported only on a page
// that sent no such order (the thank-you page's own cart/remove carries the order's code: one bug).
//
// Why it is certain enough: the provider's client puts the page's currency on every event
// (context.currency from the tracker's currency, which the page sets: B setCurrency, T from the page's
// globals), and a shop that lets the shopper switch currency converts its prices with it. So an order that
// names another currency than the cart while every line the cart priced costs exactly what the cart said
// was not converted: its currency code was written into the thank-you page (a template with a fixed code),
// and the provider converts the order's revenue from the wrong currency. What it exempts: a cart or an order
// that names no currency, an order in the cart's currency, lines the cart never priced, any line at another
// price (a real switch converts), and an order in another visit (a checkout on another domain). Not told
// apart, and said in the message: a shop that prices its products with the same numbers in two currencies
// (fixed prices per market) whose shopper switched currency between the cart and the order.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';

const meta: RuleMeta<'visit'> = {
  id: 'order-currency-mismatch',
  judges: ['visit'],
  title: 'Order in another currency than its cart, at the same prices',
  description:
    'An order/transaction whose context.currency differs from the currency of the visit’s cart events, while each of its lines the cart priced costs exactly what the cart said: the amounts were not converted, so the order’s currency code is not theirs.',
  expects:
    'Every event carries the page’s currency (context.currency): an order in the currency of its amounts.',
  appliesTo: ['order'],
  guards: ['order.transaction'],
  defaultSeverity: 'warning',
  messages: {
    cart: '{{endpoint}} {{eventId}} names currency {{order}}, but the visit’s earlier cart events priced its products in {{cart}}, at exactly the prices it carries ({{cartEvent}}): the amounts were not converted, so they are {{cart}}, not {{order}}. The provider’s client sends the page’s currency with every event, so this page set another currency than the shop’s other pages (a code written into its template). (A shop that prices its products with the same numbers in both currencies, whose shopper switched currency, looks the same.)',
    mismatch:
      'order "{{orderId}}" ({{eventId}}) names currency {{order}}, but the visit’s cart events priced its products in {{cart}}, at exactly the prices its lines carry ({{cartEvent}}): the amounts were not converted, so they are {{cart}}, not {{order}}. The provider’s client sends the page’s currency with every event, so the thank-you page set another currency than the shop’s pages (a code written into its template), and the provider converts this order’s revenue from the wrong currency. (A shop that prices its products with the same numbers in both currencies, whose shopper switched currency before paying, looks the same.)',
  },
  fixes: {
    cart: 'set the tracker’s currency on every page from the shop’s current currency, not a fixed code.',
    mismatch:
      'set the tracker’s currency on the thank-you page from the order’s own currency (the shop’s, as on its other pages), not a fixed code.',
  },
  fix: 'Set the tracker’s currency on the thank-you page from the order’s own currency, as on the shop’s other pages.',
  listens: ['order/transaction', 'cart/add', 'cart/remove'],
};

export const orderCurrencyMismatch = defineRule({
  meta,
  visit(_page, { accepted }) {
    const out = [];
    const off = accepted.filter((v) => v.currencyMismatch !== undefined);
    const orders = off.filter((v) => v.endpoint === 'order/transaction');
    // one finding per page: its orders', else its first cart event's
    for (const v of orders.length > 0 ? orders : off.slice(0, 1)) {
      const order = v.endpoint === 'order/transaction';
      out.push(
        finding(
          meta,
          v.base.id,
          {
            messageId: order ? 'mismatch' : 'cart',
            data: {
              endpoint: v.endpoint,
              orderId: v.orderId ?? '',
              eventId: v.base.id,
              order: v.currency ?? '',
              cart: v.currencyMismatch!.cart,
              cartEvent: v.currencyMismatch!.eventId,
            },
          },
          [v.currencyMismatch!.eventId, v.base.id],
        ),
      );
    }
    return out;
  },
});
