// The unseen set's journeys through search, category and autocomplete pages, merchandising redirects and
// infinite scroll; each plays its clean traffic or, given a flag, one fault.
import { ORIGIN, Visit, line } from '../heldout/client';
import { copy, data, impressByHand, on, results, secondTab, tile, type Flag } from './traffic';

// ----- search pages -----

export function searchToProduct(v: Visit, flag: Flag): void {
  if (flag === 'render-missing') on(v, (m) => (m.event === 'render' ? null : m));
  if (flag === 'render-with-results')
    on(v, (m) => {
      if (m.event !== 'render') return m;
      const c = copy(m);
      c.body.data!.results = ['P101', 'P102', 'P104'].map(tile);
      return c;
    });
  if (flag === 'no-debounce') v.noQueue = true;
  if (flag === 'impressions-held')
    on(v, (m) => (m.event === 'impression' ? { ...m, sentAt: m.sentAt + 6_000 } : m));
  if (flag === 'timestamp-skew')
    on(v, (m) => {
      // the storefront's local time (UTC-2) written as if it were UTC
      const c = copy(m);
      c.body.context.timestamp = new Date(
        Date.parse(m.body.context.timestamp) - 2 * 3_600_000,
      ).toISOString();
      return c;
    });
  if (flag === 'prod-test-search') v.test = true;
  if (flag === 'attribution-invented') v.attribution = [{ type: 'email', id: 'spring-news' }];
  v.load('/search?q=shirt');
  const r = v.search({ query: 'shirt', results: ['P101', 'P102', 'P104', 'P105', 'P106', 'P109'] });
  const visible = ['P101', 'P102', 'P104', 'P105'];
  if (flag === 'impressions-at-render') v.see(r, [...visible, 'P106', 'P109'], { after: 0 });
  else v.see(r, visible);
  v.wait(2_500);
  if (flag === 'impression-repeat') {
    // scrolled down and back up: the same tiles again
    v.wait(3_000);
    impressByHand(v, r, ['P101', 'P102']);
    v.wait(1_500);
  }
  if (flag === 'click-two-items')
    v.emit('search', 'clickthrough', { responseId: r.id, results: [tile('P102'), tile('P104')] });
  else if (flag === 'click-parentid-uid')
    v.emit('search', 'clickthrough', {
      responseId: r.id,
      results: [{ ...tile('P102'), parentId: 'P102' }],
    });
  else v.click(r, 'P102');
  if (flag === 'click-double') {
    v.wait(180);
    v.click(r, 'P102');
  }
  v.wait(150);
  v.load('/product/P102');
  v.productView('P102');
  v.wait(3_000);
}

export function searchCacheBack(v: Visit, flag: Flag): void {
  if (flag === 'cache-no-render') {
    let renders = 0;
    on(v, (m) => (m.event === 'render' && ++renders === 3 ? null : m));
  }
  v.load('/search?q=lamp');
  const r1 = v.search({ query: 'lamp', results: ['P101', 'P102', 'P105', 'P106'] });
  v.see(r1, ['P101', 'P102', 'P105']);
  v.wait(2_000);
  v.spa('/search?q=lamp&page=2');
  if (flag === 'page2-no-new-search') {
    // the page's own pager shows page 2 from its own data and tracks it with page 1's response
    v.wait(200);
    impressByHand(v, r1, ['P110', 'P111']);
    v.wait(2_000);
  } else {
    const r2 = v.search({ query: 'lamp', page: 2, results: ['P110', 'P111', 'P112'] });
    v.see(r2, ['P110', 'P111']);
    v.wait(2_000);
  }
  if (flag === 'cache-after-5min') v.wait(6 * 60_000);
  v.spa('/search?q=lamp');
  v.search(r1);
  if (flag !== 'cache-no-reimpression') v.see(r1, ['P101', 'P102', 'P105']);
  v.wait(2_000);
  v.click(r1, 'P105');
  v.wait(100);
  v.load('/product/P105');
  v.productView('P105');
  v.wait(2_000);
}

