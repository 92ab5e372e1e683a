// `item-ids-unmapped` (warning): a product, cart or order item whose ids the provider's tracker would have
// filled in from each other: a uid with an empty parentId, or a sku or parentId with an empty uid.
//
// Why it is certain for the tracker's traffic: it maps a product page's and an order line's ids as
// parentId = parentId || uid || '', uid = uid || parentId || sku || '', and a cart item's parentId =
// parentId || uid, so an item with a uid or parentId never goes out with an empty parentId, nor (product
// page, order) an empty uid. What it exempts: a cart item without a uid (the service rejects it: `schema`
// names that), items with no id at all (nothing to fill from), and a product page or order line given
// only a sku: parentId is filled before uid falls back to the sku, so the tracker itself sends
// {uid: sku, parentId: ''} (whether that sku is a product id of the feed is `item-not-in-catalog`'s). Nor a
// cart/remove's result that a quick add since the last cart event stored with an empty parentId: every
// */addtocart adds its results to B's stored cart as it sent them (`parentId || ''`, a tile of a product
// without a parent), and a cart/remove sends what left of that stored cart as stored (the thank-you page's
// emptied globals, a variant replacing its parent); the client's own traffic (CLIENT-FACTS, Cart).
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { ITEM_IDS_BEHAVIOUR } from './utils/ids-behaviour';
import { firstThree } from './types';

const meta: RuleMeta<'visit'> = {
  id: 'item-ids-unmapped',
  judges: ['visit'],
  title: 'Product ids the tracker would have filled in',
  description:
    'A product page, cart or order item sent with an empty parentId beside its uid, or (product page, order) an empty uid beside its sku or parentId: the provider’s tracker fills each from the others (parentId = parentId || uid; uid = uid || parentId || sku). Not a product page or order line given only a sku, which the tracker sends as uid = sku beside an empty parentId, nor a cart/remove of an item a quick add stored with an empty parentId, which the client removes as it stored it.',
  expects:
    'Each item carries uid and parentId (the product’s own id when it has no parent), as the tracker maps them.',
  appliesTo: ['product', 'cart', 'order'],
  guards: ['product.pageview', 'cart.items', 'order.transaction', 'product.pageview-ids'],
  defaultSeverity: 'warning',
  messages: {
    unmapped:
      "{{endpoint}} {{eventId}} carries {{items}}. The provider's tracker fills each id from the others (parentId = parentId || uid; uid = uid || parentId || sku), so it never sends an item like this: personalization and the order's credit match products by these ids.",
  },
  fixes: {
    unmapped:
      "send items through the provider's tracker, or fill parentId with the product's own id (and uid with the variant's id).",
  },
  fix: 'Send items through the provider’s tracker (its product, cart and order scripts), or fill parentId with the product’s own id and uid with the variant’s id.',
  listens: ['product/pageview', 'cart/add', 'cart/remove', 'order/transaction'],
};

export const itemIdsUnmapped = defineRule({
  meta,
  visit(_page, ctx) {
    const out = [];
    for (const v of ctx.accepted) {
      if (v.endpoint === 'shopper/login') continue;
      const bad: string[] = [];
      const skuOnly = !v.endpoint.startsWith('cart/');
      const stored = v.storedAsQuickAdded;
      for (const item of [...v.items, ...(v.cart ?? [])]) {
        // the tracker's own mapping of a product page or order line given only a sku (see above)
        if (skuOnly && item.parentId === '' && item.uid !== '' && item.uid === item.sku) continue;
        // removed as a quick add stored it (see above); the results only, not the cart from the globals
        if (stored?.includes(item.uid) && item.parentId === '' && v.items.includes(item)) continue;
        if (item.uid !== '' && item.parentId === '')
          bad.push(`uid "${item.uid}" with an empty parentId`);
        else if (item.uid === '' && (item.sku !== '' || item.parentId !== '') && skuOnly)
          bad.push(
            `an empty uid beside ${item.sku !== '' ? `sku "${item.sku}"` : `parentId "${item.parentId}"`}`,
          );
      }
      if (bad.length === 0) continue;
      const unique = [...new Set(bad)];
      out.push(
        finding(
          meta,
          v.base.id,
          {
            messageId: 'unmapped',
            data: {
              endpoint: v.endpoint,
              eventId: v.base.id,
              items: firstThree(unique),
            },
          },
          [v.base.id],
          { behaviour: ITEM_IDS_BEHAVIOUR[v.endpoint] },
        ),
      );
    }
    return out;
  },
});
