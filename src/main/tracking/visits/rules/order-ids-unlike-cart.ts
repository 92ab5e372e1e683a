// `order-ids-unlike-cart` (warning): an order whose lines name none of the products its own page's
// cart/remove had just emptied from the cart, though their quantities and prices are the same: the order
// script maps other ids than the cart globals (the platform's own ids where the cart gives the feed's).
//
// Why it is certain: the provider's tracker compares the thank-you page's cart globals (already empty) with
// the cart B stored as the page loads (T constructor) and sends a cart/remove of what it stored, just before
// the order script is read; the order then maps the same kind of items (T track.order.transaction: uid,
// parentId, sku of each item). So the lines of that order are what the removal took out of the cart: the
// same products under the same ids. When they match it line for line in quantity and price and share no
// id, the two scripts are fed different ids, and the order cannot be joined to the clicks and adds that
// led to it (its credit is lost). What it exempts: a removal that did not empty the cart (cart not []), or
// one after the order; an order whose line count, quantities or prices differ from the removal (another
// purchase than the cart, a discount on a line); any id shared between them (one mapped line is enough to
// read the rest as the shopper's choice).
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { productIds, type VisitEvent } from '../events';
import { firstThree } from './types';

const meta: RuleMeta<'visit'> = {
  id: 'order-ids-unlike-cart',
  judges: ['visit'],
  title: 'Order under other ids than its cart',
  description:
    'An order whose lines name none of the products its page’s cart/remove emptied from the cart just before, with the same quantities and prices line for line: the order script maps other ids than the cart globals.',
  expects:
    'The order’s lines carry the ids the cart globals and the tiles carry (the feed’s uid, parentId and sku).',
  appliesTo: ['order'],
  guards: ['order.transaction'],
  defaultSeverity: 'warning',
  messages: {
    otherIds:
      'order "{{orderId}}" ({{orderEvent}}) bought {{lines}}, ids none of which the cart held: the page’s cart/remove {{removeEvent}}, sent as it loaded, emptied a cart of {{cart}}, with the same quantities and prices. The order script maps other ids than the cart globals (the platform’s own ids where the cart gives the feed’s), so the provider cannot join the order to the clicks and adds that led to it: its credit is lost.',
  },
  fix: 'Give the order script’s items the uid, parentId and sku the cart globals and the tiles carry (the feed’s ids).',
  listens: ['order/transaction', 'cart/remove'],
};

/** `uid "a", uid "b", uid "c" and 2 more` */
const named = (items: readonly { uid: string }[]) => firstThree(items.map((i) => `uid "${i.uid}"`));

/** The lines' quantities and prices, in an order that does not depend on the ids. */
function amounts(items: VisitEvent['items']): string {
  return items
    .map((i) => `${i.qty}×${i.price}`)
    .sort()
    .join(',');
}

/** The page's emptying cart/remove just before `order` (the latest), if any. */
function emptiedBefore(order: VisitEvent, page: readonly VisitEvent[]): VisitEvent | undefined {
  let found: VisitEvent | undefined;
  for (const v of page)
    if (
      v.endpoint === 'cart/remove' &&
      v.cart !== null &&
      v.cart.length === 0 &&
      v.base.time <= order.base.time
    )
      found = v;
  return found;
}

function otherIds(order: VisitEvent, removal: VisitEvent): boolean {
  if (order.items.length === 0 || order.items.length !== removal.items.length) return false;
  if (amounts(order.items) !== amounts(removal.items)) return false;
  const carted = new Set(removal.items.flatMap(productIds));
  return order.items.every((line) => productIds(line).every((id) => !carted.has(id)));
}

export const orderIdsUnlikeCart = defineRule({
  meta,
  visit(_page, { accepted }) {
    const out = [];
    for (const order of accepted) {
      if (order.endpoint !== 'order/transaction') continue;
      const removal = emptiedBefore(order, accepted);
      if (!removal || !otherIds(order, removal)) continue;
      out.push(
        finding(
          meta,
          order.base.id,
          {
            messageId: 'otherIds',
            data: {
              orderId: order.orderId ?? '',
              orderEvent: order.base.id,
              lines: named(order.items),
              removeEvent: removal.base.id,
              cart: named(removal.items),
            },
          },
          [order.base.id, removal.base.id],
        ),
      );
    }
    return out;
  },
});