export function emptySearch(v: Visit, flag: Flag): void {
  v.load('/search?q=xyzzy');
  const r = v.search({ query: 'xyzzy', results: [] });
  if (flag === 'empty-impressions') {
    // "you may also like" tiles tracked with the empty search's response
    v.wait(1_100);
    for (const uid of ['P113', 'P114'])
      v.enqueue('search', 'impression', { responseId: r.id, results: [tile(uid)], banners: [] });
  }
  v.wait(3_000);
  v.spa('/search?q=mug');
  const r2 = v.search({ query: 'mug', results: ['P113', 'P114', 'P115'] });
  v.see(r2, ['P113', 'P114']);
  v.wait(2_000);
  v.autocomplete('zq', []);
  v.wait(3_000);
}

export function spaFilters(v: Visit, flag: Flag): void {
  const first = `${ORIGIN}/search?q=shirt`;
  if (flag === 'spa-stale-pageurl')
    on(v, (m) => {
      const c = copy(m);
      if (m.body.context.pageUrl.startsWith(`${ORIGIN}/search`)) c.body.context.pageUrl = first;
      return c;
    });
  v.load('/search?q=shirt');
  const r1 = v.search({ query: 'shirt', results: ['P101', 'P102', 'P104', 'P105'] });
  v.see(r1, ['P101', 'P102', 'P104']);
  v.wait(2_000);
  v.spa('/search?q=shirt&filter.color=blue');
  if (flag === 'spa-new-pageload') v.pageLoadId = v.world.id('pl');
  const r2 = v.search(
    { query: 'shirt', results: ['P101', 'P102', 'P116'] },
    flag === 'filter-render-late' ? { renderAfter: 2_500 } : {},
  );
  v.see(r2, flag === 'impressions-not-reset' ? ['P116'] : ['P101', 'P102', 'P116']);
  v.wait(3_000);
  v.spa('/search?q=shirt&filter.color=blue&sort=price');
  if (flag === 'spa-new-pageload') v.pageLoadId = v.world.id('pl');
  const r3 = v.search({ query: 'shirt', results: ['P116', 'P102', 'P101'] });
  v.see(r3, ['P116', 'P102']);
  v.wait(2_000);
  v.click(r3, 'P116');
  v.wait(100);
  v.load('/product/P116');
  v.productView('P116');
  v.wait(2_000);
}

export function reloadWithin10s(v: Visit, flag: Flag): void {
  v.load('/search?q=shirt');
  const r1 = v.search({ query: 'shirt', results: ['P101', 'P102'] });
  v.see(r1, ['P101', 'P102']);
  v.wait(3_000);
  // the shopper reloads: same href within 10 s, so the stored pageLoadId is reused
  v.load('/search?q=shirt');
  // the same request within the cache's 5 minutes: the same response, rendered on the reused pageLoadId
  const r2 = v.search(r1);
  v.see(r2, ['P101', 'P102']);
  v.wait(4_000);
  if (flag === 'new-href-same-pageload') {
    const keep = v.pageLoadId;
    v.load('/search?q=mug');
    v.pageLoadId = keep;
  } else v.load('/search?q=mug');
  const r3 = v.search({ query: 'mug', results: ['P113', 'P114'] });
  v.see(r3, ['P113']);
  v.wait(20_000);
  if (flag === 'reload-late-same-pageload') {
    const keep = v.pageLoadId;
    v.load('/search?q=mug');
    v.pageLoadId = keep;
  } else v.load('/search?q=mug');
  const r4 = v.search(r3);
  v.see(r4, ['P113', 'P114']);
  v.wait(2_000);
}

export function twoTabs(v: Visit, flag: Flag): void {
  v.load('/search?q=bag');
  const r = v.search({ query: 'bag', results: ['P108', 'P109', 'P110'] });
  v.see(r, ['P108', 'P109', 'P110']);
  v.wait(1_500);
  // opened in a new tab (middle click): the first tab stays
  const tab = secondTab(v);
  tab.load('/product/P108');
  if (flag === 'tabs-shared-pageload') tab.pageLoadId = v.pageLoadId;
  tab.productView('P108');
  const w = tab.recommend('similar', ['P109', 'P110', 'P119']);
  tab.see(w, ['P109', 'P110']);
  tab.wait(2_000);
  v.wait(2_000);
  v.click(r, 'P110');
  v.wait(100);
  v.load('/product/P110');
  v.productView('P110');
  v.wait(1_000);
  tab.wait(v.t - tab.t + 3_000);
}

