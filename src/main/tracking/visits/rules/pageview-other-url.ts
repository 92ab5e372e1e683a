// `pageview-other-url` (warning): a product/pageview naming another product than the one the site's
// catalog places at the page's URL.
//
// Why it is certain enough to warn: the tracker reads the product view from the page's own
// `athos/track/product/view` script (T track.product.view) and sends it with pageUrl = the page's href
// when the event is created (B getContext). A product page is the product whose feed row links to its
// path, so a view whose ids (uid, parentId, or the product of its sku) are none of that product's (nor of
// its variant group's) names another product: a template that renders the wrong product variable, a
// script left over from the previous route of an SPA. A view whose ids the catalog does not hold at all,
// on the catalog's page of a product, is that product's page sending ids of its own making (the URL's
// handle, a variant title): its fix is the product's ids, not indexing the feed again (item-not-in-catalog
// names the same ids and follows from it). What it exempts: pages whose path is no product's URL in the
// catalog (any other page, or URLs the storefront builds differently from the feed), a view with no id,
// sites without a catalog (an export carries none: `check` stays silent).
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { productIds } from '../events';

const meta: RuleMeta<'visit'> = {
  id: 'pageview-other-url',
  judges: ['visit'],
  title: 'Product view of another product than the page’s',
  description:
    'A product/pageview whose ids (uid, parentId, sku) are none of the product (or variant group) whose URL in the site’s indexed catalog has the page’s path, whether they name another product of the catalog or none.',
  expects:
    'A product page sends the view of the product it shows: the product whose feed URL is the page’s.',
  appliesTo: ['product'],
  guards: ['product.pageview'],
  defaultSeverity: 'warning',
  messages: {
    otherProduct:
      "product/pageview {{eventId}} names {{viewed}}, but this page ({{pageUrl}}) is the catalog's page of {{atPage}}. The tracker sends the view of the product script the page renders, so the view (and the personalization and recommendations read from it) goes to another product than the one shown.",
    unknownAtPage:
      "product/pageview {{eventId}} names {{viewed}}, which the catalog does not hold, but this page ({{pageUrl}}) is the catalog's page of {{atPage}}. The page shows a product the feed knows and sends ids of its own making (the URL's handle, a title or a platform id instead of the feed's id column), so the view is credited to no product.",
  },
  fixes: {
    otherProduct:
      "render the product page's tracking script with the ids of the product the page shows (check the template's product variable, or the script an SPA route leaves behind).",
    unknownAtPage:
      "render the product page's tracking script with the feed's ids of the product the page shows ({{atPage}}): the id column as uid and parentId, not the URL handle.",
  },
  fix: 'Render the product page’s tracking script with the ids of the product the page shows.',
  listens: ['product/pageview'],
  needs: { catalog: true },
  judgesOnlyWith: ['catalog'],
};

export const pageviewOtherUrl = defineRule({
  meta,
  visit(_page, { accepted, catalog }) {
    if (!catalog?.idsAt) return [];
    const out = [];
    for (const v of accepted) {
      if (v.endpoint !== 'product/pageview') continue;
      const at = catalog.idsAt(v.base.pageUrl);
      if (!at) continue;
      const ids = v.items.flatMap(productIds);
      const own = ids.map((id) => catalog.uidOfSku(id)).filter((id) => id !== undefined);
      const viewed = [...ids, ...own];
      if (viewed.length === 0 || viewed.some((id) => at.has(id))) continue;
      const known = viewed.some((id) => catalog.has(id));
      out.push(
        finding(
          meta,
          v.base.id,
          {
            messageId: known ? 'otherProduct' : 'unknownAtPage',
            data: {
              eventId: v.base.id,
              viewed: ids.map((id) => `"${id}"`).join(' / '),
              pageUrl: v.base.pageUrl,
              atPage: describeIds(at),
            },
          },
          [v.base.id],
        ),
      );
    }
    return out;
  },
});

/** `"P200"`, or `"P200" (and 3 more ids of its product)` for a product with variants */
function describeIds(ids: ReadonlySet<string>): string {
  const [first] = ids;
  const more = ids.size - 1;
  return more === 0
    ? `"${first}"`
    : `"${first}" (and ${more} more id${more === 1 ? '' : 's'} of its product)`;
}
