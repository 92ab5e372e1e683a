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
//
// The same of a cart/remove after the order on its page, removing only what the order bought (the
// thank-you page emptying its cart after the order): the client compares the cart globals once, in T's
// constructor, before the page's order script is read (a setTimeout later), so on the thank-you page the
// emptied cart's cart/remove goes out before the order; the order then clears B's stored cart, and nothing
// compares the cart again on that page load (a reload within 10 s finds the stored cart empty). What it
// exempts: a remove on another page load, or one that removes anything the order did not buy.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { productIds, type VisitEvent } from '../events';
import { duration, firstThree } from './types';

/** How soon after the order, on its page, an add of its items reads as the cart event sent late. */
export const ADD_AFTER_ORDER_MS = 10_000;

const meta: RuleMeta<'visit'> = {
  id: 'cart-after-order',
  judges: ['visit'],
  title: 'Cart event sent after the order',
  description:
    'A cart/add on the order’s own page at most 10 s after the order, adding only products the order bought, when the visit carted or quick-added none of them before the order: the storefront sent the order before its cart events. Not a re-add on another page or later, nor an add of anything else. Or a cart/remove on the order’s page after it, removing only what it bought: the thank-you page emptied its cart after the order.',
  expects:
    'Cart events come when the cart changes, before the order (the client compares the page’s cart globals with its stored cart on every page load); an order empties the stored cart.',
  appliesTo: ['cart'],
  guards: ['cart.ledger'],
  defaultSeverity: 'warning',
  messages: {
    late: 'cart/add {{eventId}} added {{items}} on the order’s page {{gap}} after order "{{orderId}}" ({{orderEvent}}) bought it, and nothing of that order was carted in this visit before it: the order went out before its cart events. The client sends cart/add when the item goes into the cart and an order empties its stored cart, so the items read as never carted and the cart as filled by the purchase.',
    removedAfter:
      'cart/remove {{eventId}} removed {{items}} on the order’s page {{gap}} after order "{{orderId}}" ({{orderEvent}}) bought it. The client sends the thank-you page’s cart/remove of the emptied cart when the page loads, before the order, and the order empties its stored cart, so nothing is removed after it: the storefront clears its cart after the order, and the bought items read as taken out of the cart after the purchase.',
  },
  fixes: {
    late: 'send cart/add when the item goes into the cart (the product or cart page’s cart globals, read on every page load), before checkout; the thank-you page sends only the order.',
    removedAfter:
      'give the thank-you page empty cart globals when it loads, and let the tracker send the cart/remove before the order; do not send cart/remove after the order.',
  },
  fix: 'Send cart/add when the item goes into the cart (the product or cart page’s cart globals), before checkout; the thank-you page sends only the order.',
  listens: ['cart/add', 'cart/remove', 'order/transaction'],
};

/** Does every item of the cart event share a product id with a line of the order (and is there one)? */
function onlyBought(cart: VisitEvent, order: VisitEvent): boolean {
  if (cart.items.length === 0) return false;
  const bought = new Set(order.items.flatMap(productIds));
  return cart.items.every((i) => productIds(i).some((id) => bought.has(id)));
}

/** The cart event's items as a message names them. */
const itemsOf = (v: VisitEvent) => firstThree(v.items.map((i) => `uid "${i.uid}"`));

/** The order of the page a cart event follows as the rule reads it, if any. */
function orderBefore(v: VisitEvent, orders: readonly VisitEvent[]): VisitEvent | undefined {
  const t = v.base.time;
  if (v.endpoint === 'cart/add')
    return orders.find(
      (o) =>
        o.uncarted && t >= o.base.time && t - o.base.time <= ADD_AFTER_ORDER_MS && onlyBought(v, o),
    );
  // a remove at the order's very instant may be the page's own, sent just before it
  if (v.endpoint === 'cart/remove') return orders.find((o) => t > o.base.time && onlyBought(v, o));
  return undefined;
}

export const cartAfterOrder = defineRule({
  meta,
  visit(_page, ctx) {
    const out = [];
    // a page holds an order or two: its cart events are read against each of them
    const orders = ctx.accepted.filter((v) => v.endpoint === 'order/transaction');
    if (orders.length === 0) return [];
    for (const v of ctx.accepted) {
      const order = orderBefore(v, orders);
      if (!order) continue;
      out.push(
        finding(
          meta,
          v.base.id,
          {
            messageId: v.endpoint === 'cart/add' ? 'late' : 'removedAfter',
            data: {
              eventId: v.base.id,
              items: itemsOf(v),
              gap: duration(v.base.time - order.base.time),
              orderId: order.orderId ?? '',
              orderEvent: order.base.id,
            },
          },
          [v.base.id, order.base.id],
        ),
      );
    }
    return out;
  },
});
