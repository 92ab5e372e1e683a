// A shopper's visit across every kind a storefront tracks, driven through the provider's own client
// (@athoscommerce/beacon) the way the Snap controllers call it (as their source shows): a category page with the
// header's autocomplete, a search page reached from it, and a product page with a recommendations widget and
// a bundle. One session. `plant` adds one fault of a kind, so the same journey proves each rule fires.
import { Beacon } from '@athoscommerce/beacon';
import type { capturingFetch } from './timeline-beacon';
import { BEACON_ORIGIN } from './timeline-beacon';

export type KindFault =
  | 'category-click-not-impressed'
  | 'autocomplete-repeated-render'
  | 'autocomplete-id-on-search'
  | 'recommendations-wrong-tag'
  | 'recommendations-id-on-category'
  | 'bundles-missing-render';

const product = (uid: string) => ({
  type: 'product' as const,
  uid,
  parentId: uid,
  sku: `SKU-${uid}`,
});
const impression = (responseId: string, uids: string[]) => ({
  data: { responseId, results: uids.map(product), banners: [] },
});
const widgetImpression = (tag: string, responseId: string, uids: string[]) => ({
  data: { tag, ...impression(responseId, uids).data },
});

export const KIND_IDS = {
  category: 'c0000000-0000-4000-8000-00000000ca01',
  ac1: 'c0000000-0000-4000-8000-00000000ac01',
  ac2: 'c0000000-0000-4000-8000-00000000ac02',
  search: 'c0000000-0000-4000-8000-00000000se01',
  recs: 'c0000000-0000-4000-8000-00000000re01',
  bundle: 'c0000000-0000-4000-8000-00000000bu01',
};

export async function kindsVisit(
  fetchApi: ReturnType<typeof capturingFetch>,
  advance: (ms: number) => Promise<void>,
  options: { origin?: string; plant?: KindFault } = {},
): Promise<void> {
  const plant = options.plant;
  const page = (href: string) => {
    const b = new Beacon(
      { siteId: 'demo42' },
      {
        mode: 'development',
        href,
        apis: { fetch: fetchApi as unknown as typeof fetch },
        requesters: {
          beacon: { origin: options.origin ?? BEACON_ORIGIN },
          personalization: { origin: 'https://demo42.a.searchspring.io' },
        },
      },
    );
    // one shopper: the browser keeps these in cookies across page loads
    b.updateContext('sessionId', 'visit-session-1');
    b.updateContext('userId', 'visit-user-1');
    return b;
  };
  const id = KIND_IDS;

  // 1. a category page (the search controller with page type category), with the header's autocomplete
  const cat = page('http://localhost:3000/collections/jackets');
  cat.events.category.render({ data: { responseId: id.category } });
  await advance(1100);
  cat.events.category.impression(impression(id.category, ['P200', 'P201']));
  await advance(400);
  if (plant === 'category-click-not-impressed')
    cat.events.category.clickThrough({
      data: { responseId: id.category, results: [product('P999')] },
    });
  cat.events.category.addToCart({
    data: {
      responseId: id.category,
      results: [{ parentId: 'P201', uid: 'P201', sku: 'SKU-P201', qty: 1, price: 80 }],
    },
  });
  await advance(1000);
  if (plant === 'recommendations-id-on-category')
    cat.events.category.impression(impression(id.recs, ['P300']));
  await advance(500);
  // typing "ja", then "jac", then back to "ja": each response is rendered, the earlier one again
  cat.events.autocomplete.render({ data: { responseId: id.ac1 } });
  await advance(1100);
  cat.events.autocomplete.impression(impression(id.ac1, ['P200']));
  await advance(400);
  if (plant === 'autocomplete-repeated-render') {
    // the same term again while its response is shown: the controller sends no render (ad0d632)
    cat.events.autocomplete.render({ data: { responseId: id.ac1 } });
    await advance(400);
  }
  cat.events.autocomplete.render({ data: { responseId: id.ac2 } });
  await advance(1100);
  cat.events.autocomplete.impression(impression(id.ac2, ['P200', 'P202']));
  await advance(500);
  cat.events.autocomplete.render({ data: { responseId: id.ac1 } });
  await advance(1100);
  cat.events.autocomplete.impression(impression(id.ac1, ['P200']));
  await advance(500);
  // the shopper submits the term: the search page loads
  await advance(300);

  // 2. the search page
  const search = page('http://localhost:3000/search?q=ja');
  const searchId = plant === 'autocomplete-id-on-search' ? id.ac1 : id.search;
  search.events.search.render({ data: { responseId: searchId } });
  await advance(1100);
  search.events.search.impression(impression(searchId, ['P200', 'P202']));
  await advance(600);
  search.events.search.clickThrough({ data: { responseId: searchId, results: [product('P200')] } });
  await advance(800);

  // 3. the product page: a recommendations widget and a bundle, each with its profile tag
  const pdp = page('http://localhost:3000/products/P200');
  pdp.events.recommendations.render({ data: { tag: 'similar', responseId: id.recs } });
  if (plant !== 'bundles-missing-render')
    pdp.events.bundles.render({ data: { tag: 'bundle-pdp', responseId: id.bundle } });
  await advance(1200);
  pdp.events.recommendations.impression(widgetImpression('similar', id.recs, ['P300', 'P301']));
  pdp.events.bundles.impression(widgetImpression('bundle-pdp', id.bundle, ['P400', 'P401']));
  await advance(700);
  pdp.events.bundles.addToCart({
    data: {
      tag: 'bundle-pdp',
      responseId: id.bundle,
      results: [{ parentId: 'P401', uid: 'P401', sku: 'SKU-P401', qty: 1, price: 12 }],
    },
  });
  await advance(400);
  const clickTag = plant === 'recommendations-wrong-tag' ? 'trending' : 'similar';
  pdp.events.recommendations.clickThrough({
    data: { tag: clickTag, responseId: id.recs, results: [product('P301')] },
  });
  await advance(1000);
}
