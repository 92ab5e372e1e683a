// The blind held-out set: storefront journeys written only from what the provider's client is known to send
// and the source of @athoscommerce/beacon and the Snap controllers, with no knowledge of the
// sandbox's timeline rules or of the first held-out set. Each clean journey is traffic the real client
// produces; each fault is one flag of a clean journey's builder (its twin) that makes traffic the real client
// cannot produce, with the client fact it contradicts.
import {
  PAGE_KINDS,
  type PageKind,
  type PagedClean,
  type PagedFault,
} from '../helpers/heldout-set';
import {
  IMPRESSION_DELAY,
  ORIGIN,
  Visit,
  World,
  line,
  product,
  type Message,
} from '../heldout/client';

export const PRINCIPLES = [
  'sequence',
  'once',
  'response-link',
  'endpoint',
  'timing',
  'page-context',
  'identity',
  'cart-order',
  'mode',
  'empty',
] as const;
export type Principle = (typeof PRINCIPLES)[number];

export { PAGE_KINDS, type PageKind };

export type CleanJourney = PagedClean<Principle>;

export type Fault = PagedFault<Principle>;

// ----- small helpers the faults use: traffic the controllers never produce -----

/** A product tile as the controllers send it in impressions and clickthroughs. */
function tile(uid: string): Record<string, unknown> {
  const prod = product(uid);
  return { type: 'product', uid: prod.uid, parentId: '', sku: prod.sku };
}

/** Impressions queued now for `uids` under `responseId`, with none of the controllers' once-flags. */
function impressRaw(v: Visit, kind: string, responseId: string, uids: string[]): void {
  for (const uid of uids)
    v.enqueue(kind, 'impression', {
      responseId,
      results: [tile(uid)],
      banners: [],
    });
}

/** A transform that drops the beacons `drop` matches. */
function dropIf(drop: (m: Message) => boolean): (m: Message) => Message | null {
  return (m) => (drop(m) ? null : m);
}

function dataOf(m: Message): Record<string, unknown> {
  return m.body.data ?? {};
}

const SHIRTS = ['P101', 'P102', 'P103', 'P104', 'P105', 'P106', 'P107', 'P108'];

// ----- clean journeys -----

