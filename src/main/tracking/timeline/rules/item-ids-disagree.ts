// `item-ids-disagree` (warning): an item whose uid and parentId the site's catalog gives another relation: its
// parentId is a variant of its uid (the two swapped), or its uid is a variant of another product than its
// parentId. Read from the indexed catalog; for a product page view on a site without one, from the results
// and variants the companion search and recommend APIs served.
//
// Why it is certain for the tracker's traffic: it maps a variant as uid = childUid || uid and parentId =
// parentId || uid || childUid (T track.product.view), a cart line as parentId = parentId || uid, an order
// line as parentId = parentId || uid; Snap's result events send the result's uid with its own parentId. So
// a uid is the product or variant itself and parentId its variant group or the uid again: never a variant
// of the uid, never the group of another product; and a product page view that names a variant the catalog
// knows as its own group (parentId = uid) was given the variant without its product. What it exempts:
// parentId = uid on a response's events and on cart and order lines, and an empty parentId
// (how the client sends a product without a group, or a cart line without one), ids the catalog does not
// relate, a parentId the catalog does not hold (item-not-in-catalog names unknown ids), the response events of a companion site (parentid-mismatch
// and parentid-unclear judge them against the response itself). Warning: the catalog is the last index.
import { defineRule, finding, type RuleMeta } from './types';
import { Offenders, catalogToCheck, productItems } from './utils/provenance';
import { ITEM_IDS_BEHAVIOUR } from '../../visits/rules/utils/ids-behaviour';

const meta: RuleMeta<'response' | 'visit'> = {
  id: 'item-ids-disagree',
  // a response's items, and the product, cart and order events of the page (their page kinds below)
  judges: ['response', 'visit'],
  title: 'An item’s uid and parentId disagree with the catalog',
  description:
    'An item whose parentId the catalog (or, for a product page view without one, what the companion search served) knows as a variant of its uid, or whose uid it knows as a variant of another product than its parentId.',
  expects:
    'uid is the product or the variant itself, parentId its variant group (or the uid again): uid = childUid || uid, parentId = parentId || uid, as the tracker maps them.',
  appliesTo: [
    'search',
    'category',
    'autocomplete',
    'recommendations',
    'bundles',
    'product',
    'cart',
    'order',
  ],
  guards: [
    'search.items-served',
    'category.events',
    'product.pageview-ids',
    'cart.items',
    'order.transaction',
    'autocomplete.events',
    'recommendations.events',
    'bundles.widget',
    'category.items-served',
  ],
  defaultSeverity: 'warning',
  messages: {
    disagree:
      '{{count}} reported with responseId "{{responseId}}" {{have}} a uid and parentId that site {{siteId}}\'s indexed catalog relates otherwise: {{offenders}}. uid is the product or variant itself and parentId its variant group, as the client sends them.',
    visitDisagree:
      "{{endpoint}} {{eventId}} names {{items}}, by {{where}}. The provider's tracker sends a variant as uid = childUid || uid with parentId = its product (parentId || uid), so it never sends these ids: personalization and the order's credit match products by them.",
  },
  fix: 'Send uid = the product or variant itself and parentId = its variant group (the product), as the feed has them.',
  fixes: {
    disagree:
      'send the uid of the result or variant shown and the parentId of its variant group, as the search response gave them.',
    visitDisagree:
      'give the product script the product’s uid with the selected variant as childUid (not the other way round), and cart and order lines the variant’s uid with its product as parentId.',
  },
  listens: [
    'impression',
    'clickthrough',
    'addtocart',
    'product/pageview',
    'cart/add',
    'cart/remove',
    'order/transaction',
  ],
  needs: { catalog: true, provenance: true },
  judgesOnlyWith: ['catalog', 'issued'],
};

/**
 * What the catalog says of an item's two ids when it relates them otherwise; undefined when it agrees or
 * does not know. `has`: whether the catalog holds an id (a parentId it does not hold is
 * item-not-in-catalog's to name).
 */