export function quickClick(v: Visit, _flag: Flag): void {
  v.load('/search?q=candle');
  const r = v.search({ query: 'candle', results: ['P118', 'P119', 'P120'] });
  v.see(r, ['P118', 'P119', 'P120']);
  // clicked 600 ms after the tiles appeared: the click leaves before any impression, which the navigation loses
  v.wait(600);
  v.click(r, 'P119');
  v.wait(80);
  v.load('/product/P119');
  v.productView('P119');
  v.wait(2_000);
}

export function devSearch(v: Visit, flag: Flag): void {
  if (flag === 'dev-flag-dropped')
    on(v, (m) => {
      if (m.event !== 'clickthrough' && m.event !== 'pageview') return m;
      const c = copy(m);
      delete c.body.context.dev;
      return c;
    });
  if (flag === 'dev-prod-search') v.test = false;
  v.load('/search?q=lamp&dev');
  const r1 = v.search({ query: 'lamp', results: ['P101', 'P102', 'P105'] });
  v.see(r1, ['P101', 'P102']);
  v.wait(2_000);
  v.spa('/search?q=lamp&page=2&dev');
  const r2 = v.search({ query: 'lamp', page: 2, results: ['P110', 'P111'] });
  v.see(r2, ['P110']);
  v.wait(2_000);
  v.spa('/search?q=lamp&dev');
  // no cache in development mode: back to page 1 is a new request
  const back =
    flag === 'dev-cached'
      ? v.search(r1)
      : v.search({ query: 'lamp', results: ['P101', 'P102', 'P105'] });
  v.see(back, ['P101', 'P102']);
  v.wait(2_000);
  v.click(back, 'P101');
  v.wait(100);
  v.load('/product/P101?dev');
  v.productView('P101');
  v.wait(2_000);
}

export function banners(v: Visit, flag: Flag): void {
  if (flag === 'banner-name-uid')
    on(v, (m) => {
      if (!Array.isArray(data(m).banners) || (data(m).banners as unknown[]).length === 0) return m;
      const c = copy(m);
      c.body.data!.banners = [{ uid: 'summer-sale-hero' }];
      return c;
    });
  if (flag === 'banner-click-results-key')
    on(v, (m) => {
      if (m.event !== 'clickthrough' || !Array.isArray(data(m).banners)) return m;
      const c = copy(m);
      c.body.data!.results = [];
      return c;
    });
  if (flag === 'inline-as-product')
    on(v, (m) => {
      const rs = results(m);
      if (!rs.some((x) => x.type === 'banner')) return m;
      const c = copy(m);
      c.body.data!.results = rs.map((x) =>
        x.type === 'banner' ? { type: 'product', uid: x.uid, parentId: '', sku: '' } : x,
      );
      return c;
    });
  v.load('/search?q=sale');
  const r = v.search({
    query: 'sale',
    results: ['P101', 'P102', 'P104', 'P105'],
    banners: ['4471'],
    inline: [{ uid: 'ss-ib-2', index: 2 }],
  });
  v.seeBanner(r, '4471');
  v.see(
    r,
    flag === 'inline-never-impressed'
      ? ['P101', 'P102', 'P104']
      : ['P101', 'P102', 'ss-ib-2', 'P104'],
  );
  if (flag === 'banner-not-served') {
    v.wait(300);
    v.enqueue('search', 'impression', {
      responseId: r.id,
      banners: [{ uid: '5120' }],
      results: [],
    });
  }
  v.wait(2_500);
  v.click(r, 'ss-ib-2');
  v.wait(100);
  v.load('/pages/spring');
  v.wait(4_000);
  v.load('/search?q=sale');
  // back to the same search within 5 minutes: answered from the client cache on the new page load
  const again = v.search(r);
  v.seeBanner(again, '4471');
  v.wait(2_000);
  v.clickBanner(again, '4471');
  v.wait(100);
  v.load('/pages/spring');
  v.wait(2_000);
}

