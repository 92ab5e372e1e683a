// `line-sku-mismatch` (warning): a cart or order line whose sku the site's indexed catalog (or, without one,
// the responses the companion search issued) gives to another product than the one its uid names (nor to
// that product's parent or one of its variants).
//
// Why it is certain: the tracker builds a cart line from one item of the page's cart globals (T constructor:
// `parentId: parentId || uid`, `uid: uid`, its sku) and an order line from one item of the order script
// (T track.order.transaction: `uid: uid || parentId || sku`, `parentId: parentId || uid || ''`, its sku), so
// a line's uid and sku describe one product or variant: a sku that belongs to another product was taken
// from elsewhere (another line, the variant selected before, a neighbouring product). What it exempts is
// `pageview-sku-mismatch`'s (utils/sku-owner.ts): a product's own sku and its variants', a parent's sku
// under its variant's uid, a sku the catalog does not hold (a catalog may format skus otherwise: `NOPE-1`
// may be a variant the feed does not list), and a sku sent as uid too, which `item-not-in-catalog` names.
// A line whose uid is its sku, where only the issued responses tell skus (no catalog to say the uid is
// unknown), is told as that: the item was given no uid (T: `uid || parentId || sku`), and the uid is the
// fault, not the sku.
// Warning: the catalog is the last successful index, which may be older than the storefront.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { skuReading, variantOf } from './utils/sku-owner';

/** The behaviour a line's ids break: the cart's items or the order's lines (ids-behaviour.ts). */
const BEHAVIOUR: Readonly<Record<string, string>> = {
  'cart/add': 'cart.items',
  'cart/remove': 'cart.items',
  'order/transaction': 'order.transaction',
};

/** At most this many lines are named in one finding. */
const NAMED = 3;

const meta: RuleMeta<'visit'> = {
  id: 'line-sku-mismatch',
  judges: ['visit'],
  title: 'Cart or order line with the sku of another product',
  description:
    'A cart/add, cart/remove or order/transaction line whose sku the indexed catalog (or, without one, the responses the companion search issued) gives to another product than its uid (nor to the uid’s parent or variants).',
  expects:
    'uid and sku of a cart or order line describe one product or variant, as the page’s cart globals and order script give them.',
  appliesTo: ['product', 'cart', 'order', 'visit'],
  guards: ['cart.items', 'order.transaction'],
  defaultSeverity: 'warning',
  messages: {
    otherProduct:
      "{{endpoint}} {{eventId}} names {{lines}}. The provider's tracker takes a line's uid and sku from one item of the page's {{source}}, so the {{what}} is reported for another product than the one bought: personalization and the merchant's reports count the wrong product.",
    skuAsUid:
      "{{endpoint}} {{eventId}} names {{lines}}: the {{what}}'s uid is a sku, not the product's id. The provider's tracker sends a line's uid as the item gives it (an order line's as uid || parentId || sku), so an item given only its sku goes out under the sku: the line names no product the search served, and its clicks and quick adds earn it no credit.",
  },
  fix: 'Give each line of the cart globals and the order script the uid and sku of the same product or variant.',
  fixes: {
    otherProduct:
      "give each item of the page's {{source}} the sku of the product or variant its uid names.",
    skuAsUid:
      "give each item of the page's {{source}} the uid of its product or variant (and its parentId), not only its sku.",
  },
  listens: ['cart/add', 'cart/remove', 'order/transaction'],
  needs: { visit: true, catalog: true, provenance: true },
  judgesOnlyWith: ['catalog', 'issued'],
};

export const lineSkuMismatch = defineRule({
  meta,
  visit(_page, ctx) {
    const skus = skuReading(ctx);
    if (!skus) return [];
    const out = [];
    for (const v of ctx.accepted) {
      const behaviour = BEHAVIOUR[v.endpoint];
      if (behaviour === undefined) continue;
      const lines: string[] = [];
      // lines whose uid is the sku itself: the item was given no uid, and the uid is the fault, not the sku
      const asUid: string[] = [];
      for (const item of v.items) {
        const other = skus.other(item);
        if (!other) continue;
        if (item.uid === item.sku)
          asUid.push(
            `uid "${item.uid}", the sku ${skus.where} ${skus.give} to product "${other.owner}"${variantOf(other)}`,
          );
        else
          lines.push(
            `uid "${item.uid}" with sku "${item.sku}", which ${skus.where} ${skus.give} to product "${other.owner}"${variantOf(other)}`,
          );
      }
      // told as a missing uid only when that is every fault of the event; beside another sku, named after it
      const messageId = lines.length === 0 ? 'skuAsUid' : 'otherProduct';
      lines.push(...asUid);
      if (lines.length === 0) continue;
      const order = v.endpoint === 'order/transaction';
      const named =
        lines.slice(0, NAMED).join('; ') +
        (lines.length > NAMED ? `; and ${lines.length - NAMED} more` : '');
      out.push({
        ...finding(
          meta,
          v.base.id,
          {
            messageId,
            data: {
              endpoint: v.endpoint,
              eventId: v.base.id,
              lines: named,
              source: order ? 'order script' : 'cart globals',
              what: order ? 'order line' : 'cart line',
            },
          },
          [v.base.id],
        ),
        behaviour,
      });
    }
    return out;
  },
});