export const CLEAN: CleanJourney[] = [
  {
    id: 'search-browse',
    principle: 'sequence',
    pages: ['search', 'product'],
    description:
      'a search page: render, the first row impressed, a scroll impresses the second row, a click, the product page',
    build(v, flag) {
      const on = (f: string) => flag === f;
      if (on('test-in-production')) v.test = true;
      if (on('impression-unbatched')) v.noQueue = true;
      if (on('session-per-event'))
        v.transforms.push((m) => ({
          ...m,
          body: { ...m.body, context: { ...m.body.context, sessionId: v.world.id('session') } },
        }));
      if (on('page-mixed-mode'))
        v.transforms.push((m) =>
          m.event === 'impression'
            ? { ...m, body: { ...m.body, context: { ...m.body.context, dev: true } } }
            : m,
        );
      v.load('/search?q=shirt');
      const r = v.search(
        { query: 'shirt', results: SHIRTS },
        on('render-late') ? { renderAfter: 2_500 } : {},
      );
      if (on('render-missing')) v.transforms.push(dropIf((m) => m.event === 'render'));
      if (on('render-every-tile'))
        for (let i = 0; i < 4; i++) v.enqueue('search', 'render', { responseId: r.id });
      if (on('impression-all-at-render')) v.see(r, SHIRTS, { after: 0 });
      else if (on('impression-early')) v.see(r, SHIRTS.slice(0, 4), { after: 150 });
      else v.see(r, SHIRTS.slice(0, 4));
      v.wait(4_000);
      v.see(r, SHIRTS.slice(4));
      v.wait(3_000);
      if (on('impression-repeat-on-reenter')) {
        // scrolled back up: the first row re-enters the viewport
        v.wait(IMPRESSION_DELAY);
        impressRaw(v, 'search', r.id, SHIRTS.slice(0, 4));
        v.wait(2_000);
      }
      if (on('click-sku-as-uid'))
        v.transforms.push((m) => {
          if (m.event !== 'clickthrough') return m;
          const results = dataOf(m).results as Array<Record<string, unknown>>;
          return {
            ...m,
            body: {
              ...m.body,
              data: { ...dataOf(m), results: results.map((x) => ({ ...x, uid: x.sku })) },
            },
          };
        });
      if (on('click-not-served'))
        // a "staff pick" tile the template adds to the grid, tracked with the search's responseId
        v.sendNow('search', 'clickthrough', { responseId: r.id, results: [tile('P120')] });
      else v.click(r, 'P105');
      if (on('click-double')) v.wait(250).click(r, 'P105');
      v.wait(200);
      if (on('new-user-every-load')) v.userId = v.world.id('user');
      if (on('new-session-every-load')) v.sessionId = v.world.id('session');
      const searchPageLoad = v.pageLoadId;
      v.load(on('click-not-served') ? '/product/p120' : '/product/p105');
      if (on('pageloadid-reused')) v.pageLoadId = searchPageLoad;
      v.productView(on('click-not-served') ? 'P120' : 'P105');
    },
  },
  {
    id: 'search-quick-click',
    principle: 'timing',
    pages: ['search', 'product'],
    description:
      'a click 700 ms after the tiles appear: the clickthrough goes out, the tile never gets its impression (the page leaves first)',
    build(v, flag) {
      v.load('/search?q=mug');
      const r = v.search({ query: 'mug', results: ['P104', 'P113', 'P117', 'P120'] });
      v.see(r, ['P104', 'P113', 'P117', 'P120']);
      v.wait(700);
      if (flag === 'click-with-impression')
        // the integration "fixes" the missing impression by sending one with the click
        v.emit('search', 'impression', { responseId: r.id, results: [tile('P113')], banners: [] });
      v.click(r, 'P113');
      v.wait(150);
      v.load('/product/p113');
      v.productView('P113');
    },
  },
  {
    id: 'search-single-result',
    principle: 'sequence',
    pages: ['search', 'product'],
    description:
      'a search with one result redirects to the product: the queued render is lost with the page',
    build(v, flag) {
      v.load('/search?q=linen+apron');
      const r = v.search({ query: 'linen apron', results: ['P110'] });
      v.wait(80);
      if (flag === 'single-result-fake-click')
        v.sendNow('search', 'clickthrough', { responseId: r.id, results: [tile('P110')] });
      v.load('/product/p110');
      v.productView('P110');
    },
  },
  {
    id: 'search-empty',
    principle: 'empty',
    pages: ['search'],
    description:
      'a search with no results is rendered and impresses nothing; the shopper corrects the query (SPA) and gets results',
    build(v, flag) {
      v.load('/search?q=xyzzy');
      const r = v.search({ query: 'xyzzy', results: [] });
      if (flag === 'empty-no-render')
        v.transforms.push(dropIf((m) => m.event === 'render' && dataOf(m).responseId === r.id));
      if (flag === 'empty-impressions') {
        // the template's "popular products" fallback, tracked under the empty response
        v.wait(IMPRESSION_DELAY + 20);
        impressRaw(v, 'search', r.id, ['P111', 'P112', 'P114']);
      }
      v.wait(3_000);
      v.spa('/search?q=shirt');
      const r2 = v.search({ query: 'shirt', results: SHIRTS.slice(0, 4) });
      v.see(r2, SHIRTS.slice(0, 4));
    },
  },
  {
    id: 'search-cached-back',
    principle: 'once',
    pages: ['search', 'product'],
    description:
      'production: back from a product page, the client cache answers with the same responseId, rendered and impressed again',
    build(v, flag) {
      v.load('/search?q=shirt');
      const r = v.search({ query: 'shirt', results: SHIRTS.slice(0, 6) });
      v.see(r, SHIRTS.slice(0, 4));
      v.wait(2_500);
      v.click(r, 'P102');
      v.wait(150);
      v.load('/product/p102');
      v.productView('P102');
      v.wait(20_000);
      if (flag === 'cached-no-render') v.transforms.push(dropIf((m) => m.event === 'render'));
      v.load('/search?q=shirt');
      v.search(r);
      v.see(r, SHIRTS.slice(0, 4));
    },
  },
  {
    id: 'search-spa-filter',
    principle: 'page-context',
    pages: ['search', 'product'],
    description:
      'an SPA search page: a filter, then page 2, each a new search with its own responseId on the same pageLoadId',
    build(v, flag) {
      const on = (f: string) => flag === f;
      v.load('/search?q=shirt');
      const first = v.href;
      const loadedAt = v.context().timestamp;
      if (on('timestamp-page-load'))
        v.transforms.push((m) => ({
          ...m,
          body: { ...m.body, context: { ...m.body.context, timestamp: loadedAt } },
        }));
      if (on('spa-stale-pageurl'))
        v.transforms.push((m) => ({
          ...m,
          body: { ...m.body, context: { ...m.body.context, pageUrl: first } },
        }));
      const r1 = v.search({ query: 'shirt', results: SHIRTS.slice(0, 4) });
      v.see(r1, SHIRTS.slice(0, 4));
      v.wait(2_500);
      if (on('spa-no-render-on-filter'))
        v.transforms.push(dropIf((m) => m.event === 'render' && dataOf(m).responseId !== r1.id));
      v.spa('/search?q=shirt&filter.color=blue');
      if (on('spa-new-pageloadid')) v.pageLoadId = v.world.id('pl');
      const r2 = v.search({ query: 'shirt', results: ['P109', 'P110', 'P111', 'P112'] });
      if (on('spa-stale-responseid')) {
        v.wait(IMPRESSION_DELAY + 20);
        impressRaw(v, 'search', r1.id, ['P109', 'P110', 'P111', 'P112']);
      } else v.see(r2, ['P109', 'P110', 'P111', 'P112']);
      v.wait(2_500);
      v.spa('/search?q=shirt&filter.color=blue&page=2');
      if (on('spa-new-pageloadid')) v.pageLoadId = v.world.id('pl');
      const r3 = v.search({ query: 'shirt', page: 2, results: ['P113', 'P114', 'P115'] });
      v.see(r3, ['P113', 'P114', 'P115']);
      v.wait(2_500);
      v.click(r3, 'P114');
      v.wait(150);
      v.load('/product/p114');
      v.productView('P114');
    },
  },
  {
    id: 'search-infinite',
    principle: 'response-link',
    pages: ['search'],
    description:
      "infinite scroll: page 2's render and its tiles' impressions carry page 2's responseId; page-1 tiles are not re-sent",
    build(v, flag) {
      v.load('/search?q=shirt');
      const page1 = ['P101', 'P102', 'P103', 'P104', 'P105', 'P106'];
      const page2 = ['P107', 'P108', 'P109', 'P110', 'P111', 'P112'];
      const r1 = v.search({ query: 'shirt', perPage: 6, results: page1 });
      v.see(r1, page1);
      v.wait(3_000);
      if (flag === 'infinite-no-render')
        v.transforms.push(dropIf((m) => m.event === 'render' && dataOf(m).responseId !== r1.id));
      const r2 = v.search(
        { query: 'shirt', page: 2, perPage: 6, results: page2 },
        { infinite: true },
      );
      if (flag === 'infinite-reimpress-page1') {
        v.wait(IMPRESSION_DELAY + 20);
        impressRaw(v, 'search', r1.id, page1.slice(3));
      }
      if (flag === 'infinite-params-responseid') {
        v.wait(IMPRESSION_DELAY + 20);
        impressRaw(v, 'search', r1.id, page2.slice(0, 4));
      } else v.see(r2, page2.slice(0, 4));
      v.wait(3_000);
    },
  },
  {
    id: 'search-backfill',
    principle: 'response-link',
    pages: ['search', 'product'],
    description:
      "infinite-scroll backfill on load (page 3 restored): one render with page 1's responseId, later pages' tiles impressed with their own",
    build(v, flag) {
      v.load('/search?q=shirt&page=3');
      v.wait(240);
      const r1 = v.serve({ query: 'shirt', perPage: 4, results: SHIRTS.slice(0, 4) });
      const r2 = v.serve({ query: 'shirt', page: 2, perPage: 4, results: SHIRTS.slice(4, 8) });
      const r3 = v.serve({
        query: 'shirt',
        page: 3,
        perPage: 4,
        results: ['P109', 'P110', 'P111', 'P112'],
      });
      v.enqueue('search', 'render', { responseId: r1.id });
      if (flag === 'backfill-render-each') {
        v.enqueue('search', 'render', { responseId: r2.id });
        v.enqueue('search', 'render', { responseId: r3.id });
      }
      // the restored scroll position shows the end of page 2 and page 3
      v.see(r2, ['P107', 'P108']);
      v.see(r3, ['P109', 'P110', 'P111', 'P112']);
      v.wait(3_000);
      v.click(r3, 'P111');
      v.wait(150);
      v.load('/product/p111');
      v.productView('P111');
    },
  },
  {
    id: 'search-banners',
    principle: 'response-link',
    pages: ['search'],
    description:
      'a header banner with data-banner-id and an inline banner are impressed; the header banner is clicked',
    build(v, flag) {
      if (flag === 'inline-banner-as-product')
        v.transforms.push((m) => {
          const results = dataOf(m).results as Array<Record<string, unknown>> | undefined;
          if (!results?.some((x) => x.type === 'banner')) return m;
          const asProduct = results.map((x) =>
            x.type === 'banner' ? { type: 'product', uid: x.uid, parentId: x.uid } : x,
          );
          return { ...m, body: { ...m.body, data: { ...dataOf(m), results: asProduct } } };
        });
      v.load('/search?q=summer');
      const r = v.search({
        query: 'summer',
        results: ['P101', 'P102', 'P103', 'P104', 'P105'],
        banners: ['5501'],
        inline: [{ uid: 'ss-ib-2', index: 2 }],
      });
      if (flag === 'banner-no-id') {
        // the banner HTML has no data-banner-id: the integration tracks it under a made-up uid
        v.wait(IMPRESSION_DELAY + 20);
        v.enqueue('search', 'impression', {
          responseId: r.id,
          banners: [{ uid: 'banner-0' }],
          results: [],
        });
      } else v.seeBanner(r, '5501');
      v.see(r, ['P101', 'P102', 'ss-ib-2', 'P103']);
      v.wait(2_500);
      if (flag === 'banner-click-in-results')
        v.sendNow('search', 'clickthrough', {
          responseId: r.id,
          results: [{ type: 'banner', uid: '5501' }],
        });
      else v.clickBanner(r, '5501');
      v.wait(150);
      v.load('/summer-sale');
    },
  },
  {
    id: 'search-merch-redirect',
    principle: 'sequence',
    pages: ['search'],
    description:
      'a query with a merchandising redirect: search/redirect at once, no render, the landing page',
    build(v, flag) {
      v.load('/search?q=sale');
      const r = v.search({
        query: 'sale',
        results: ['P101', 'P102', 'P103'],
        redirect: `${ORIGIN}/sale`,
      });
      if (flag === 'redirect-then-render') {
        // a custom afterSearch tracks the redirect but lets the results render, then navigates late
        v.enqueue('search', 'render', { responseId: r.id });
        v.see(r, ['P101', 'P102', 'P103']);
        v.wait(2_000);
      } else v.wait(60);
      v.load('/sale');
    },
  },
  {
    id: 'autocomplete-typing',
    principle: 'once',
    pages: ['autocomplete', 'product'],
    description:
      'autocomplete while typing: each response rendered, a repeated search renders nothing, tiles impressed, a click',
    build(v, flag) {
      v.load('/');
      const r1 = v.autocomplete('sh', ['P101', 'P105', 'P109', 'P113']);
      v.wait(180);
      v.autocomplete('shi', ['P101', 'P102', 'P105', 'P106']);
      v.wait(180);
      const r3 = v.autocomplete('shirt', ['P101', 'P102', 'P103', 'P104']);
      if (flag === 'ac-impressions-stale') {
        v.wait(IMPRESSION_DELAY + 20);
        impressRaw(v, 'autocomplete', r1.id, ['P101', 'P102', 'P103', 'P104']);
      } else v.see(r3, ['P101', 'P102', 'P103', 'P104']);
      v.wait(2_500);
      // the input is focused again: the same request, the same responseId, no render
      v.wait(120);
      if (flag === 'ac-repeat-render') v.enqueue('autocomplete', 'render', { responseId: r3.id });
      v.wait(1_500);
      if (flag === 'ac-on-search-endpoint')
        v.transforms.push((m) => (m.event === 'clickthrough' ? { ...m, category: 'search' } : m));
      v.click(r3, 'P103');
      v.wait(150);
      v.load('/product/p103');
      v.productView('P103');
    },
  },
  {
    id: 'autocomplete-fast-click',
    principle: 'sequence',
    pages: ['autocomplete', 'product'],
    description:
      'fast typing keeps restarting the queue, then a click 250 ms after the last response: the clickthrough reaches the service before the three queued renders',
    build(v) {
      v.load('/');
      v.autocomplete('sh', ['P101', 'P105', 'P109']);
      v.wait(150);
      v.autocomplete('shi', ['P101', 'P102', 'P105']);
      v.wait(150);
      const r = v.autocomplete('shirt', ['P101', 'P102', 'P103']);
      v.see(r, ['P101', 'P102', 'P103']);
      v.wait(250);
      v.click(r, 'P102');
      v.wait(150);
      v.load('/product/p102');
      v.productView('P102');
    },
  },
  {
    id: 'autocomplete-redirect',
    principle: 'sequence',
    pages: ['autocomplete'],
    description:
      'a term submitted from the dropdown whose response has a redirect: autocomplete/redirect, then the landing category page (a new page load)',
    build(v, flag) {
      v.load('/');
      const r = v.search(
        {
          kind: 'autocomplete',
          query: 'gift card',
          results: ['P120'],
          redirect: `${ORIGIN}/gift-cards`,
        },
        { latency: 120 },
      );
      v.see(r, ['P120']);
      v.wait(2_000);
      if (flag === 'ac-redirect-on-search')
        v.transforms.push((m) => (m.event === 'redirect' ? { ...m, category: 'search' } : m));
      v.acRedirect(r, `${ORIGIN}/gift-cards`);
      v.wait(40);
      // an SPA router that intercepts the redirect keeps the page load
      if (flag === 'ac-redirect-in-spa') v.spa('/gift-cards');
      else v.load('/gift-cards');
      const c = v.search({ kind: 'category', results: ['P120', 'P117'] });
      v.see(c, ['P120', 'P117']);
    },
  },
  {
    id: 'autocomplete-empty',
    principle: 'empty',
    pages: ['autocomplete'],
    description:
      'autocomplete responses with no results are rendered and impress nothing; the next term has results',
    build(v, flag) {
      v.load('/');
      const r1 = v.autocomplete('xq', []);
      v.wait(200);
      v.autocomplete('xqz', []);
      if (flag === 'ac-empty-impressions') {
        // trending products shown under an empty dropdown, tracked with the empty response's id
        v.wait(IMPRESSION_DELAY + 20);
        impressRaw(v, 'autocomplete', r1.id, ['P115', 'P116']);
      }
      v.wait(3_000);
      const r3 = v.autocomplete('shirt', ['P101', 'P102', 'P103']);
      v.see(r3, ['P101', 'P102', 'P103']);
      v.wait(2_000);
    },
  },
  {
    id: 'category-quick-add',
    principle: 'cart-order',
    pages: ['category', 'cart'],
    description:
      'a category page: two quick adds (merged addtocart), then the cart page whose globals list the variant: cart/add of the variant and cart/remove of the parent',
    build(v, flag) {
      const on = (f: string) => flag === f;
      if (on('category-on-search-endpoint'))
        v.transforms.push((m) => (m.category === 'category' ? { ...m, category: 'search' } : m));
      if (on('addtocart-qty-zero'))
        v.transforms.push((m) => {
          if (m.event !== 'addtocart') return m;
          const results = dataOf(m).results as Array<Record<string, unknown>>;
          return {
            ...m,
            body: {
              ...m.body,
              data: { ...dataOf(m), results: results.map((x) => ({ ...x, qty: 0 })) },
            },
          };
        });
      if (on('cart-add-partial-cart'))
        v.transforms.push((m) =>
          m.category === 'cart' && m.event === 'add'
            ? { ...m, body: { ...m.body, data: { ...dataOf(m), cart: dataOf(m).results } } }
            : m,
        );
      v.load('/c/tops');
      const r = v.search({ kind: 'category', results: ['P103', 'P105', 'P106', 'P107'] });
      v.see(r, ['P103', 'P105', 'P106', 'P107']);
      v.wait(2_000);
      v.addToCart(r, 'P103');
      v.wait(120);
      v.addToCart(r, 'P105');
      if (on('addtocart-plus-cart-add')) {
        const p = product('P105');
        v.sendNow('cart', 'add', {
          results: [{ parentId: p.uid, uid: p.uid, sku: p.sku, qty: 1, price: p.price }],
          cart: v.storedCart.map((c) => ({ ...c, parentId: c.parentId || c.uid })),
        });
      }
      v.wait(1_500);
      v.load('/cart', { cart: [line('P103', 1, '1030'), line('P105')] });
      v.wait(3_000);
    },
  },
  {
    id: 'category-merch-redirect',
    principle: 'sequence',
    pages: ['category'],
    description:
      'a category whose response has a merchandising redirect: search/redirect (the search endpoint), no render',
    build(v, flag) {
      if (flag === 'category-redirect-as-render')
        // the integration navigates itself and tracks the page as rendered instead of redirected
        v.transforms.push((m) =>
          m.event === 'redirect'
            ? {
                ...m,
                category: 'category',
                event: 'render',
                body: { ...m.body, data: { responseId: dataOf(m).responseId } },
              }
            : m,
        );
      v.load('/c/clearance');
      v.search({
        kind: 'category',
        results: ['P107', 'P117', 'P120'],
        redirect: `${ORIGIN}/clearance-sale`,
      });
      v.wait(60);
      v.load('/clearance-sale');
    },
  },
  {
    id: 'recs-product-page',
    principle: 'response-link',
    pages: ['product', 'recommendations'],
    description:
      'a product page (variant) with two recommendation widgets and a bundle: one render each, impressions as they scroll in, a quick add, a click',
    build(v, flag) {
      const on = (f: string) => flag === f;
      if (on('bundle-as-recs'))
        v.transforms.push((m) =>
          m.category === 'bundles' ? { ...m, category: 'recommendations' } : m,
        );
      if (on('pageview-variant-swapped'))
        v.transforms.push((m) => {
          if (m.category !== 'product') return m;
          const result = dataOf(m).result as Record<string, string>;
          return {
            ...m,
            body: {
              ...m.body,
              data: { result: { parentId: result.uid!, uid: result.parentId!, sku: result.sku! } },
            },
          };
        });
      v.load('/product/p108?variant=1081');
      v.productView('P108', { childUid: '1081' });
      if (on('pageview-twice')) v.wait(400).productView('P108', { childUid: '1081' });
      v.wait(300);
      const ra = v.recommend('similar', ['P101', 'P102', 'P103', 'P104']);
      v.wait(40);
      const rb = v.recommend('also-bought', ['P105', 'P106', 'P107']);
      v.wait(40);
      const rc = v.recommend('bundle', ['P109', 'P110'], { bundle: true });
      if (on('recs-one-render'))
        v.transforms.push(dropIf((m) => m.event === 'render' && dataOf(m).responseId !== ra.id));
      if (on('recs-wrong-tag'))
        v.transforms.push((m) =>
          m.event === 'impression' && dataOf(m).responseId === rb.id
            ? { ...m, body: { ...m.body, data: { ...dataOf(m), tag: 'similar' } } }
            : m,
        );
      v.wait(1_200);
      v.see(ra, ['P101', 'P102', 'P103', 'P104']);
      if (on('recs-render-on-scroll'))
        v.enqueue('recommendations', 'render', { tag: 'similar', responseId: ra.id });
      v.wait(2_500);
      v.see(rb, ['P105', 'P106', 'P107']);
      if (on('recs-render-on-scroll'))
        v.enqueue('recommendations', 'render', { tag: 'also-bought', responseId: rb.id });
      v.wait(2_500);
      v.addToCart(rb, 'P106');
      v.wait(1_500);
      v.see(rc, ['P109', 'P110']);
      v.wait(2_000);
      if (on('recs-click-main-product'))
        v.sendNow('recommendations', 'clickthrough', {
          tag: 'similar',
          responseId: ra.id,
          results: [tile('P108')],
        });
      else v.click(ra, 'P102');
      v.wait(150);
      v.load('/product/p102');
      v.productView('P102');
      v.wait(300);
      const rd = v.recommend('similar', ['P101', 'P103', 'P104']);
      v.see(rd, ['P101', 'P103']);
    },
  },
  {
    id: 'login-journey',
    principle: 'identity',
    pages: ['search', 'login', 'product'],
    description:
      'an anonymous search, the login page, the account page with shopper.id (one queued login), then logged-in pages',
    build(v, flag) {
      const on = (f: string) => flag === f;
      const shopper = 'shopper-77';
      if (on('shopper-without-login')) v.transforms.push(dropIf((m) => m.category === 'shopper'));
      if (on('shopper-dropped'))
        v.transforms.push((m) =>
          m.body.context.pageUrl.includes('/account')
            ? m
            : { ...m, body: { ...m.body, context: { ...m.body.context, shopperId: '' } } },
        );
      const load = (url: string, logged: boolean) => {
        v.load(url, logged ? { shopperId: shopper } : {});
        // the client logs the page's shopper in on every page load (Snap.tsx; B queues it though the id is stored)
        if (logged && !url.startsWith('/account')) v.enqueue('shopper', 'login', {});
      };
      load('/search?q=shirt', false);
      const r = v.search({ query: 'shirt', results: SHIRTS.slice(0, 4) });
      v.see(r, SHIRTS.slice(0, 4));
      v.wait(2_500);
      load('/account/login', false);
      v.wait(8_000);
      load('/account', true);
      v.wait(3_000);
      load('/search?q=boots', true);
      const r2 = v.search({ query: 'boots', results: ['P114', 'P115', 'P116'] });
      v.see(r2, ['P114', 'P115', 'P116']);
      v.wait(2_500);
      v.click(r2, 'P115');
      v.wait(150);
      load('/product/p115', true);
      v.productView('P115');
      v.wait(4_000);
      load('/product/p116', true);
      v.productView('P116');
    },
  },
  {
    id: 'two-shoppers',
    principle: 'identity',
    pages: ['search', 'product'],
    description:
      'two browsers search the same query at the same time: each its own userId, sessionId, pageLoadIds and responses',
    build(v, flag) {
      const other = new Visit(v.world, {
        start: 400,
        ...(flag === 'userid-shared' && { userId: v.userId }),
      });
      for (const [who, uid] of [
        [v, 'P103'],
        [other, 'P106'],
      ] as const) {
        who.load('/search?q=shirt');
        const r = who.search({ query: 'shirt', results: SHIRTS.slice(0, 6) });
        who.see(r, SHIRTS.slice(0, 6));
        who.wait(2_500);
        who.click(r, uid);
        who.wait(150);
        who.load(`/product/${uid.toLowerCase()}`);
        who.productView(uid);
        who.wait(10_000);
      }
    },
  },
  {
    id: 'account-switch',
    principle: 'identity',
    pages: ['login', 'search'],
    description:
      "one browser, two accounts: A logs in, logs out (the stored shopperId stays), B logs in: a second login, then B's id",
    build(v, flag) {
      if (flag === 'login-shopper-stale')
        // a second tracker created before B's login keeps sending A's id
        v.transforms.push((m) =>
          m.category !== 'shopper' && m.body.context.shopperId === 'shopper-B'
            ? { ...m, body: { ...m.body, context: { ...m.body.context, shopperId: 'shopper-A' } } }
            : m,
        );
      v.load('/account', { shopperId: 'shopper-A' });
      v.wait(2_000);
      v.load('/search?q=shirt', { shopperId: 'shopper-A' });
      const r = v.search({ query: 'shirt', results: SHIRTS.slice(0, 4) });
      v.see(r, SHIRTS.slice(0, 4));
      v.wait(3_000);
      v.load('/account/logout');
      v.wait(20_000);
      v.load('/account', { shopperId: 'shopper-B' });
      v.wait(2_000);
      v.load('/search?q=boots', { shopperId: 'shopper-B' });
      const r2 = v.search({ query: 'boots', results: ['P114', 'P115', 'P116'] });
      v.see(r2, ['P114', 'P115', 'P116']);
      v.wait(3_000);
    },
  },
  {
    id: 'checkout-order',
    principle: 'cart-order',
    pages: ['search', 'cart', 'order'],
    description:
      'a quick add, the cart page (a quantity raised, a product added), checkout, the thank-you page: cart/remove with cart [] then the order',
    build(v, flag) {
      const on = (f: string) => flag === f;
      if (on('cart-add-whole-qty'))
        v.transforms.push((m) => {
          if (m.category !== 'cart' || m.event !== 'add') return m;
          const cart = dataOf(m).cart as Array<Record<string, unknown>>;
          const results = (dataOf(m).results as Array<Record<string, unknown>>).map((x) => ({
            ...x,
            qty: cart.find((c) => c.uid === x.uid)?.qty ?? x.qty,
          }));
          return { ...m, body: { ...m.body, data: { ...dataOf(m), results } } };
        });
      if (on('order-vat-percent'))
        v.transforms.push((m) =>
          m.category === 'order'
            ? { ...m, body: { ...m.body, data: { ...dataOf(m), vat: 20 } } }
            : m,
        );
      // the cart globals of the second product, as the template writes them
      const mug = (): ReturnType<typeof line> =>
        on('cart-sku-only')
          ? ({ sku: 'S-113', qty: 1, price: 9.99 } as unknown as ReturnType<typeof line>)
          : line('P113');
      const load = (url: string, cart: ReturnType<typeof line>[]) => {
        v.load(url, { cart });
        if (on('cart-resent-each-load') && cart.length > 0)
          v.sendNow('cart', 'add', {
            results: cart.map((c) => ({ ...c })),
            cart: cart.map((c) => ({ ...c })),
          });
      };
      v.load('/search?q=mug');
      const r = v.search({ query: 'mug', results: ['P104', 'P113', 'P117'] });
      v.see(r, ['P104', 'P113', 'P117']);
      v.wait(2_000);
      v.addToCart(r, 'P104');
      v.wait(1_500);
      load('/cart', [line('P104', 2)]);
      v.wait(5_000);
      load('/cart', [line('P104', 2), mug()]);
      v.wait(6_000);
      load('/checkout', [line('P104', 2), mug()]);
      v.wait(90_000);
      const lines = [line('P104', 2), line('P113')];
      if (on('order-other-domain')) {
        v.userId = v.world.id('user');
        v.sessionId = v.world.id('session');
        v.storedCart = [];
        v.load('https://pay.example-checkout.com/thank-you', { cart: [] });
      } else load('/checkout/thank-you', []);
      v.order({
        id: on('order-missing-id') ? '' : '100245',
        transactionTotal: on('order-zero-totals') ? 0 : on('order-cents') ? 3597 : 35.97,
        total: on('order-zero-totals') ? 0 : on('order-cents') ? 4212 : 42.12,
        lines,
      });
    },
  },
  {
    id: 'cart-page-edit',
    principle: 'cart-order',
    pages: ['cart', 'recommendations'],
    description:
      "the cart page: a quick add from the cart's widget, then a quantity lowered and the page reloaded within 10 s (same pageLoadId): cart/remove of the difference, no cart/add for the quick-added product the globals now list",
    build(v) {
      v.load('/cart', { cart: [line('P119', 3), line('P112')] });
      v.wait(300);
      const r = v.recommend('cart-upsell', ['P113', 'P117', 'P120']);
      v.see(r, ['P113', 'P117', 'P120']);
      v.wait(2_500);
      v.addToCart(r, 'P117');
      v.wait(1_000);
      // the shopper lowers a quantity: the cart page reloads with the new globals
      v.load('/cart', { cart: [line('P119', 1), line('P112'), line('P117')] });
      v.wait(300);
      const r2 = v.recommend('cart-upsell', ['P113', 'P120', 'P101']);
      v.see(r2, ['P113', 'P120', 'P101']);
      v.wait(2_500);
    },
  },
  {
    id: 'order-reload',
    principle: 'cart-order',
    pages: ['cart', 'order'],
    description:
      'the thank-you page reloaded within 10 s: the order again on the same pageLoadId (the client counts it twice)',
    build(v) {
      v.load('/cart', { cart: [line('P119'), line('P108', 1, '1080')] });
      v.wait(30_000);
      v.load('/checkout/thank-you', { cart: [] });
      const order = {
        id: '100311',
        transactionTotal: 204,
        total: 219.3,
        lines: [line('P119'), line('P108', 1, '1080')],
      };
      v.order(order);
      v.wait(4_000);
      v.load('/checkout/thank-you');
      v.order(order);
    },
  },
  {
    id: 'session-rollover',
    principle: 'identity',
    pages: ['search'],
    description:
      'an e-mail link with athos_attribution kept for the session; after 35 idle minutes a new session (same userId)',
    build(v, flag) {
      v.load('/?athos_attribution=email:camp-9');
      const first = v.href;
      // the landing page's widget: its events carry the attribution
      v.wait(300);
      const landing = v.recommend('email-picks', ['P117', 'P118', 'P119']);
      v.see(landing, ['P117', 'P118', 'P119']);
      v.wait(3_000);
      if (flag === 'attribution-lost')
        v.transforms.push((m) => {
          if (m.body.context.pageUrl === first) return m;
          const { attribution: _dropped, ...context } = m.body.context;
          return { ...m, body: { ...m.body, context } };
        });
      v.load('/search?q=shirt');
      const r = v.search({ query: 'shirt', results: SHIRTS.slice(0, 4) });
      v.see(r, SHIRTS.slice(0, 4));
      v.wait(2_500);
      v.click(r, 'P104');
      v.wait(150);
      v.load('/product/p104');
      v.productView('P104');
      v.wait(35 * 60_000);
      const session = v.sessionId;
      v.load('/search?q=shoes');
      if (flag === 'session-never-expires') v.sessionId = session;
      const r2 = v.search({ query: 'shoes', results: ['P116', 'P118', 'P119'] });
      v.see(r2, ['P116', 'P118', 'P119']);
      v.wait(2_500);
    },
  },
  {
    id: 'dev-mode',
    principle: 'mode',
    dev: true,
    pages: ['search', 'product'],
    description:
      'development mode: dev beacons and test searches; back on the search page the cache is off, so a new responseId',
    build(v, flag) {
      if (flag === 'dev-without-test') v.test = false;
      v.load('/search?q=shirt');
      const r = v.search({ query: 'shirt', results: SHIRTS.slice(0, 4) });
      v.see(r, SHIRTS.slice(0, 4));
      v.wait(2_500);
      v.click(r, 'P101');
      v.wait(150);
      v.load('/product/p101');
      v.productView('P101');
      v.wait(20_000);
      v.load('/search?q=shirt');
      const r2 =
        flag === 'dev-cached'
          ? v.search(r)
          : v.search({ query: 'shirt', results: SHIRTS.slice(0, 4) });
      v.see(r2, SHIRTS.slice(0, 4));
    },
  },
];

