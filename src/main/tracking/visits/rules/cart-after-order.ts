// `cart-after-order` (warning): a cart/add on the thank-you page right after its order, adding only what
// the order bought, where the visit had carted none of the order's products before it: the storefront sent
// the order before its cart events, so the order's items read as never carted and the cart as filled by
// the purchase.
//
// Why it is certain enough to warn: the provider's client sends cart/add when the cart changes (T's
// constructor compares the page's cart globals with the cart B stored, on every page load; every
// */addtocart adds to that stored cart) and an order empties the stored cart (cart-ledger.ts
// `noteOrderPlaced`), so a shopper's cart events come before the order that buys the cart, and an add of
// the very items just bought, from the order's own page, is the add that should have come first. What it
// exempts, and why: a cart/add on another page load than the order's, or more than 10 s after it (a re-add:
// the shopper shops on after ordering, the same product included); one that adds anything the order did
// not buy (a new cart); one after an order any of whose products the visit had carted or quick-added
// before it (its cart events came first: the add after it is another matter, cart-inconsistent's).
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { productIds, type VisitEvent } from '../events';
import { duration } from './types';

/** How soon after the order, on its page, an add of its items reads as the cart event sent late. */
export const ADD_AFTER_ORDER_MS = 10_000;

const meta: RuleMeta<'visit'> = {
  id: 'cart-after-order',
  judges: ['visit'],
  title: 'Cart event sent after the order',
  description:
    'A cart/add on the order’s own page at most 10 s after the order, adding only products the order bought, when the visit carted or quick-added none of them before the order: the storefront sent the order before its cart events. Not a re-add on another page or later, nor an add of anything else.',
  expects:
    'Cart events come when the cart changes, before the order (the client compares the page’s cart globals with its stored cart on every page load); an order empties the stored cart.',
  appliesTo: ['cart'],
  guards: ['cart.ledger'],
  defaultSeverity: 'warning',
  messages: {
    late: 'cart/add {{eventId}} added {{items}} on the order’s page {{gap}} after order "{{orderId}}" ({{orderEvent}}) bought it, and nothing of that order was carted in this visit before it: the order went out before its cart events. The client sends cart/add when the item goes into the cart and an order empties its stored cart, so the items read as never carted and the cart as filled by the purchase.',
  },
  fixes: {
    late: 'send cart/add when the item goes into the cart (the product or cart page’s cart globals, read on every page load), before checkout; the thank-you page sends only the order.',
  },
  fix: 'Send cart/add when the item goes into the cart (the product or cart page’s cart globals), before checkout; the thank-you page sends only the order.',
  listens: ['cart/add', 'order/transaction'],
};

/** Does every item of the add share a product id with a line of the order (and is there one)? */
function onlyBought(add: VisitEvent, order: VisitEvent): boolean {
  if (add.items.length === 0) return false;
  const bought = new Set(order.items.flatMap(productIds));
  return add.items.every((i) => productIds(i).some((id) => bought.has(id)));
}

export const cartAfterOrder = defineRule({
  meta,
  visit(_page, ctx) {
    const out = [];
    // a page holds an order or two: the adds are read against each of its orders
    const orders = ctx.accepted.filter((v) => v.endpoint === 'order/transaction' && v.uncarted);
    if (orders.length === 0) return [];
    for (const add of ctx.accepted) {
      if (add.endpoint !== 'cart/add') continue;
      const t = add.base.time;
      const order = orders.find(
        (o) => t >= o.base.time && t - o.base.time <= ADD_AFTER_ORDER_MS && onlyBought(add, o),
      );
      if (!order) continue;
      const shown = add.items.slice(0, 3).map((i) => `uid "${i.uid}"`);
      out.push(
        finding(
          meta,
          add.base.id,
          {
            messageId: 'late',
            data: {
              eventId: add.base.id,
              items: `${shown.join(', ')}${add.items.length > 3 ? ` and ${add.items.length - 3} more` : ''}`,
              gap: duration(t - order.base.time),
              orderId: order.orderId ?? '',
              orderEvent: order.base.id,
            },
          },
          [add.base.id, order.base.id],
        ),
      );
    }
    return out;
  },
});