export function quickAddThenBack(v: Visit, flag: Flag): void {
  v.load('/search?q=candle');
  const r1 = v.search({ query: 'candle', results: ['P118', 'P119', 'P120'] });
  v.see(r1, ['P118', 'P119', 'P120']);
  v.wait(2_000);
  v.addToCart(r1, 'P120', 2);
  v.wait(1_000);
  v.spa('/search?q=candle&page=2');
  const r2 = v.search({ query: 'candle', page: 2, results: ['P107', 'P113'] });
  v.see(r2, ['P107', 'P113']);
  v.wait(2_000);
  v.spa('/search?q=candle');
  // the request carries the cart, which changed since page 1 was fetched: not a cache hit
  const back =
    flag === 'cache-ignores-cart'
      ? v.search(r1)
      : v.search({ query: 'candle', results: ['P118', 'P119', 'P120'] });
  v.see(back, ['P118', 'P119']);
  v.wait(2_000);
}

export function utmCached(v: Visit, _flag: Flag): void {
  v.load('/search?q=mug&utm_source=newsletter&utm_medium=email');
  const r = v.search({ query: 'mug', results: ['P113', 'P114', 'P115'] });
  v.see(r, ['P113', 'P114', 'P115']);
  v.wait(2_000);
  v.click(r, 'P114');
  v.wait(100);
  v.load('/product/P114');
  v.productView('P114');
  v.wait(20_000);
  // back to the results without the campaign parameters: utm_* never reach the request, so the same
  // request is answered from the cache on the new page load
  v.load('/search?q=mug');
  const again = v.search(r);
  v.see(again, ['P113', 'P114', 'P115']);
  v.wait(2_000);
}

// ----- redirects -----

export function singleResult(v: Visit, flag: Flag): void {
  v.load('/search?q=tealight');
  const r = v.search({ query: 'tealight', results: ['P107'] });
  if (flag === 'single-result-redirect-beacon')
    v.sendNow('search', 'redirect', { responseId: r.id, redirect: `${ORIGIN}/product/P107` });
  // the page navigates to the only product at once: the queued render goes with it
  if (flag === 'unload-flush') v.sendNow('search', 'render', { responseId: r.id });
  v.wait(120);
  v.load('/product/P107');
  v.productView('P107');
  const w = v.recommend('similar', ['P118', 'P120']);
  v.see(w, ['P118', 'P120']);
  v.wait(2_500);
}

export function merchRedirect(v: Visit, flag: Flag): void {
  const target = `${ORIGIN}/pages/returns`;
  if (flag === 'redirect-wrong-url')
    on(v, (m) => {
      if (m.event !== 'redirect') return m;
      const c = copy(m);
      c.body.data!.redirect = `${ORIGIN}/search?q=returns`;
      return c;
    });
  v.load('/search?q=shirt');
  const s = v.search({ query: 'shirt', results: ['P101', 'P102'] });
  v.see(s, ['P101', 'P102']);
  v.wait(2_000);
  // a second term, submitted from the header's search form (a full page load), has a merchandising
  // redirect; the controller follows it only while its store is not loaded yet
  if (flag === 'redirect-store-loaded') v.spa('/search?q=returns');
  else v.load('/search?q=returns');
  if (flag === 'redirect-with-render') {
    v.wait(220);
    const r = v.serve({ query: 'returns', results: [], redirect: target });
    v.sendNow('search', 'render', { responseId: r.id });
    v.sendNow('search', 'redirect', { responseId: r.id, redirect: target });
  } else v.search({ query: 'returns', results: [], redirect: target });
  if (flag === 'redirect-stays') {
    v.wait(3_000);
    v.spa('/search?q=shirt');
    const again = v.search(s);
    v.see(again, ['P101']);
    v.wait(2_000);
    return;
  }
  v.wait(60);
  v.load(target);
  v.wait(3_000);
}