// ----- faults -----

const F = {
  render:
    'Sent in `search()` (SC) right after the store is updated, with only `{responseId}`, after **every** completed search',
  impression:
    'A tile or banner is impressed when 70% of it is visible for 1 s (IntersectionObserver threshold 0.7), once per uid per responseId; re-entering the viewport sends nothing.',
  queue:
    "B queues render, impression and addtocart behind a 300 ms debounce restarted by every queued event, no size cap; impressions and addtocarts with the same site, endpoint, pageLoadId, sessionId and responseId merge into one request with the first event's context.",
  click:
    "Exactly one item: product `results:[{type:'product', uid, parentId ('' when the product has none), sku}]`",
  pageLoad:
    'A new pageLoadId per full page load (B `getPageLoadId`), except that the stored one is reused when the href is the same and under 10 s old. Snap never starts a new pageLoadId inside an SPA.',
  pageUrl:
    '`context.pageUrl` is `window.location.href` at the moment the event is created (B `getContext`).',
  identity:
    "Identity: userId lives 18 months, sessionId 30 minutes of inactivity (rolling), both in cookies and localStorage of the storefront's domain",
  cart: 'new items or higher quantities → one `cart/add` with `results` = only the difference (qty = the increase) and `cart` = the whole current cart',
  order:
    '`transactionTotal` is the amount before discounts, taxes and shipping, `total` after them (OAS). … only gross mismatches (0 with priced lines, a factor of about 100) are certain bugs.',
  login:
    "Login (T, on load when the page's `shopper.id` is set and differs from the stored one): `shopper/login` with `context.shopperId`, batched with the 300 ms queue; every later event carries `context.shopperId`.",
  mode: 'One mode drives both … In development mode beacons carry `context.dev: true` and the search client adds `test=true` to search, autocomplete and category requests; in production neither.',
  recs: "one controller per widget (profile `tag`); after each recommend response, one render `{responseId, tag}` to `recommendations/render` (or `bundles/render` when the profile type is `bundle`); impressions, clickthroughs and addtocarts carry `tag` and the responseId of the result's response, once per uid per responseId.",
  ac: "ACC sends only `autocomplete/*` events (render, impression, clickthrough, addtocart, redirect), each with the autocomplete response's own responseId. … No code path sends an autocomplete responseId on `search/*`.",
  redirect:
    'Merchandising redirect (SC `afterSearch`) …: `search/redirect` is sent at once (always on the search endpoint, also for category pages), then `window.location.replace(url)`. The search is cancelled before the store update, so **no render** is sent.',
} as const;