function disagreement(
  uid: string,
  parentId: string,
  parentOf: (uid: string) => string | undefined,
  has?: (id: string) => boolean,
): string | undefined {
  if (uid === '' || parentId === '' || parentId === uid) return undefined;
  if (parentOf(parentId) === uid)
    return `uid "${uid}" with parentId "${parentId}", a variant of "${uid}": uid and parentId are swapped (uid "${parentId}", parentId "${uid}")`;
  const group = parentOf(uid);
  if (
    group !== undefined &&
    group !== '' &&
    group !== uid &&
    group !== parentId &&
    (has?.(parentId) ?? true)
  )
    return `uid "${uid}" with parentId "${parentId}", while "${uid}" is a variant of "${group}"`;
  return undefined;
}

/**
 * A product page's variant named as its own group (parentId = uid) where the catalog knows its product:
 * the tracker sends that only when the page's product script gave the variant's id as uid with no
 * parentId or childUid (T: uid = childUid || uid, parentId = parentId || uid || childUid), so the view is
 * not tied to its product. Product page views only: a cart or order line without a parentId goes out so
 * from any platform whose cart gives none (T: parentId = parentId || uid), and a response's events send
 * their result's uid, whose own parentId the search gave.
 */
function variantAlone(
  uid: string,
  parentId: string,
  parentOf: (uid: string) => string | undefined,
): string | undefined {
  if (uid === '' || parentId !== uid) return undefined;
  const group = parentOf(uid);
  if (group === undefined || group === '' || group === uid) return undefined;
  return `uid "${uid}" with parentId "${uid}", while "${uid}" is a variant of "${group}": the variant named without its product`;
}

export const itemIdsDisagree = defineRule({
  meta,
  response(r, ctx) {
    // a companion site's response events are judged against the response itself
    const catalog = catalogToCheck(ctx);
    const parentOf = catalog?.parentOf?.bind(catalog);
    if (!catalog || !parentOf) return [];
    const has = (id: string) => catalog.has(id);
    const bad = new Offenders();
    for (const { item, event: e } of productItems(r)) {
      const what = disagreement(item.uid, item.parentId ?? '', parentOf, has);
      if (what) bad.add(item.uid, e.id, what);
    }
    if (bad.size === 0) return [];
    return [
      bad.finding(meta, r.responseId, {
        messageId: 'disagree',
        noun: 'item',
        words: { have: bad.size === 1 ? 'has' : 'have', siteId: ctx.page.siteId },
      }),
    ];
  },

  /** the same check over the page's product, cart and order events */
  visit(_page, ctx) {
    const known = ctx.catalog ?? ctx.served;
    const parentOf = known?.parentOf?.bind(known);
    if (!parentOf) return [];
    const catalog = ctx.catalog;
    const has = catalog && ((id: string) => catalog.has(id));
    // what the companion served is read response by response: asked for a product page's one item only
    const served = !ctx.catalog;
    const where = served
      ? 'the results and variants the companion search served'
      : 'the indexed catalog';
    const out = [];
    for (const v of ctx.accepted) {
      const behaviour = ITEM_IDS_BEHAVIOUR[v.endpoint];
      if (!behaviour || (served && v.endpoint !== 'product/pageview')) continue;
      const bad = new Set<string>();
      for (const item of [...v.items, ...(v.cart ?? [])]) {
        const what =
          disagreement(item.uid, item.parentId, parentOf, has) ??
          (v.endpoint === 'product/pageview'
            ? variantAlone(item.uid, item.parentId, parentOf)
            : undefined);
        if (what) bad.add(what);
      }
      if (bad.size === 0) continue;
      const shown = [...bad];
      const items = `${shown.slice(0, 3).join('; ')}${shown.length > 3 ? `; and ${shown.length - 3} more` : ''}`;
      out.push({
        ...finding(
          meta,
          v.base.id,
          {
            messageId: 'visitDisagree',
            data: { endpoint: v.endpoint, eventId: v.base.id, items, where },
          },
          [v.base.id],
        ),
        behaviour,
      });
    }
    return out;
  },
});