export function categoryRedirect(v: Visit, flag: Flag): void {
  v.load('/c/outlet');
  const target = `${ORIGIN}/pages/outlet-closed`;
  if (flag === 'category-redirect-silent') {
    // the theme follows the response's redirect itself, before the controller sees the response
    v.wait(220);
    v.serve({ kind: 'category', results: [], redirect: target });
  } else v.search({ kind: 'category', results: [], redirect: target });
  v.wait(60);
  v.load(target);
  v.wait(2_000);
  v.load('/c/kitchen');
  const c = v.search({ kind: 'category', results: ['P113', 'P114', 'P115'] });
  v.see(c, ['P113', 'P114']);
  v.wait(2_000);
}

// ----- infinite scroll -----

export function infiniteScroll(v: Visit, flag: Flag): void {
  if (flag === 'infinite-new-pageload')
    on(v, (m) => {
      if (m.body.context.pageUrl !== `${ORIGIN}/search?q=mug&page=2`) return m;
      const c = copy(m);
      c.body.context.pageLoadId = `${m.body.context.pageLoadId}-p2`;
      return c;
    });
  v.load('/search?q=mug');
  const r1 = v.search({ query: 'mug', results: ['P113', 'P114', 'P115', 'P116'] });
  v.see(r1, ['P113', 'P114', 'P115', 'P116']);
  v.wait(2_000);
  v.spa('/search?q=mug&page=2');
  const r2 = v.search(
    { query: 'mug', page: 2, results: ['P117', 'P118', 'P119'] },
    { infinite: true },
  );
  if (flag === 'infinite-page1-id') {
    v.wait(1_100);
    impressByHand(v, r2, ['P117', 'P118'], r1.id);
  } else v.see(r2, ['P117', 'P118']);
  if (flag === 'infinite-reimpress') {
    v.wait(1_100);
    impressByHand(v, r1, ['P113', 'P114', 'P115', 'P116']);
  }
  v.wait(2_000);
  if (flag === 'infinite-page1-id')
    v.emit('search', 'clickthrough', { responseId: r1.id, results: [tile('P118')] });
  else v.click(r2, 'P118');
  v.wait(100);
  v.load('/product/P118');
  v.productView('P118');
  v.wait(2_000);
}

export function backfill(v: Visit, flag: Flag): void {
  // back from a product to an infinite list scrolled to page 3: pages 1-3 are fetched and shown at once
  v.load('/search?q=mug&page=3');
  v.wait(220);
  const r1 = v.serve({ query: 'mug', results: ['P113', 'P114'] });
  const r2 = v.serve({ query: 'mug', page: 2, results: ['P115', 'P116'] });
  const r3 = v.serve({ query: 'mug', page: 3, results: ['P117', 'P118'] });
  v.enqueue('search', 'render', { responseId: r1.id });
  if (flag === 'backfill-render-each') {
    v.enqueue('search', 'render', { responseId: r2.id });
    v.enqueue('search', 'render', { responseId: r3.id });
  }
  v.see(r2, ['P116']);
  v.see(r3, ['P117', 'P118']);
  v.wait(2_000);
  v.click(r3, 'P117');
  v.wait(100);
  v.load('/product/P117');
  v.productView('P117');
  v.wait(2_000);
}

// ----- autocomplete -----

export function autocompleteToProduct(v: Visit, flag: Flag): void {
  if (flag === 'ac-on-search-endpoint')
    on(v, (m) => (m.category === 'autocomplete' ? { ...m, category: 'search' } : m));
  if (flag === 'ac-click-search-endpoint')
    on(v, (m) =>
      m.category === 'autocomplete' && m.event === 'clickthrough'
        ? { ...m, category: 'search' }
        : m,
    );
  v.load('/');
  v.autocomplete('sh', ['P101', 'P102', 'P104']);
  v.wait(150);
  const a = v.autocomplete('shi', ['P101', 'P102', 'P116']);
  if (flag === 'ac-tiles-immediate') v.see(a, ['P101', 'P102', 'P116'], { after: 0 });
  else v.see(a, ['P101', 'P102', 'P116']);
  v.wait(2_000);
  // the shopper deletes a letter and types it again: the same response, shown again without a render
  if (flag === 'ac-repeat-render') v.enqueue('autocomplete', 'render', { responseId: a.id });
  v.wait(1_500);
  v.click(a, 'P116');
  v.wait(100);
  v.load('/product/P116');
  v.productView('P116');
  v.wait(2_000);
}