export const FAULTS: Fault[] = [
  // --- search page ---
  {
    id: 'render-missing',
    principle: 'sequence',
    page: 'search',
    twin: 'search-browse',
    flag: 'render-missing',
    description: 'the integration never sends render; tiles are impressed and clicked anyway',
    contradicts: F.render,
  },
  {
    id: 'render-late',
    principle: 'sequence',
    page: 'search',
    twin: 'search-browse',
    flag: 'render-late',
    description:
      'render sent from an "images loaded" hook 2.5 s after the response, after the first impressions',
    contradicts: F.render,
  },
  {
    id: 'render-every-tile',
    principle: 'once',
    page: 'search',
    twin: 'search-browse',
    flag: 'render-every-tile',
    description: 'the tile component calls render as it mounts: five renders of one response',
    contradicts: F.render,
  },
  {
    id: 'impression-all-at-render',
    principle: 'timing',
    page: 'search',
    twin: 'search-browse',
    flag: 'impression-all-at-render',
    description:
      'every tile of the response (below the fold too) impressed when the grid renders, with no visibility wait',
    contradicts: F.impression,
  },
  {
    id: 'impression-early',
    principle: 'timing',
    page: 'search',
    twin: 'search-browse',
    flag: 'impression-early',
    description:
      'an observer without the 1 s dwell: visible tiles impressed 150 ms after they appear',
    contradicts: F.impression,
  },
  {
    id: 'impression-unbatched',
    principle: 'timing',
    page: 'search',
    twin: 'search-browse',
    flag: 'impression-unbatched',
    description:
      'hand-written beacon calls that bypass the queue: render and every impression sent at once, one request per tile',
    contradicts: F.queue,
  },
  {
    id: 'impression-repeat-on-reenter',
    principle: 'once',
    page: 'search',
    twin: 'search-browse',
    flag: 'impression-repeat-on-reenter',
    description:
      'scrolling back up impresses the first row a second time under the same responseId',
    contradicts: F.impression,
  },
  {
    id: 'click-double',
    principle: 'once',
    page: 'search',
    twin: 'search-browse',
    flag: 'click-double',
    description: 'a double click sends two clickthroughs of one tile 250 ms apart',
    contradicts: 'Repeat clicks on one item within 1 s are dropped.',
  },
  {
    id: 'click-sku-as-uid',
    principle: 'response-link',
    page: 'search',
    twin: 'search-browse',
    flag: 'click-sku-as-uid',
    description: 'the clickthrough carries the sku in uid (a wrong id mapping in a custom tile)',
    contradicts: F.click,
  },
  {
    id: 'click-not-served',
    principle: 'response-link',
    page: 'search',
    twin: 'search-browse',
    flag: 'click-not-served',
    description:
      'a "staff pick" tile the template injects into the grid is clicked and tracked with the search responseId',
    contradicts:
      'each result keeps the responseId of the response that delivered it (`snap-client/src/Client/transforms/searchResponse.ts`)',
  },
  {
    id: 'new-user-every-load',
    principle: 'identity',
    page: 'product',
    twin: 'search-browse',
    flag: 'new-user-every-load',
    description: 'cookies and storage are not kept: the product page starts a new userId',
    contradicts: F.identity,
  },
  {
    id: 'new-session-every-load',
    principle: 'identity',
    page: 'product',
    twin: 'search-browse',
    flag: 'new-session-every-load',
    description: 'the product page starts a new sessionId 200 ms after the search page',
    contradicts: F.identity,
  },
  {
    id: 'pageloadid-reused',
    principle: 'page-context',
    page: 'product',
    twin: 'search-browse',
    flag: 'pageloadid-reused',
    description:
      "a pageLoadId rendered into a cached server template: the product page carries the search page's pageLoadId",
    contradicts: F.pageLoad,
  },
  {
    id: 'test-in-production',
    principle: 'mode',
    page: 'search',
    twin: 'search-browse',
    flag: 'test-in-production',
    description: 'a production storefront whose search client was left with test=true',
    contradicts: F.mode,
  },
  {
    id: 'click-with-impression',
    principle: 'timing',
    page: 'search',
    twin: 'search-quick-click',
    flag: 'click-with-impression',
    description:
      'an impression of the clicked tile sent by hand with the click, 700 ms after it appeared',
    contradicts:
      "Clickthrough is sent at once … and does **not** flush queued impressions; … So a click within about 1.3 s of a tile appearing reaches the service without that tile's impression.",
  },
  {
    id: 'single-result-fake-click',
    principle: 'sequence',
    page: 'search',
    twin: 'search-single-result',
    flag: 'single-result-fake-click',
    description:
      'the single-result redirect is tracked as a clickthrough on the only product, which nobody clicked',
    contradicts:
      'Single-result redirect (`afterStore`): render is queued first, then the page navigates to the product (the queued render may be lost with the page).',
  },
  {
    id: 'empty-no-render',
    principle: 'sequence',
    page: 'search',
    twin: 'search-empty',
    flag: 'empty-no-render',
    description: 'the no-results page sends no render',
    contradicts:
      'No-results page: render is still sent; no product impressions follow (there are no tiles).',
  },
  {
    id: 'empty-impressions',
    principle: 'empty',
    page: 'search',
    twin: 'search-empty',
    flag: 'empty-impressions',
    description:
      'the no-results page impresses its "popular products" fallback under the empty response',
    contradicts:
      'No-results page: render is still sent; no product impressions follow (there are no tiles).',
  },
  {
    id: 'cached-no-render',
    principle: 'sequence',
    page: 'search',
    twin: 'search-cached-back',
    flag: 'cached-no-render',
    description:
      'a response served from the client cache is impressed again but not rendered (renders suppressed for cached responses)',
    contradicts:
      "including a response served from the client's cache: then the **same responseId** is rendered again",
  },
  {
    id: 'spa-new-pageloadid',
    principle: 'page-context',
    page: 'search',
    twin: 'search-spa-filter',
    flag: 'spa-new-pageloadid',
    description: "the SPA router calls the beacon's pageLoad() on every route change",
    contradicts: F.pageLoad,
  },
  {
    id: 'spa-stale-pageurl',
    principle: 'page-context',
    page: 'search',
    twin: 'search-spa-filter',
    flag: 'spa-stale-pageurl',
    description:
      'the beacon was given a fixed href at start: every event of the SPA carries the first URL',
    contradicts: F.pageUrl,
  },
  {
    id: 'spa-stale-responseid',
    principle: 'response-link',
    page: 'search',
    twin: 'search-spa-filter',
    flag: 'spa-stale-responseid',
    description:
      "after a filter change the new tiles are impressed with the previous search's responseId",
    contradicts:
      'Pagination, filter or sort change in an SPA: a new search, a new responseId, a render, same pageLoadId.',
  },
  {
    id: 'spa-no-render-on-filter',
    principle: 'sequence',
    page: 'search',
    twin: 'search-spa-filter',
    flag: 'spa-no-render-on-filter',
    description: 'render only on the first search of the page: filter and page changes send none',
    contradicts:
      'Pagination, filter or sort change in an SPA: a new search, a new responseId, a render, same pageLoadId.',
  },
  {
    id: 'infinite-no-render',
    principle: 'sequence',
    page: 'search',
    twin: 'search-infinite',
    flag: 'infinite-no-render',
    description: 'the page fetched by infinite scroll is never rendered, only its tiles impressed',
    contradicts: "Page N fetched by infinite scroll: one render with **page N's responseId**",
  },
  {
    id: 'infinite-reimpress-page1',
    principle: 'once',
    page: 'search',
    twin: 'search-infinite',
    flag: 'infinite-reimpress-page1',
    description: 'loading page 2 resets the impression map: page-1 tiles are impressed again',
    contradicts: 'page-1 tiles are not re-sent; same pageLoadId.',
  },
  {
    id: 'infinite-params-responseid',
    principle: 'response-link',
    page: 'search',
    twin: 'search-infinite',
    flag: 'infinite-params-responseid',
    description: "page-2 tiles impressed with page 1's responseId",
    contradicts:
      "the new tiles are impressed with page N's responseId (each result keeps the responseId of the response that delivered it)",
  },
  {
    id: 'backfill-render-each',
    principle: 'once',
    page: 'search',
    twin: 'search-backfill',
    flag: 'backfill-render-each',
    description: 'a backfill of three pages sends three renders',
    contradicts:
      "Infinite-scroll backfill on load (several pages restored): one render only, with page 1's responseId",
  },
  {
    id: 'banner-no-id',
    principle: 'response-link',
    page: 'search',
    twin: 'search-banners',
    flag: 'banner-no-id',
    description:
      'a header banner without data-banner-id impressed under a uid the integration made up',
    contradicts:
      'Merchandising (slot) banner impression: `{responseId, banners:[{uid}], results:[]}`, uid from `data-banner-id="<digits>"` in the banner HTML; without that attribute nothing is sent.',
  },
  {
    id: 'banner-click-in-results',
    principle: 'response-link',
    page: 'search',
    twin: 'search-banners',
    flag: 'banner-click-in-results',
    description:
      'a header banner click sent as a banner result in `results` instead of in `banners`',
    contradicts: 'slot banner `{responseId, banners:[{uid}]}` with no `results` key',
  },
  {
    id: 'redirect-then-render',
    principle: 'sequence',
    page: 'search',
    twin: 'search-merch-redirect',
    flag: 'redirect-then-render',
    description:
      'the redirect is tracked, but the results are rendered and impressed before the page leaves 2 s later',
    contradicts: F.redirect,
  },
  {
    id: 'session-per-event',
    principle: 'identity',
    page: 'search',
    twin: 'search-browse',
    flag: 'session-per-event',
    description: 'hand-written beacon calls that make up a new sessionId for every request',
    contradicts: F.identity,
  },
  {
    id: 'page-mixed-mode',
    principle: 'mode',
    page: 'search',
    twin: 'search-browse',
    flag: 'page-mixed-mode',
    description:
      'a second beacon instance in development mode sends the impressions of a production page (dev only on them)',
    contradicts: F.mode,
  },
  {
    id: 'timestamp-page-load',
    principle: 'page-context',
    page: 'search',
    twin: 'search-spa-filter',
    flag: 'timestamp-page-load',
    description:
      "hand-written contexts reuse the page's render time: every event of the SPA page has the same timestamp",
    contradicts:
      'B `getContext`: `timestamp: this.getTimestamp()` (`new Date().toISOString()` when the event is created)',
  },
  {
    id: 'inline-banner-as-product',
    principle: 'response-link',
    page: 'search',
    twin: 'search-banners',
    flag: 'inline-banner-as-product',
    description: 'a custom result template tracks the inline banner as a product tile',
    contradicts:
      "Inline banner: in `results` as `{type:'banner', uid}`, uid = `data-banner-id` or `ss-ib-<index>`",
  },
  // --- autocomplete ---
  {
    id: 'ac-repeat-render',
    principle: 'once',
    page: 'autocomplete',
    twin: 'autocomplete-typing',
    flag: 'ac-repeat-render',
    description: 'refocusing the input renders the same autocomplete response again',
    contradicts:
      'Render is sent after each autocomplete response except a repeated search (same responseId as the results shown; ACC around line 915), whose earlier impression flags are kept.',
  },
  {
    id: 'ac-impressions-stale',
    principle: 'response-link',
    page: 'autocomplete',
    twin: 'autocomplete-typing',
    flag: 'ac-impressions-stale',
    description:
      "the dropdown's tiles impressed with the first keystroke's responseId, not the response that showed them",
    contradicts: F.ac,
  },
  {
    id: 'ac-on-search-endpoint',
    principle: 'endpoint',
    page: 'autocomplete',
    twin: 'autocomplete-typing',
    flag: 'ac-on-search-endpoint',
    description:
      'a click in the dropdown sent to search/clickthrough with the autocomplete responseId',
    contradicts: F.ac,
  },
  {
    id: 'ac-redirect-on-search',
    principle: 'endpoint',
    page: 'autocomplete',
    twin: 'autocomplete-redirect',
    flag: 'ac-redirect-on-search',
    description: "the dropdown's redirect sent to search/redirect",
    contradicts: F.ac,
  },
  {
    id: 'ac-redirect-in-spa',
    principle: 'page-context',
    page: 'autocomplete',
    twin: 'autocomplete-redirect',
    flag: 'ac-redirect-in-spa',
    description:
      "an SPA router intercepts the dropdown's redirect: the landing category page is tracked on the same page load",
    contradicts:
      'A term or product submitted from the dropdown may send `autocomplete/redirect` first and then set `location.href`.',
  },
  {
    id: 'ac-empty-impressions',
    principle: 'empty',
    page: 'autocomplete',
    twin: 'autocomplete-empty',
    flag: 'ac-empty-impressions',
    description:
      "trending products under an empty dropdown impressed with the empty response's responseId",
    contradicts: F.ac,
  },
  // --- category ---
  {
    id: 'category-on-search-endpoint',
    principle: 'endpoint',
    page: 'category',
    twin: 'category-quick-add',
    flag: 'category-on-search-endpoint',
    description: 'a category page tracked on search/* (page type not set to category)',
    contradicts:
      'Category pages run the same controller with page type `category`: render, impression, clickthrough and addtocart go to `category/*` with the same shapes',
  },
  {
    id: 'addtocart-qty-zero',
    principle: 'cart-order',
    page: 'category',
    twin: 'category-quick-add',
    flag: 'addtocart-qty-zero',
    description: 'quick adds sent with qty 0 (the tile has no quantity field)',
    contradicts:
      "Addtocart (SC `track.product.addToCart`): `{responseId of the response that delivered the product, results:[{parentId || '', uid, sku, qty || 1, price: Number(price) || 0}]}`",
  },
  {
    id: 'addtocart-plus-cart-add',
    principle: 'cart-order',
    page: 'category',
    twin: 'category-quick-add',
    flag: 'addtocart-plus-cart-add',
    description:
      "the quick-add button also calls the beacon's cart.add, so the add is counted twice",
    contradicts:
      "Every `*/addtocart` (search, category, autocomplete, recommendations, bundles) also adds its results to B's stored cart, but sends no `cart/add` of its own.",
  },
  {
    id: 'cart-add-partial-cart',
    principle: 'cart-order',
    page: 'cart',
    twin: 'category-quick-add',
    flag: 'cart-add-partial-cart',
    description: 'cart/add whose `cart` lists only the added items, not the whole cart',
    contradicts: F.cart,
  },
  {
    id: 'category-redirect-as-render',
    principle: 'sequence',
    page: 'category',
    twin: 'category-merch-redirect',
    flag: 'category-redirect-as-render',
    description:
      'a category merchandising redirect handled by the integration: a category render of the redirect response, no redirect beacon',
    contradicts: F.redirect,
  },
  // --- recommendations and product page ---
  {
    id: 'recs-one-render',
    principle: 'sequence',
    page: 'recommendations',
    twin: 'recs-product-page',
    flag: 'recs-one-render',
    description:
      'only the first widget of the page is rendered; the others are impressed and clicked',
    contradicts: F.recs,
  },
  {
    id: 'recs-render-on-scroll',
    principle: 'once',
    page: 'recommendations',
    twin: 'recs-product-page',
    flag: 'recs-render-on-scroll',
    description: 'each widget is rendered again when it scrolls into view',
    contradicts: F.recs,
  },
  {
    id: 'recs-wrong-tag',
    principle: 'response-link',
    page: 'recommendations',
    twin: 'recs-product-page',
    flag: 'recs-wrong-tag',
    description: "the second widget's impressions carry the first widget's tag",
    contradicts: F.recs,
  },
  {
    id: 'bundle-as-recs',
    principle: 'endpoint',
    page: 'recommendations',
    twin: 'recs-product-page',
    flag: 'bundle-as-recs',
    description: 'a bundle widget tracked on recommendations/*',
    contradicts: F.recs,
  },
  {
    id: 'recs-click-main-product',
    principle: 'response-link',
    page: 'recommendations',
    twin: 'recs-product-page',
    flag: 'recs-click-main-product',
    description:
      "a click on the page's own product (not in the widget) tracked as a clickthrough of the widget",
    contradicts: F.recs,
  },
  {
    id: 'pageview-variant-swapped',
    principle: 'response-link',
    page: 'product',
    twin: 'recs-product-page',
    flag: 'pageview-variant-swapped',
    description: 'the product-view script of a variant swaps parentId and uid',
    contradicts:
      'With a variant (`childUid` or `childSku`): `uid = childUid || uid`, `parentId = parentId || uid || childUid`, `sku = childSku || sku`.',
  },
  {
    id: 'pageview-twice',
    principle: 'once',
    page: 'product',
    twin: 'recs-product-page',
    flag: 'pageview-twice',
    description: 'the product-view script is in the template twice: two pageviews per load',
    contradicts:
      'Product page (T `track.product.view`, from `<script type="athos/track/product/view">` …): `product/pageview` with `{result:{parentId, uid, sku}}`',
  },
  // --- login ---
  // login-every-page was a fault here until the client's source was read again: Snap.tsx logs the context's
  // shopper in on every page load and B queues the login even when the id is stored, so the clean journey
  // sends it on each page of the logged-in shopper, as the client does.
  {
    id: 'shopper-without-login',
    principle: 'identity',
    page: 'login',
    twin: 'login-journey',
    flag: 'shopper-without-login',
    description:
      'the shopper id cookie is set by the server: events carry shopperId but no login is ever sent',
    contradicts: F.login,
  },
  {
    id: 'shopper-dropped',
    principle: 'identity',
    page: 'login',
    twin: 'login-journey',
    flag: 'shopper-dropped',
    description: 'after the login, pages outside /account send an empty shopperId again',
    contradicts: F.login,
  },
  {
    id: 'login-shopper-stale',
    principle: 'identity',
    page: 'login',
    twin: 'account-switch',
    flag: 'login-shopper-stale',
    description: "after B's login, the page's events keep carrying A's shopperId",
    contradicts: F.login,
  },
  {
    id: 'userid-shared',
    principle: 'identity',
    page: 'search',
    twin: 'two-shoppers',
    flag: 'userid-shared',
    description:
      'a userId baked into a CDN-cached page: two browsers browsing at the same time share it',
    contradicts: F.identity,
  },
  // --- cart and order ---
  {
    id: 'cart-add-whole-qty',
    principle: 'cart-order',
    page: 'cart',
    twin: 'checkout-order',
    flag: 'cart-add-whole-qty',
    description: "cart/add of a raised quantity sends the line's whole quantity, not the increase",
    contradicts: F.cart,
  },
  {
    id: 'cart-resent-each-load',
    principle: 'cart-order',
    page: 'cart',
    twin: 'checkout-order',
    flag: 'cart-resent-each-load',
    description: 'a hand-written cart/add of the whole cart on every page load',
    contradicts: F.cart,
  },
  {
    id: 'cart-sku-only',
    principle: 'cart-order',
    page: 'cart',
    twin: 'checkout-order',
    flag: 'cart-sku-only',
    description:
      'the cart globals give one product only its sku: its cart/add goes out without uid',
    contradicts:
      'Cart items are mapped `parentId: parentId || uid`, `uid: uid` (no fallback): an item given only a sku goes out without `uid` and the service rejects it (400).',
  },
  {
    id: 'order-vat-percent',
    principle: 'cart-order',
    page: 'order',
    twin: 'checkout-order',
    flag: 'order-vat-percent',
    description: 'a hand-written order beacon adds vat as a percentage (20)',
    contradicts:
      '`city`, `state`, `country` (never `vat`, which the OAS allows as a rate such as 0.20, so only a direct beacon call sends it)',
  },
  {
    id: 'order-cents',
    principle: 'cart-order',
    page: 'order',
    twin: 'checkout-order',
    flag: 'order-cents',
    description: 'order totals in cents while the lines are priced in dollars',
    contradicts: F.order,
  },
  {
    id: 'order-zero-totals',
    principle: 'cart-order',
    page: 'order',
    twin: 'checkout-order',
    flag: 'order-zero-totals',
    description: 'the order script has no totals: both sent as 0 with priced lines',
    contradicts: F.order,
  },
  {
    id: 'order-missing-id',
    principle: 'cart-order',
    page: 'order',
    twin: 'checkout-order',
    flag: 'order-missing-id',
    description: 'the order script has no order id: orderId sent as ""',
    contradicts:
      'Order (T `track.order.transaction`, from `<script type="athos/track/order/transaction">` with `order` and `items`): `order/transaction` with `orderId: String(order.id || \'\')`',
  },
  {
    id: 'order-other-domain',
    principle: 'identity',
    page: 'order',
    twin: 'checkout-order',
    flag: 'order-other-domain',
    description:
      'the thank-you page is on the payment domain and the integration does not pass userId and sessionId on',
    contradicts:
      'a checkout on another domain starts a new userId and sessionId unless the integration passes them on.',
  },
  // --- identity and mode ---
  {
    id: 'session-never-expires',
    principle: 'identity',
    page: 'search',
    twin: 'session-rollover',
    flag: 'session-never-expires',
    description:
      'a sessionId kept in a server cookie without expiry: the same session after 35 idle minutes',
    contradicts: F.identity,
  },
  {
    id: 'attribution-lost',
    principle: 'identity',
    page: 'search',
    twin: 'session-rollover',
    flag: 'attribution-lost',
    description: 'the e-mail attribution is sent on the landing page only',
    contradicts:
      '`context.attribution` (`[{type, id}]`) comes from the `athos_attribution` / `ss_attribution` URL parameter (e-mail recommendations) and is kept for the session.',
  },
  {
    id: 'dev-without-test',
    principle: 'mode',
    page: 'search',
    twin: 'dev-mode',
    flag: 'dev-without-test',
    description:
      'beacons in development mode while the search client runs in production (no test=true)',
    contradicts: F.mode,
  },
  {
    id: 'dev-cached',
    principle: 'mode',
    page: 'search',
    twin: 'dev-mode',
    flag: 'dev-cached',
    description:
      'development mode answered from the client cache: the same responseId rendered again',
    contradicts: 'The cache lives 5 minutes in sessionStorage and is off in development mode.',
  },
];

// ----- building -----

export function cleanById(id: string): CleanJourney {
  const c = CLEAN.find((x) => x.id === id);
  if (!c) throw new Error(`no clean journey ${id}`);
  return c;
}

function play(c: CleanJourney, flag: string | null): World {
  // a fault's world has its twin's name, so the two recordings differ only where the fault does
  const world = new World(c.id);
  const v = new Visit(world, { dev: c.dev ?? false });
  c.build(v, flag);
  // let every queued beacon and pending impression go out
  v.wait(10_000);
  return world;
}

export function buildClean(c: CleanJourney): World {
  return play(c, null);
}

export function buildFault(f: Fault): World {
  return play(cleanById(f.twin), f.flag);
}
