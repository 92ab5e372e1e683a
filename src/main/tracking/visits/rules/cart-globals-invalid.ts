// `cart-globals-invalid` (warning): the provider's client reported that the page's cart globals have no
// item it can send, so the page's cart was not tracked.
//
// Why it is certain: the tracker keeps only the cart globals' items that have an id (parentId, uid or
// sku), a qty and a price, and when the globals list items but none of them has all three, it sends a
// log/snap `{message: 'cart globals missing properties', details: {cart}}` instead of a cart event (T
// constructor: "beacon 2.0 requires all parameters to be present; send error to keep track of integrations
// to be updated"). The log is the client's own word, so no exemption is needed; other log/snap messages
// (a deprecated call, storage errors) are not this rule's.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';

/** the message the tracker logs when no item of the cart globals can be sent */
const CART_GLOBALS_MESSAGE = 'cart globals missing properties';

const meta: RuleMeta<'visit'> = {
  id: 'cart-globals-invalid',
  judges: ['visit'],
  title: 'Cart globals the client cannot send',
  description:
    'A log/snap in which the provider’s client reports "cart globals missing properties": the page’s cart globals list items, but none has an id (uid, parentId or sku), a qty and a price, so the tracker sent no cart event for the page.',
  expects:
    'Every item of the cart globals has uid (the variant’s id), parentId (the product’s id), sku, qty and price, as the tracker reads them.',
  appliesTo: ['cart'],
  guards: ['cart.items'],
  defaultSeverity: 'warning',
  messages: {
    missingProperties:
      'log/snap {{eventId}}: the provider’s client reported "cart globals missing properties": none of the {{count}} of this page’s cart globals has an id (uid, parentId or sku), a qty and a price{{keys}}, so the tracker sent no cart event for this page. Every add to cart and removal of this shopper goes untracked, and the provider’s cart (personalization, cart recommendations, what an order’s credit reads) stays empty.',
  },
  fixes: {
    missingProperties:
      'map each item of the cart globals to {uid (the variant’s id), parentId (the product’s id), sku, qty, price}, with qty and price as numbers.',
  },
  fix: 'Map each item of the cart globals to {uid, parentId, sku, qty, price}, with qty and price as numbers.',
  listens: ['log/snap'],
};

export const cartGlobalsInvalid = defineRule({
  meta,
  visit(_page, { accepted }) {
    const out = [];
    for (const v of accepted) {
      if (v.endpoint !== 'log/snap' || v.logged?.message !== CART_GLOBALS_MESSAGE) continue;
      const { cartItems, cartKeys } = v.logged;
      out.push(
        finding(
          meta,
          v.base.id,
          {
            messageId: 'missingProperties',
            data: {
              eventId: v.base.id,
              count:
                cartItems === undefined
                  ? 'items'
                  : `${cartItems} item${cartItems === 1 ? '' : 's'}`,
              keys: cartKeys?.length ? ` (they have ${cartKeys.join(', ')})` : '',
            },
          },
          [v.base.id],
        ),
      );
    }
    return out;
  },
});
