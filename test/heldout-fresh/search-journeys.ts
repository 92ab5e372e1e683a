// Clean journeys through the search, category and autocomplete controllers: renders (cached, empty, lost
// with a single-result redirect), merchandising redirects, SPA filters, sorts and pages, infinite scroll
// and its backfill, banners, a click before any impression, the dropdown and development mode. Each builder
// reads the flag of the fault to play; null plays the client's own traffic.
import { ORIGIN, type Served } from '../heldout/client';
import { journey, type CleanJourney } from './principles';
import { dataOf, drop, edit, impress, on, reroute, twice } from './tamper';

const BOOTS = ['P101', 'P102', 'P103', 'P104', 'P105', 'P106'];

export const SEARCH_JOURNEYS: CleanJourney[] = [
  journey(
    'serp-browse',
    'render',
    ['search', 'product'],
    'a search page with a header banner: render, tiles and banner impressed, a click, the product page',
    (v, flag) => {
      if (flag === 'attribution-hardcoded')
        edit(
          v,
          () => true,
          (m) => {
            m.body.context.attribution = [{ type: 'email', id: 'spring-sale' }];
          },
        );
      if (flag === 'render-dropped') drop(v, on('search/render'));
      if (flag === 'click-as-banner')
        edit(v, on('search/clickthrough'), (m) => {
          dataOf(m).results = [{ type: 'banner', uid: 'P102' }];
        });
      if (flag === 'double-click') twice(v, on('search/clickthrough'), 250);
      v.load('/search?q=boots');
      const r = v.search({ query: 'boots', results: BOOTS, banners: ['501'] });
      if (flag === 'ssr-foreign-user')
        r.issued.requester = {
          userId: 'ssr-render-node',
          sessionId: 'ssr-render-session',
          pageLoadId: 'ssr-render-pageload',
          pageUrl: `${ORIGIN}/search?q=boots`,
        };
      v.seeBanner(r, '501');
      if (flag === 'banner-slot-name')
        v.enqueue('search', 'impression', {
          responseId: r.id,
          banners: [{ uid: 'header' }],
          results: [],
        });
      v.see(r, ['P101', 'P102', 'P103', 'P104']);
      v.wait(2_500);
      v.click(r, 'P102');
      if (flag === 'spa-pageload-reset') {
        // the SPA router starts a page load of its own on every route change; back on the results the
        // store is still loaded, so nothing is searched or rendered again
        v.spa('/products/P102');
        v.pageLoadId = v.world.id('pl');
        v.productView('P102');
        v.wait(8_000);
        v.spa('/search?q=boots');
        v.pageLoadId = v.world.id('pl');
        v.wait(1_500);
        v.click(r, 'P104');
        return;
      }
      v.wait(60);
      v.load('/products/P102');
      v.productView('P102');
    },
  ),

  journey(
    'serp-filter-back',
    'render',
    ['search'],
    'SPA filter on a search page, then back: the cached first response is rendered and impressed again',
    (v, flag) => {
      if (flag === 'fixed-href-config')
        edit(
          v,
          () => true,
          (m) => {
            m.body.context.pageUrl = `${ORIGIN}/search?q=shirt`;
          },
        );
      v.load('/search?q=shirt');
      const r1 = v.search({
        query: 'shirt',
        results: ['P110', 'P111', 'P112', 'P113', 'P114', 'P115'],
      });
      v.see(r1, ['P110', 'P111', 'P112', 'P113']);
      v.wait(3_000);
      v.spa('/search?q=shirt&filter.color=blue');
      const r2 = v.search({ query: 'shirt', results: ['P111', 'P114'], filtered: true });
      v.see(r2, ['P111', 'P114']);
      v.wait(3_000);
      if (flag === 'stale-tile-click') {
        v.click(r2, 'P110');
        v.wait(2_000);
      }
      if (flag === 'impression-reentry') {
        // scrolled away and back: the integration's own observer impresses the tile again
        impress(v, r2, ['P111']);
        v.wait(2_000);
      }
      if (flag === 'stale-cache') v.wait(6 * 60_000);
      v.spa('/search?q=shirt');
      v.search(r1);
      v.see(r1, ['P110', 'P111']);
      v.wait(2_000);
    },
  ),

  journey(
    'serp-no-results',
    'empty',
    ['search'],
    'a search with no results: its render and nothing else',
    (v, flag) => {
      v.load('/search?q=zzyzx');
      const r = v.search({ query: 'zzyzx', results: [] });
      v.wait(2_000);
      if (flag === 'no-results-popular') {
        // the "popular products" block under the no-results message, tracked as the search's tiles
        impress(v, r, ['P101', 'P102']);
        v.wait(2_000);
      }
    },
  ),

  journey(
    'serp-single-result',
    'redirect',
    ['search', 'product'],
    'a single-result search: its render is queued and lost when the page goes to the product',
    (v, flag) => {
      v.load('/search?q=brass+lamp');
      const r = v.search({ query: 'brass lamp', results: ['P105'] });
      if (flag === 'single-as-merch')
        v.sendNow('search', 'redirect', { responseId: r.id, redirect: `${ORIGIN}/products/P105` });
      v.wait(60);
      v.load('/products/P105');
      v.productView('P105');
    },
  ),

  journey(
    'serp-merch-redirect',
    'redirect',
    ['search', 'category'],
    'a merchandising redirect (redirect beacon, no render), then a category page',
    (v, flag) => {
      if (flag === 'redirect-rewritten')
        edit(v, on('search/redirect'), (m) => {
          dataOf(m).redirect = `${ORIGIN}/en-us/pages/gift-cards?from=search`;
        });
      v.load(
        flag === 'filtered-redirect'
          ? '/search?q=gift+card&filter.brand=acme'
          : '/search?q=gift+card',
      );
      const r = v.search({
        query: 'gift card',
        results: ['P120'],
        redirect: `${ORIGIN}/pages/gift-cards`,
      });
      if (flag === 'filtered-redirect') r.issued.filtered = true;
      if (flag === 'redirect-with-render') {
        // a custom afterSearch shows the results, then redirects when the shopper has seen them
        v.enqueue('search', 'render', { responseId: r.id });
        v.see(r, ['P120']);
        v.wait(1_500);
      }
      v.wait(80);
      v.load('/pages/gift-cards');
      v.wait(5_000);
      v.load('/collections/gifts');
      const c = v.search({ kind: 'category', results: ['P118', 'P119', 'P120'] });
      v.see(c, ['P118', 'P119', 'P120']);
      v.wait(2_000);
    },
  ),

  journey(
    'category-sort',
    'paging',
    ['category', 'product'],
    'a category page, an SPA sort change, a quick add and a click through to the product',
    (v, flag) => {
      let r2 = '';
      if (flag === 'category-on-search') reroute(v, (m) => m.category === 'category', 'search');
      if (flag === 'sort-bypass-render') drop(v, (m) => on('category/render', r2)(m));
      if (flag === 'addtocart-qty-zero')
        edit(v, on('category/addtocart'), (m) => {
          (dataOf(m).results as Array<Record<string, unknown>>)[0]!.qty = 0;
        });
      v.load('/collections/shoes');
      const first = v.search({
        kind: 'category',
        results: ['P101', 'P104', 'P107', 'P110', 'P113', 'P116'],
      });
      v.see(first, ['P101', 'P104', 'P107', 'P110']);
      if (flag === 'sponsored-tile') impress(v, first, ['P120'], { responseId: first.id });
      v.wait(3_000);
      v.spa('/collections/shoes?sort=price_asc');
      const sorted = v.search({
        kind: 'category',
        results: ['P120', 'P107', 'P113', 'P117', 'P104', 'P111'],
      });
      r2 = sorted.id;
      if (flag === 'stale-sort-id')
        impress(v, sorted, ['P120', 'P107', 'P113', 'P117'], { responseId: first.id });
      else v.see(sorted, ['P120', 'P107', 'P113', 'P117']);
      v.wait(2_500);
      v.addToCart(sorted, 'P107');
      v.wait(1_500);
      v.click(sorted, 'P117');
      v.wait(60);
      v.load('/products/P117');
      v.productView('P117');
    },
  ),

  journey(
    'category-infinite',
    'paging',
    ['category', 'product'],
    "infinite scroll on a category page: page 2's render and tiles under its own responseId",
    (v, flag) => {
      let p2 = '';
      if (flag === 'scroll-render-page1')
        edit(
          v,
          (m) => on('category/render', p2)(m),
          (m) => {
            dataOf(m).responseId = p1.id;
          },
        );
      v.load('/collections/tees');
      const p1 = v.search({
        kind: 'category',
        perPage: 6,
        results: ['P101', 'P102', 'P103', 'P104', 'P105', 'P106'],
      });
      v.see(p1, ['P101', 'P102', 'P103', 'P104', 'P105', 'P106']);
      v.wait(4_000);
      const page2 = v.search(
        {
          kind: 'category',
          page: 2,
          perPage: 6,
          results: ['P107', 'P108', 'P109', 'P110', 'P111', 'P112'],
        },
        { infinite: true },
      );
      p2 = page2.id;
      if (flag === 'scroll-tiles-page1-id')
        impress(v, page2, ['P107', 'P108', 'P109'], { responseId: p1.id });
      else v.see(page2, ['P107', 'P108', 'P109']);
      if (flag === 'scroll-reimpress-page1') impress(v, p1, ['P104', 'P105', 'P106']);
      v.wait(3_000);
      v.click(page2, 'P109');
      v.wait(60);
      v.load('/products/P109');
      v.productView('P109');
    },
  ),

  journey(
    'serp-backfill',
    'paging',
    ['search', 'product'],
    "infinite-scroll backfill of three pages: one render with page 1's responseId, page-3 tiles under their own",
    (v, flag) => {
      v.load('/search?q=socks&page=3');
      v.wait(220);
      const pages: Served[] = [];
      for (const [i, results] of [
        ['P101', 'P102', 'P103', 'P104'],
        ['P105', 'P106', 'P107', 'P108'],
        ['P109', 'P110', 'P111', 'P112'],
      ].entries()) {
        pages.push(v.serve({ query: 'socks', page: i + 1, perPage: 4, results }));
        v.wait(40);
      }
      const [b1, b2, b3] = pages as [Served, Served, Served];
      v.enqueue('search', 'render', {
        responseId: flag === 'backfill-render-last' ? b3.id : b1.id,
      });
      v.see(b2, ['P107', 'P108']);
      v.see(b3, ['P109', 'P110', 'P111', 'P112']);
      v.wait(3_000);
      v.click(b3, 'P110');
      v.wait(60);
      v.load('/products/P110');
      v.productView('P110');
    },
  ),

  journey(
    'serp-pagination',
    'paging',
    ['search', 'product'],
    'SPA pagination: page 2 is a new search with its own render and impressions, then a click',
    (v, flag) => {
      if (flag === 'page2-click-page1-id')
        edit(v, on('search/clickthrough'), (m) => {
          dataOf(m).responseId = r1.id;
        });
      v.load('/search?q=jacket');
      const r1 = v.search({
        query: 'jacket',
        perPage: 4,
        results: ['P113', 'P114', 'P115', 'P116'],
      });
      v.see(r1, ['P113', 'P114', 'P115', 'P116']);
      v.wait(3_000);
      v.spa('/search?q=jacket&page=2');
      const r2 = v.search({
        query: 'jacket',
        page: 2,
        perPage: 4,
        results: ['P117', 'P118', 'P119', 'P120'],
      });
      if (flag === 'queue-bypass') v.noQueue = true;
      v.see(r2, ['P117', 'P118', 'P119', 'P120']);
      v.wait(2_500);
      v.click(r2, 'P118');
      v.wait(60);
      v.load('/products/P118');
      v.productView('P118');
    },
  ),

  journey(
    'serp-banners',
    'impressions',
    ['search'],
    'a header banner and an inline banner impressed beside the products, then a click on the header banner',
    (v, flag) => {
      v.load('/search?q=sale');
      const r = v.search({
        query: 'sale',
        results: ['P101', 'P102', 'P103', 'P104', 'P105'],
        banners: ['9001'],
        inline: [{ uid: 'ib-77', index: 2 }],
      });
      v.seeBanner(r, '9001');
      if (flag === 'inline-as-product') {
        v.see(r, ['P101', 'P102', 'P103']);
        v.enqueue('search', 'impression', {
          responseId: r.id,
          results: [{ type: 'product', uid: 'ib-77', parentId: '', sku: '' }],
          banners: [],
        });
      } else v.see(r, ['P101', 'P102', 'ib-77', 'P103']);
      v.wait(3_000);
      if (flag === 'slot-click-as-inline')
        v.sendNow('search', 'clickthrough', {
          responseId: r.id,
          results: [{ type: 'banner', uid: '9001' }],
        });
      else v.clickBanner(r, '9001');
      v.wait(60);
      v.load('/pages/sale');
    },
  ),

  journey(
    'serp-quick-click',
    'clicks',
    ['search', 'product'],
    'a click 0.8 s after the tiles appear: the clickthrough goes without any impression of that tile',
    (v, flag) => {
      v.load('/search?q=hat');
      const r = v.search({ query: 'hat', results: ['P106', 'P107', 'P108', 'P109'] });
      v.see(r, ['P106', 'P107', 'P108', 'P109'], flag === 'impress-on-mount' ? { after: 0 } : {});
      v.wait(800);
      v.click(r, 'P107');
      v.wait(60);
      v.load('/products/P107');
      v.productView('P107');
    },
  ),

  journey(
    'ac-dropdown',
    'autocomplete',
    ['autocomplete', 'search', 'product'],
    'autocomplete as the shopper types, the term submitted to SPA results, later a product clicked in the dropdown',
    (v, flag) => {
      if (flag === 'ac-click-on-search') reroute(v, on('autocomplete/clickthrough'), 'search');
      v.load('/');
      if (flag === 'trending-on-ac') {
        // the dropdown's "trending" products come from a search request the integration makes itself
        const trending = v.serve({ kind: 'search', query: '', results: ['P118', 'P119'] });
        impress(v, trending, ['P118', 'P119'], { category: 'autocomplete' });
        v.wait(1_500);
      }
      v.autocomplete('bo', ['P101', 'P102', 'P103']);
      v.wait(400);
      const a2 = v.autocomplete('boo', ['P101', 'P104']);
      v.see(a2, ['P101', 'P104']);
      v.wait(1_500);
      if (flag === 'ac-render-repeat') {
        // the dropdown closed and focused again: the integration renders it once more
        v.enqueue('autocomplete', 'render', { responseId: a2.id });
        v.wait(1_000);
      }
      v.spa('/search?q=boo');
      if (flag === 'ac-id-on-search') {
        // the SPA shows the dropdown's own response as the results page
        v.enqueue('search', 'render', { responseId: a2.id });
        impress(v, a2, ['P101', 'P104'], { category: 'search' });
        v.wait(2_500);
        v.sendNow('search', 'clickthrough', { responseId: a2.id, results: [v.item(a2, 'P104')] });
      } else {
        const r = v.search({ query: 'boo', results: ['P101', 'P104', 'P105'] });
        v.see(r, ['P101', 'P104', 'P105']);
        v.wait(2_500);
        v.click(r, 'P104');
      }
      v.wait(60);
      v.load('/products/P104');
      v.productView('P104');
      v.wait(4_000);
      const a3 = v.autocomplete('jack', ['P113', 'P115']);
      v.see(a3, ['P113', 'P115']);
      v.wait(2_000);
      v.click(a3, 'P115');
      v.wait(60);
      v.load('/products/P115');
      v.productView('P115');
    },
  ),

  journey(
    'ac-redirect',
    'autocomplete',
    ['product', 'autocomplete'],
    'on a product page the dropdown answers a term that has a merchandising redirect; submitting it redirects',
    (v, flag) => {
      if (flag === 'ac-redirect-wrong-url')
        edit(v, on('autocomplete/redirect'), (m) => {
          dataOf(m).redirect = `${ORIGIN}/search?q=gift`;
        });
      if (flag === 'ac-redirect-on-search') reroute(v, on('autocomplete/redirect'), 'search');
      v.load('/products/P110');
      v.productView('P110');
      v.wait(3_000);
      const a = v.search(
        {
          kind: 'autocomplete',
          query: 'gift',
          results: ['P120'],
          redirect: `${ORIGIN}/pages/gift-cards`,
        },
        { latency: 120 },
      );
      v.see(a, ['P120']);
      v.wait(1_500);
      v.acRedirect(a, `${ORIGIN}/pages/gift-cards`);
      v.wait(50);
      v.load('/pages/gift-cards');
    },
  ),

  journey(
    'ac-no-results',
    'empty',
    ['autocomplete'],
    'the dropdown answers a term with nothing: its render only',
    (v) => {
      v.load('/');
      v.autocomplete('qxq', []);
      v.wait(2_000);
    },
  ),

  journey(
    'category-empty',
    'empty',
    ['category'],
    'an empty collection: the category render and nothing else',
    (v, flag) => {
      if (flag === 'empty-render-skipped') drop(v, on('category/render'));
      v.load('/collections/clearance');
      v.search({ kind: 'category', results: [] });
      v.wait(2_000);
    },
  ),

  journey(
    'serp-reload',
    'page-load',
    ['search'],
    'a search page reloaded after 3 s: the same pageLoadId, and the cached response rendered again',
    (v, flag) => {
      if (flag === 'canonical-pageurl')
        edit(
          v,
          () => true,
          (m) => {
            m.body.context.pageUrl = `${ORIGIN}/search`;
          },
        );
      v.load('/search?q=scarf');
      const r = v.search({ query: 'scarf', results: ['P111', 'P112', 'P113'] });
      v.see(r, ['P111', 'P112', 'P113']);
      v.wait(3_000);
      v.load('/search?q=scarf');
      v.search(r);
      v.see(r, ['P111', 'P112']);
      v.wait(2_000);
    },
  ),

  journey(
    'dev-search',
    'dev-test',
    ['search', 'product'],
    'development mode: test searches, a filter and back (the cache is off: a new responseId), a click',
    (v, flag) => {
      if (flag === 'dev-prod-search') v.test = false;
      if (flag === 'dev-click-without-dev')
        edit(v, on('search/clickthrough'), (m) => {
          delete m.body.context.dev;
        });
      v.load('/search?q=boots&dev');
      const r1 = v.search({ query: 'boots', results: BOOTS });
      v.see(r1, ['P101', 'P102', 'P103']);
      v.wait(3_000);
      v.spa('/search?q=boots&dev&filter.size=9');
      const r2 = v.search({ query: 'boots', results: ['P102', 'P105'], filtered: true });
      v.see(r2, ['P102', 'P105']);
      v.wait(3_000);
      v.spa('/search?q=boots&dev');
      const r3 =
        flag === 'dev-cached-rerender'
          ? v.search(r1)
          : v.search({ query: 'boots', results: BOOTS });
      v.see(r3, ['P101', 'P102', 'P103']);
      v.wait(2_500);
      v.click(r3, 'P102');
      v.wait(60);
      v.load('/products/P102?dev');
      v.productView('P102');
    },
    { dev: true },
  ),

  journey(
    'prod-category',
    'dev-test',
    ['category', 'product'],
    'a production category page: render, impressions, a quick add and a click',
    (v, flag) => {
      if (flag === 'prod-test-search') v.test = true;
      v.load('/collections/lamps');
      const c = v.search({ kind: 'category', results: ['P105', 'P109', 'P114', 'P119'] });
      v.see(c, ['P105', 'P109', 'P114', 'P119']);
      v.wait(2_500);
      v.addToCart(c, 'P114');
      v.wait(1_500);
      v.click(c, 'P119');
      v.wait(60);
      v.load('/products/P119');
      v.productView('P119');
    },
  ),
];
