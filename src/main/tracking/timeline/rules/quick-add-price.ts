// `quick-add-price` (warning): a quick add (search, category, autocomplete, recommendations or bundles
// addtocart) whose item's price is not a price the response it names served for that product.
//
// Why it is certain: the provider's controllers build a quick add's item from the result in their store,
// as the response delivered it: SC track.product.addToCart sends `price: Number(core.price) || 0` of the
// result's display (snap 1.11: `result.display.mappings.core`, the selected variant's fields merged over the
// product's; older releases `result.mappings.core`, the product's own), and so do the autocomplete and
// recommendation controllers. So the price sent is the product's or one of its variants' as the response
// served it: never a compare-at price, a line total, a price the page computed (a converted currency, a
// discount) or 0 while the response priced the product. The provider reads it as the add's value.
// What it exempts: a response the sandbox did not issue, or issued without prices (nothing certain to
// compare with: the catalog may have moved since), an item whose uid the response did not serve
// (item-not-in-response's), banners, a price within half a cent of a served one (the product's, or any of
// its variants', either way round: the variant picked may lack a uid of its own and keep the product's),
// and a price about 100 times off (or a hundredth: price-unit-mismatch's, cents against units). Not told
// apart: a storefront whose middleware converts the results' prices into the shopper's currency (the
// client then sends the converted price); the message says so, with the site's switch (accounts[].rules).
import { judgedIn, type RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { RESPONSE_KINDS } from '../../../../shared/kinds';
import type { IssuedResponse } from '../../../search/responses';
import { unitRatio } from '../../visits/prices';
import { Offenders, issuedFor, itemType, servedResult } from './utils/provenance';

const meta: RuleMeta<'response'> = {
  id: 'quick-add-price',
  judges: ['response'],
  title: 'Quick add at a price the response did not serve',
  description:
    'An addtocart item priced other than the response it names served the product (or one of its variants): a compare-at price, a line total, a converted or discounted price, or 0 for a priced product. Not for responses the sandbox did not issue or kept without prices, items the response did not serve, differences under half a cent, or a factor of about 100 (price-unit-mismatch’s).',
  expects:
    'A quick add’s price is the result’s own as the response served it (the selected variant’s when one is picked): the controllers send `Number(core.price) || 0`.',
  // each quick add is its controller's: the search page's, the category page's, the dropdown's, a widget's
  ...judgedIn(RESPONSE_KINDS, ['search.addtocart']),
  defaultSeverity: 'warning',
  messages: {
    otherPrice:
      "{{count}} added with responseId \"{{responseId}}\" {{are}} priced other than the response served {{them}}: {{offenders}}. The provider's client sends a quick add's price as the result's own, as the response gave it (`Number(core.price) || 0`, the selected variant's when one is picked), so the add's value in the provider's reports is not the product's price.{{above}} A storefront that converts the results' prices into the shopper's currency in the page (a middleware that rewrites them) sends converted prices on purpose: then nothing is wrong, and the site's rule can be turned off (accounts[].rules).",
  },
  fixes: {
    otherPrice:
      'send the price of the result as the search response gave it (its `price` field, or the selected variant’s): not the compare-at price, the line total or a price the page computed.',
  },
  fix: 'Send the price of the result as the search response gave it (its `price` field, or the selected variant’s).',
  listens: ['addtocart'],
  needs: { provenance: true },
  judgesOnlyWith: ['issued'],
};

/** Half a cent: prices served and sent as decimals of the currency unit agree to the cent. */
const TOLERANCE = 0.005;

/**
 * The prices the response served for a uid's product: its own and its variants' (a variant's uid: its own
 * and its product's); undefined when the response did not serve the uid or priced none of them.
 */
function servedPrices(issued: IssuedResponse, uid: string): number[] | undefined {
  const product = servedResult(issued, uid)?.result;
  if (!product) return undefined;
  const prices = [product.price, ...product.children.map((c) => c.price)].filter(
    (p): p is number => p !== undefined && p > 0,
  );
  return prices.length > 0 ? prices : undefined;
}

export const quickAddPrice = defineRule({
  meta,
  response(r, ctx) {
    if (r.facts.carts.length === 0) return [];
    const issued = issuedFor(r, ctx);
    if (!issued) return [];
    const bad = new Offenders();
    let above = false;
    for (const e of r.facts.carts)
      for (const [i, item] of e.results.entries()) {
        if (itemType(item) === 'banner') continue;
        const served = servedPrices(issued, item.uid);
        if (!served) continue;
        const price = e.prices?.[i] ?? 0;
        if (served.some((p) => Math.abs(p - price) < TOLERANCE)) continue;
        // cents against units: price-unit-mismatch names it, with its own fix
        if (served.some((p) => unitRatio(price, p) !== null)) continue;
        if (price > Math.max(...served)) above = true;
        const shown = served.length === 1 ? `${served[0]}` : `one of ${served.join(', ')}`;
        bad.add(item.uid, e.id, `at ${price} where the response served it at ${shown}`);
      }
    if (bad.size === 0) return [];
    return [
      bad.finding(meta, r.responseId, {
        messageId: 'otherPrice',
        noun: 'item',
        words: { are: bad.size === 1 ? 'is' : 'are', them: bad.size === 1 ? 'it' : 'them' },
        after: {
          above: above
            ? ' A price above every one the response served is most often the compare-at (list, msrp) price mapped in its place.'
            : '',
        },
        // the judge names each other kind's own controller's behaviour
        behaviour: 'search.addtocart',
      }),
    ];
  },
});
