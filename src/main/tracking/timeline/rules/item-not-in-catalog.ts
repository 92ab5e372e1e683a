// `item-not-in-catalog` (warning): for a site with an indexed catalog that does not get its searches from the
// sandbox, a product uid or parentId that the catalog does not hold. Warning: the catalog may be older.
import { finding, plural, type ResponseRule } from './types';
import { Offenders, itemEvents, itemType } from './provenance';

export const itemNotInCatalog: ResponseRule = {
  id: 'item-not-in-catalog',
  scope: 'response',
  check(r, ctx) {
    const p = ctx.provenance;
    const site = p?.site(ctx.page.siteId);
    if (!p || !site || site.companion || !site.catalogCheck) return [];
    const catalog = p.catalog(ctx.page.siteId);
    if (!catalog) return [];
    const bad = new Offenders();
    const note = (id: string, what: string) => {
      const uid = catalog.uidOfSku(id);
      return uid !== undefined ? `${what}; it is the sku of product "${uid}": send its uid` : what;
    };
    for (const e of itemEvents(r)) {
      for (const item of e.results) {
        if (itemType(item) === 'banner') continue;
        if (!catalog.has(item.uid)) bad.add(item.uid, e.id, note(item.uid, 'uid'));
        const pid = item.parentId ?? '';
        if (pid !== '' && pid !== item.uid && !catalog.has(pid))
          bad.add(pid, e.id, note(pid, `parentId of "${item.uid}"`));
      }
    }
    if (bad.size === 0) return [];
    const message =
      `${plural(bad.size, 'id')} reported with responseId "${r.responseId}" ${bad.size === 1 ? 'is' : 'are'} not in site ${ctx.page.siteId}'s indexed catalog: ${bad.describe()}. ` +
      `uid and parentId are the ids of the feed's products (the id column; parentId a variant group id or the product's own id). ` +
      `Fix: send the product ids the search response gave; if the products are new, index the feed again (the catalog is the last successful index). ` +
      `To turn this check off for the site, set search.catalogCheck: false on its account.`;
    return [
      finding('item-not-in-catalog', 'warning', r.responseId, message, bad.eventIds(), {
        responseId: r.responseId,
      }),
    ];
  },
};
