// `pageview-sku-mismatch` (warning): a product/pageview whose sku the site's indexed catalog gives to
// another product than the one its uid names (nor that product's parent or one of its variants); without a
// catalog, one that the search and recommend responses the companion issued served for another product.
//
// Why it is certain: the provider's tracker builds the product page's item from one product of the page's
// product script (T track.product.view: `uid = childUid || uid`, `sku = childSku || sku`, `parentId =
// parentId || uid`), so uid and sku describe one product, or a variant and its parent: a sku that belongs
// to another product was taken from elsewhere (the variant picker's previous selection, a neighbouring
// item). What it exempts: the uid's own sku, its parent's (a variant given by childUid alone keeps the
// parent's sku), a variant's sku under the parent's uid (a variant given by childSku alone), a sku the
// catalog (or the issued responses) does not know, sites with neither, and a uid that is itself the sku
// of the product the sku names, which the catalog does not hold as an id (the sku sent as uid as well):
// `item-not-in-catalog` reports that uid and names the product whose uid to send, one finding for one fault. Warning: the catalog is the
// last successful index, which may be older than the storefront.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { skuReading, variantOf } from './utils/sku-owner';

const meta: RuleMeta<'visit'> = {
  id: 'pageview-sku-mismatch',
  judges: ['visit'],
  title: 'Product page sku of another product',
  description:
    'A product/pageview whose sku the indexed catalog (or, without one, the responses the companion search issued) gives to another product than its uid (nor to the uid’s parent or variants).',
  expects:
    'uid and sku of a product page view describe one product or variant (uid = childUid || uid, sku = childSku || sku).',
  appliesTo: ['product'],
  guards: ['product.pageview'],
  defaultSeverity: 'warning',
  messages: {
    otherProduct:
      'product/pageview {{eventId}} names uid "{{uid}}" with sku "{{sku}}", which {{where}} {{give}} to product "{{owner}}"{{variantOf}}. The provider\'s tracker takes uid and sku from one product of the page (the variant selected: childUid and childSku), so the product page view is reported for two products at once.',
  },
  fix: 'Give the product script the uid and sku of the same product, or of the variant selected (childUid and childSku together).',
  listens: ['product/pageview'],
  needs: { visit: true, catalog: true, provenance: true },
  judgesOnlyWith: ['catalog', 'issued'],
};

export const pageviewSkuMismatch = defineRule({
  meta,
  visit(_page, ctx) {
    const skus = skuReading(ctx);
    if (!skus) return [];
    const out = [];
    for (const v of ctx.accepted) {
      if (v.endpoint !== 'product/pageview') continue;
      const item = v.items[0];
      const other = item && skus.other(item);
      if (!item || !other) continue;
      out.push(
        finding(
          meta,
          v.base.id,
          {
            messageId: 'otherProduct',
            data: {
              eventId: v.base.id,
              uid: item.uid,
              sku: item.sku,
              where: skus.where,
              give: skus.give,
              owner: other.owner,
              variantOf: variantOf(other),
            },
          },
          [v.base.id],
        ),
      );
    }
    return out;
  },
});
