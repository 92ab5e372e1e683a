// `item-not-in-catalog` (warning): for a site with an indexed catalog that does not get its searches from the
// sandbox, a product uid or parentId that the catalog does not hold. Warning: the catalog may be older.
import { defineRule, finding, type RuleMeta } from './types';
import { Offenders, catalogToCheck, productItems } from './utils/provenance';
import type { VisitEndpoint, VisitEvent } from '../../visits/events';

/** the behaviour a visit event's unknown id breaks (a login carries no items) */
const VISIT_BEHAVIOUR: Partial<Record<VisitEndpoint, string>> = {
  'product/pageview': 'product.pageview',
  'cart/add': 'cart.items',
  'cart/remove': 'cart.items',
  'order/transaction': 'order.transaction',
};

const meta: RuleMeta<'response' | 'visit'> = {
  id: 'item-not-in-catalog',
  // a response's items, and the product, cart and order events of the page (their page kinds below)
  judges: ['response', 'visit'],
  title: 'Item not in the indexed catalog',
  description:
    'For a site with an indexed catalog that does not use the companion search API, a uid or parentId the catalog does not hold.',
  expects: 'uid and parentId are ids of the site’s products (its feed).',
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
    'product.pageview',
    'cart.items',
    'order.transaction',
    'autocomplete.events',
    'recommendations.events',
    'bundles.widget',
    'category.items-served',
  ],
  // a product page that sends ids of its own making on the catalog's page of a product: the view's fix
  explainedBy: ['pageview-other-url'],
  explainedMessages: ['visitNotInCatalog'],
  defaultSeverity: 'warning',
  messages: {
    notInCatalog:
      "{{count}} reported with responseId \"{{responseId}}\" {{are}} not in site {{siteId}}'s indexed catalog: {{offenders}}. uid and parentId are the ids of the feed's products (the id column; parentId a variant group id or the product's own id). To turn this check off for the site, set search.catalogCheck: false on its account.",
    visitNotInCatalog:
      "{{count}} of this page's product, cart or order events {{are}} not in site {{siteId}}'s indexed catalog: {{ids}}. An order line whose ids the catalog does not know earns no credit and teaches personalization nothing.",
  },
  fix: 'Send product ids as the feed has them; re-index if the products are new (search.catalogCheck: false turns it off).',
  fixes: {
    notInCatalog:
      'send the product ids the search response gave; if the products are new, index the feed again (the catalog is the last successful index).',
    visitNotInCatalog:
      "send the feed's product ids (uid = the product or variant id, parentId = its variant group); if the products are new, index the feed again.",
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
  needs: { catalog: true },
  judgesOnlyWith: ['catalog'],
};

export const itemNotInCatalog = defineRule({
  meta,
  response(r, ctx) {
    const catalog = catalogToCheck(ctx);
    if (!catalog) return [];
    const bad = new Offenders();
    const note = (id: string, what: string) => {
      const uid = catalog.uidOfSku(id);
      return uid !== undefined ? `${what}; it is the sku of product "${uid}": send its uid` : what;
    };
    for (const { item, event: e } of productItems(r)) {
      if (!catalog.has(item.uid)) bad.add(item.uid, e.id, note(item.uid, 'uid'));
      const pid = item.parentId ?? '';
      if (pid !== '' && pid !== item.uid && !catalog.has(pid))
        bad.add(pid, e.id, note(pid, `parentId of "${item.uid}"`));
    }
    if (bad.size === 0) return [];
    return [
      bad.finding(meta, r.responseId, {
        messageId: 'notInCatalog',
        noun: 'id',
        words: { are: bad.size === 1 ? 'is' : 'are', siteId: ctx.page.siteId },
      }),
    ];
  },

  /**
   * The same check over the page's product, cart and order events: one finding per behaviour their ids
   * break (a product page's view, the cart's items, the order's lines), the first keeping the key `visit`.
   */
  visit(page, ctx) {
    const catalog = ctx.catalog;
    if (!catalog) return [];
    // behaviour → unknown id → the events that carry it, in the order the page's events name them
    const unknown = new Map<string, Map<string, string[]>>();
    const note = (id: string, v: VisitEvent) => {
      const behaviour = VISIT_BEHAVIOUR[v.endpoint];
      if (id === '' || behaviour === undefined || catalog.has(id)) return;
      let ofIt = unknown.get(behaviour);
      if (!ofIt) unknown.set(behaviour, (ofIt = new Map()));
      let ids = ofIt.get(id);
      if (!ids) ofIt.set(id, (ids = []));
      ids.push(v.base.id);
    };
    for (const v of ctx.accepted)
      for (const item of v.items) {
        note(item.uid, v);
        if (item.parentId !== item.uid) note(item.parentId, v);
      }
    return [...unknown].map(([behaviour, ofIt], i) => {
      const shown = [...ofIt.keys()].slice(0, 5).map((id) => {
        const uid = catalog.uidOfSku(id);
        return uid !== undefined
          ? `"${id}" (the sku of product "${uid}": send its uid)`
          : `"${id}"`;
      });
      const more = ofIt.size > 5 ? ` and ${ofIt.size - 5} more` : '';
      return finding(
        meta,
        i === 0 ? 'visit' : `visit:${behaviour}`,
        {
          messageId: 'visitNotInCatalog',
          data: {
            count: `${ofIt.size} product id${ofIt.size === 1 ? '' : 's'}`,
            are: ofIt.size === 1 ? 'is' : 'are',
            siteId: page.siteId,
            ids: `${shown.join(', ')}${more}`,
          },
        },
        [...ofIt.values()].flat(),
        { behaviour },
      );
    });
  },
});