export function autocompleteSubmit(v: Visit, flag: Flag): void {
  let acId = '';
  if (flag === 'ac-id-on-search-render')
    on(v, (m) => {
      if (m.category !== 'search' || m.event !== 'render') return m;
      const c = copy(m);
      c.body.data!.responseId = acId;
      return c;
    });
  v.load('/');
  const target = `${ORIGIN}/pages/gift-cards`;
  const g = v.search(
    { kind: 'autocomplete', query: 'gift card', results: [], redirect: target },
    { latency: 120 },
  );
  v.wait(1_200);
  if (flag === 'ac-redirect-search-endpoint')
    v.sendNow('search', 'redirect', { responseId: g.id, redirect: target });
  else v.acRedirect(g, target);
  v.wait(50);
  v.load(target);
  v.wait(5_000);
  const a = v.autocomplete('mug', ['P113', 'P114']);
  acId = a.id;
  v.see(a, ['P113', 'P114']);
  v.wait(1_800);
  // the term is submitted: a plain navigation to the results page
  v.load('/search?q=mug');
  const r = v.search({ query: 'mug', results: ['P113', 'P114', 'P115'] });
  v.see(r, ['P113', 'P114', 'P115']);
  v.wait(2_000);
}

// ----- category -----

export function categoryQuickAdd(v: Visit, flag: Flag): void {
  if (flag === 'category-on-search')
    on(v, (m) => (m.category === 'category' ? { ...m, category: 'search' } : m));
  if (flag === 'addtocart-qty-zero' || flag === 'addtocart-cents')
    on(v, (m) => {
      if (m.event !== 'addtocart') return m;
      const c = copy(m);
      c.body.data!.results = results(m).map((x) =>
        flag === 'addtocart-qty-zero' ? { ...x, qty: 0 } : { ...x, price: Number(x.price) * 100 },
      );
      return c;
    });
  if (
    flag === 'cart-add-total-qty' ||
    flag === 'cart-add-partial-cart' ||
    flag === 'cart-parentid-empty'
  )
    on(v, (m) => {
      if (m.category !== 'cart') return m;
      const c = copy(m);
      const d = c.body.data!;
      if (flag === 'cart-add-total-qty')
        d.results = results(m).map((x) => (x.uid === 'P104' ? { ...x, qty: 2 } : x));
      if (flag === 'cart-add-partial-cart')
        d.cart = (d.cart as Array<{ uid: string }>).filter((x) => x.uid !== 'P104');
      if (flag === 'cart-parentid-empty')
        for (const k of ['results', 'cart'])
          d[k] = (d[k] as Array<Record<string, unknown>>).map((x) => ({ ...x, parentId: '' }));
      return c;
    });
  v.load('/c/kitchen');
  const r = v.search({ kind: 'category', results: ['P104', 'P111', 'P113', 'P114'] });
  v.see(r, ['P104', 'P111', 'P113']);
  v.wait(2_000);
  v.addToCart(r, 'P104');
  if (flag === 'addtocart-also-cart-add') {
    const item = { parentId: 'P104', uid: 'P104', sku: 'S-104', qty: 1, price: 12.99 };
    v.sendNow('cart', 'add', { results: [item], cart: [item] });
  }
  v.wait(1_000);
  v.click(r, 'P111');
  v.wait(100);
  v.load('/product/P111');
  v.productView('P111');
  v.wait(3_000);
  // added from the product page's own button (no beacon), then a second P104 in the mini cart
  v.load('/cart', { cart: [line('P104', 2), line('P111')] });
  v.wait(3_000);
}
