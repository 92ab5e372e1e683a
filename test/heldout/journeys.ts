// The held-out journeys: storefront visits as the provider's client sends them (clean), and faults, each a
// minimal change of one clean journey (its twin) that a storefront integration or a storefront bug could
// send and the real client could not. Written from what the client sends, apart from the sandbox's rules.
import { ORIGIN, T0, Visit, World, line, type CartLine, type Message } from './client';

export const PRINCIPLES = [
  'binding',
  'one-response-per-controller',
  'timing',
  'place',
  'ids-and-values',
  'cart-ledger',
  'identity',
  'empty',
  'other-page-kinds',
] as const;
export type Principle = (typeof PRINCIPLES)[number];

type Flags = ReadonlySet<string>;
export type Builder = (f: Flags) => World;

export interface CleanJourney {
  id: string;
  /** the principle whose faults are built on it (`empty`: judged with any finding at all a false alarm) */
  principle: Principle;
  description: string;
  builder: Builder;
  flags: string[];
}

export interface Fault {
  id: string;
  principle: Principle;
  /** the clean journey this fault changes */
  twin: string;
  /** the flag that turns the fault on in the twin's builder */
  flag: string;
  description: string;
  /** the line of the client facts (what the provider's client sends) that this traffic contradicts */
  contradicts: string;
}

// ----- helpers for faults -----

function dataOf(m: Message): Record<string, unknown> {
  return m.body.data ?? {};
}

function resultsOf(m: Message): Array<Record<string, unknown>> {
  return (dataOf(m).results as Array<Record<string, unknown>> | undefined) ?? [];
}

/** Change the n-th (1-based) beacon sent to `category/event`. */
function patchNth(
  v: Visit,
  category: string,
  event: string,
  n: number,
  fn: (m: Message) => Message | Message[] | null,
): void {
  let seen = 0;
  v.transforms.push((m) => {
    if (m.category !== category || m.event !== event) return m;
    seen++;
    return seen === n ? fn(m) : m;
  });
}

/** Change every beacon matching `pred`. */
function patchAll(
  v: Visit,
  pred: (m: Message) => boolean,
  fn: (m: Message) => Message | Message[] | null,
): void {
  v.transforms.push((m) => (pred(m) ? fn(m) : m));
}

function withData(m: Message, data: Record<string, unknown>): Message {
  return { ...m, body: { ...m.body, data } };
}

function withContext(m: Message, ctx: Partial<Message['body']['context']>): Message {
  return { ...m, body: { ...m.body, context: { ...m.body.context, ...ctx } } };
}

function shiftTimestamp(m: Message, ms: number): Message {
  return withContext(m, {
    timestamp: new Date(Date.parse(m.body.context.timestamp) + ms).toISOString(),
  });
}

function cartLines(list: CartLine[]): Array<Record<string, unknown>> {
  return list.map((c) => ({
    parentId: c.parentId,
    uid: c.uid,
    sku: c.sku,
    qty: c.qty,
    price: c.price,
  }));
}

/** Drop the n-th render of one response (a storefront that skips renders of cached responses). */
function dropNthRender(v: Visit, responseId: string, n: number): void {
  let seen = 0;
  v.transforms.push((m) => {
    if (m.event !== 'render' || dataOf(m).responseId !== responseId) return m;
    seen++;
    return seen === n ? null : m;
  });
}

const SHOES = ['P101', 'P102', 'P103', 'P104', 'P105', 'P106'];
const PAGE1 = ['P101', 'P102', 'P103', 'P104', 'P105', 'P106'];
const PAGE2 = ['P107', 'P108', 'P109', 'P110', 'P111', 'P112'];
const PAGE3 = ['P113', 'P114', 'P115', 'P116', 'P117', 'P118'];

// ----- builders -----

/** A search page: render, impressions of the first row and a slot banner, a scroll, a click, the product page. */
const searchPage: Builder = (f) => {
  const w = new World('search-basic');
  const v = new Visit(w);
  if (f.has('clock-offset'))
    patchAll(
      v,
      () => true,
      (m) => shiftTimestamp(m, 3_600_000),
    );
  if (f.has('no-debounce')) v.noQueue = true;
  if (f.has('parentid-from-sku'))
    patchAll(
      v,
      (m) => m.event === 'impression',
      (m) =>
        withData(m, {
          ...dataOf(m),
          results: resultsOf(m).map((it) => ({ ...it, parentId: it.sku })),
        }),
    );
  v.load('/search?q=shoes');
  const searchPl = v.pageLoadId;
  const loadedAt = new Date(T0 + v.t).toISOString();
  if (f.has('one-timestamp'))
    patchAll(
      v,
      (m) => m.body.context.pageLoadId === searchPl,
      (m) => withContext(m, { timestamp: loadedAt }),
    );
  const r = v.search(
    { query: 'shoes', results: SHOES, banners: ['501'] },
    { renderAfter: f.has('render-late') ? 2_500 : 0 },
  );
  v.see(r, SHOES.slice(0, 4), f.has('impress-at-render') ? { after: 0 } : {}).seeBanner(r, '501');
  v.wait(2_600);
  v.see(r, SHOES.slice(4), f.has('impress-at-render') ? { after: 0 } : {});
  v.wait(3_000);
  if (f.has('click-neighbour-sku'))
    v.emit('search', 'clickthrough', {
      responseId: r.id,
      results: [{ type: 'product', uid: 'P102', parentId: '', sku: 'S-103' }],
    });
  else if (!f.has('click-from-product-page')) v.click(r, 'P102');
  v.wait(400);
  v.load('/products/p102');
  if (f.has('click-from-product-page')) v.click(r, 'P102');
  v.productView(f.has('wrong-product-after-click') ? 'P101' : 'P102');
  v.wait(5_000);
  return w;
};

/** An SPA search page: page 2, a filter, a sort (quickly after the filter), add to cart, a click. */
const spaPaging: Builder = (f) => {
  const w = new World('spa');
  const v = new Visit(w);
  if (f.has('context-at-send')) v.contextAtSend = true;
  const route = (url: string) => {
    v.spa(url);
    if (f.has('pageloadid-per-route')) v.pageLoadId = w.id('pl');
  };
  v.load('/search?q=shoes');
  const r1 = v.search({ query: 'shoes', perPage: 6, results: PAGE1 });
  v.see(r1, PAGE1).wait(4_000);
  route('/search?q=shoes&page=2');
  const r2 = v.search({ query: 'shoes', page: 2, perPage: 6, results: PAGE2 });
  v.see(r2, PAGE2).wait(4_000);
  if (f.has('back-to-one')) {
    // back to page 1 (browser back in the SPA): the client's cache answers with page 1's response, rendered again
    // page 1's first render went out long ago: the next one is the cached response's
    if (f.has('cached-no-render')) dropNthRender(v, r1.id, 1);
    route('/search?q=shoes');
    const again = v.search(r1);
    v.see(again, PAGE1.slice(0, 4)).wait(3_000);
    v.click(again, 'P103').wait(300);
    v.load('/products/p103').productView('P103').wait(4_000);
    return w;
  }
  route('/search?q=shoes&filter.color=red');
  const r3 = v.search({ query: 'shoes', perPage: 6, results: ['P101', 'P104', 'P109'] });
  v.see(r3, ['P101', 'P104', 'P109']).wait(1_100);
  route('/search?q=shoes&filter.color=red&sort=price:asc');
  let r4Id = '';
  if (f.has('impress-one-behind'))
    patchAll(
      v,
      (m) => m.event === 'impression' && dataOf(m).responseId === r4Id,
      (m) => withData(m, { ...dataOf(m), responseId: r3.id }),
    );
  const r4 = v.search({ query: 'shoes', perPage: 6, results: ['P104', 'P101', 'P109'] });
  r4Id = r4.id;
  v.see(r4, ['P104', 'P101', 'P109']).wait(3_000);
  v.addToCart(f.has('addtocart-stale') ? r3 : r4, 'P104');
  v.wait(2_000);
  v.click(f.has('click-stale') ? r3 : r4, 'P109');
  v.wait(300);
  v.load('/products/p109').productView('P109').wait(4_000);
  return w;
};

/** Infinite scroll: page 2 appended; a page-1 tile clicked afterwards (still on screen, its own response). */
const infinite: Builder = (f) => {
  const w = new World('infinite');
  const v = new Visit(w);
  v.load('/search?q=shirts');
  const r1 = v.search({ query: 'shirts', perPage: 6, results: PAGE1 });
  v.see(r1, PAGE1.slice(0, 4)).wait(2_500);
  v.see(r1, PAGE1.slice(4)).wait(2_500);
  v.spa('/search?q=shirts&page=2');
  const r2 = v.search({ query: 'shirts', page: 2, perPage: 6, results: PAGE2 }, { infinite: true });
  v.see(r2, PAGE2.slice(0, 4));
  if (f.has('reimpress-page-one')) {
    v.wait(1_020);
    for (const uid of PAGE1)
      v.enqueue('search', 'impression', {
        responseId: r1.id,
        results: [v.item(r1, uid)],
        banners: [],
      });
    v.wait(2_000);
  } else v.wait(3_020);
  if (f.has('click-current-response'))
    v.emit('search', 'clickthrough', { responseId: r2.id, results: [v.item(r1, 'P103')] });
  else v.click(r1, 'P103');
  v.wait(300);
  v.load('/products/p103').productView('P103').wait(4_000);
  return w;
};

/** Infinite-scroll backfill on load (page 3 restored): one render of page 1, tiles impressed with their own ids. */
const backfill: Builder = (f) => {
  const w = new World('backfill');
  const v = new Visit(w);
  v.load('/search?q=shirts&page=3');
  v.wait(260);
  const r1 = v.serve({ query: 'shirts', perPage: 6, results: PAGE1 });
  const r2 = v.serve({ query: 'shirts', page: 2, perPage: 6, results: PAGE2 });
  const r3 = v.serve({ query: 'shirts', page: 3, perPage: 6, results: PAGE3 });
  v.enqueue('search', 'render', { responseId: r1.id });
  if (f.has('backfill-first-id'))
    patchAll(
      v,
      (m) => m.event === 'impression' && dataOf(m).responseId === r3.id,
      (m) => withData(m, { ...dataOf(m), responseId: r1.id }),
    );
  v.see(r3, PAGE3.slice(0, 4)).wait(3_000);
  v.see(r2, PAGE2.slice(3)).wait(3_000);
  v.click(r2, 'P111').wait(300);
  v.load('/products/p111').productView('P111').wait(4_000);
  return w;
};

/** Back navigation to a search page after a product page: cached (same responseId) or a fresh response. */
const backNavigation: Builder = (f) => {
  const w = new World('back');
  const v = new Visit(w, { dev: f.has('dev') });
  v.load('/search?q=shoes');
  const r = v.search({ query: 'shoes', results: SHOES.slice(0, 4) });
  if (f.has('cached-no-render')) dropNthRender(v, r.id, 2);
  v.see(r, SHOES.slice(0, 4)).wait(3_000);
  v.click(r, 'P101').wait(300);
  v.load('/products/p101').productView('P101');
  v.wait(f.has('late') ? 20 * 60_000 : 20_000);
  const query = f.has('other-query') ? 'sneakers' : 'shoes';
  const url = f.has('other-filter')
    ? '/search?q=shoes&filter.color=red'
    : `/search?q=${encodeURIComponent(query)}`;
  v.load(url);
  const again = f.has('reuse')
    ? v.search(r)
    : v.search({
        query,
        results: f.has('other-filter')
          ? ['P101', 'P104']
          : f.has('other-query')
            ? ['P105', 'P104', 'P109']
            : SHOES.slice(0, 4),
      });
  const tiles = again.results.map((x) => x.uid);
  v.see(again, tiles).wait(3_000);
  v.click(again, 'P104').wait(300);
  v.load('/products/p104').productView('P104').wait(4_000);
  return w;
};

/** Two shoppers (two browsers) search the same query a minute apart, each getting their own response. */
const twoShoppers: Builder = (f) => {
  const w = new World('two-shoppers');
  const a = new Visit(w);
  a.load('/search?q=shoes');
  const ra = a.search({ query: 'shoes', results: SHOES.slice(0, 4) });
  a.see(ra, SHOES.slice(0, 4)).wait(3_000);
  a.click(ra, 'P101').wait(300);
  a.load('/products/p101').productView('P101').wait(5_000);
  const b = new Visit(w, { start: 60_000 });
  b.load('/search?q=shoes');
  const rb = f.has('shared-response')
    ? b.search(ra)
    : b.search({ query: 'shoes', results: SHOES.slice(0, 4) });
  b.see(rb, SHOES.slice(0, 4)).wait(3_000);
  b.click(rb, 'P102').wait(300);
  b.load('/products/p102').productView('P102').wait(5_000);
  return w;
};

/** A merchandising redirect: search/redirect at once, no render, then the landing page (a trending widget). */
const merchRedirect: Builder = (f) => {
  const w = new World('merch-redirect');
  const v = new Visit(w);
  const target = `${ORIGIN}/pages/returns`;
  if (f.has('redirect-url-mismatch'))
    patchNth(v, 'search', 'redirect', 1, (m) =>
      withData(m, { ...dataOf(m), redirect: `${ORIGIN}/pages/returns-and-exchanges` }),
    );
  if (f.has('redirect-from-landing')) patchNth(v, 'search', 'redirect', 1, () => null);
  v.load('/search?q=returns');
  const r = v.search({ query: 'returns', results: ['P107'], redirect: target });
  if (f.has('redirect-and-render')) {
    v.enqueue('search', 'render', { responseId: r.id });
    v.wait(330);
  } else v.wait(30);
  v.load(target);
  if (f.has('redirect-from-landing')) {
    v.transforms = [];
    v.sendNow('search', 'redirect', { responseId: r.id, redirect: target });
  }
  const t = v.recommend('trending', ['P110', 'P111', 'P112']);
  v.see(t, ['P110', 'P111', 'P112']).wait(4_000);
  return w;
};

/** A single-result redirect: the render is queued (and sent), then the page goes to the product. */
const singleResult: Builder = (f) => {
  const w = new World('single-result');
  const v = new Visit(w);
  v.load('/search?q=S-1031');
  const r = v.search({ query: 'S-1031', results: ['P103'] });
  const target = `${ORIGIN}/products/p103?variant=1031`;
  if (f.has('single-as-redirect'))
    v.sendNow('search', 'redirect', { responseId: r.id, redirect: target });
  v.wait(320);
  v.load(target).productView('P103', { childUid: '1031' }).wait(4_000);
  return w;
};

/** Autocomplete on the home page: two responses as the shopper types, a click on a dropdown product. */
const autocomplete: Builder = (f) => {
  const w = new World('autocomplete');
  const v = new Visit(w);
  v.load('/');
  v.wait(2_000);
  const a1 = v.autocomplete('sh', ['P101', 'P102', 'P103']);
  v.see(a1, ['P101', 'P102', 'P103']).wait(1_600);
  const a2 = v.autocomplete('sho', ['P101', 'P103', 'P104']);
  v.see(a2, ['P101', 'P103', 'P104']).wait(1_600);
  // the shopper types a space: a repeated search with the response already shown, no render
  if (f.has('ac-rerender')) v.enqueue('autocomplete', 'render', { responseId: a2.id });
  v.wait(1_000);
  if (f.has('ac-click-on-search'))
    v.emit('search', 'clickthrough', { responseId: a2.id, results: [v.item(a2, 'P101')] });
  else v.click(f.has('ac-click-stale') ? a1 : a2, 'P101');
  v.wait(200);
  v.load('/products/p101').productView('P101').wait(4_000);
  return w;
};

/** Autocomplete whose response has a redirect: the submitted term sends autocomplete/redirect, then navigates. */
const acRedirect: Builder = (f) => {
  const w = new World('ac-redirect');
  const v = new Visit(w);
  const target = `${ORIGIN}/pages/returns`;
  if (f.has('ac-redirect-on-search'))
    patchAll(
      v,
      (m) => m.category === 'autocomplete' && m.event === 'redirect',
      (m) => ({ ...m, category: 'search' }),
    );
  if (f.has('ac-redirect-from-landing'))
    patchAll(
      v,
      (m) => m.category === 'autocomplete' && m.event === 'redirect',
      () => null,
    );
  v.load('/').wait(3_000);
  const a = v.search(
    { kind: 'autocomplete', query: 'returns', results: ['P107'], redirect: target },
    { latency: 120 },
  );
  v.see(a, ['P107']).wait(1_500);
  v.acRedirect(a, target).wait(20);
  v.load(target);
  if (f.has('ac-redirect-from-landing')) {
    v.transforms = [];
    v.acRedirect(a, target);
  }
  const t = v.recommend('trending', ['P110', 'P111', 'P112']);
  v.see(t, ['P110', 'P111', 'P112']).wait(4_000);
  return w;
};

/** A shopper arrives from an e-mail recommendation: context.attribution is kept for the session. */
const emailLanding: Builder = (f) => {
  const w = new World('email');
  const v = new Visit(w);
  if (f.has('attribution-lost'))
    patchAll(
      v,
      (m) => !m.body.context.pageUrl.includes('athos_attribution'),
      (m) => {
        const { attribution: _drop, ...context } = m.body.context;
        return { ...m, body: { ...m.body, context } };
      },
    );
  v.load('/products/p114?athos_attribution=email:camp-42').productView('P114');
  const s = v.recommend('similar', ['P115', 'P116', 'P118']);
  v.see(s, ['P115', 'P116', 'P118']).wait(3_000);
  v.click(s, 'P116').wait(300);
  v.load('/products/p116').productView('P116').wait(5_000);
  v.load('/cart', { cart: [line('P116')] }).wait(5_000);
  return w;
};

/** A product page with three widgets; the shopper picks a variant, the similar widget reloads, add to cart. */
const productWidgets: Builder = (f) => {
  const w = new World('widgets');
  const v = new Visit(w);
  if (f.has('bundles-as-recommendations'))
    patchAll(
      v,
      (m) => m.category === 'bundles',
      (m) => ({ ...m, category: 'recommendations' }),
    );
  if (f.has('recs-uid-from-sku'))
    patchAll(
      v,
      (m) =>
        m.category === 'recommendations' && m.event === 'impression' && dataOf(m).tag === 'similar',
      (m) =>
        withData(m, { ...dataOf(m), results: resultsOf(m).map((it) => ({ ...it, uid: it.sku })) }),
    );
  if (f.has('wrong-tag'))
    patchAll(
      v,
      (m) => m.category === 'recommendations' && m.event === 'addtocart',
      (m) => withData(m, { ...dataOf(m), tag: 'viewed' }),
    );
  v.load('/products/p103');
  if (f.has('pageview-wrong-product')) v.productView('P105');
  else if (f.has('pageview-sku-only'))
    v.emit('product', 'pageview', { result: { parentId: '', uid: '', sku: 'S-103' } });
  else if (f.has('pageview-no-parent'))
    v.emit('product', 'pageview', { result: { parentId: '', uid: 'P103', sku: 'S-103' } });
  else v.productView('P103');
  const s = v.recommend('similar', ['P105', 'P106', 'P109', 'P110']);
  const vw = v.recommend('viewed', ['P102', 'P104']);
  const b = v.recommend('bundle-fbt', ['P104', 'P107'], { bundle: true });
  v.see(s, ['P105', 'P106', 'P109', 'P110']).see(vw, ['P102', 'P104']).see(b, ['P104', 'P107']);
  v.wait(4_000);
  // the shopper picks variant 1031: the storefront reloads the similar widget for it
  const s2 = v.recommend('similar', ['P105', 'P106', 'P112', 'P110']);
  v.see(s2, ['P105', 'P106', 'P112', 'P110']).wait(3_000);
  v.addToCart(f.has('widget-stale') ? s : s2, 'P106');
  v.wait(2_000);
  v.load('/cart', { cart: [line('P106')] });
  const t = v.recommend('trending', ['P113', 'P114']);
  v.see(t, ['P113', 'P114']).wait(4_000);
  return w;
};

/** A category page (same controller, category endpoints), a click, the product page. */
const categoryPage: Builder = (f) => {
  const w = new World('category');
  const v = new Visit(w);
  if (f.has('category-as-search'))
    patchAll(
      v,
      (m) => m.category === 'category',
      (m) => ({ ...m, category: 'search' }),
    );
  v.load('/collections/shoes');
  const r = v.search({ kind: 'category', results: SHOES });
  v.see(r, SHOES.slice(0, 4)).wait(2_500);
  v.see(r, SHOES.slice(4)).wait(2_500);
  v.click(r, 'P105').wait(300);
  v.load('/products/p105').productView('P105').wait(4_000);
  return w;
};

/** The whole visit: search, product (variant), cart changes over four cart pages, checkout, the order. */
const fullVisit: Builder = (f) => {
  const w = new World('full-visit');
  const v = new Visit(w);
  const c1 = [line('P103', 1, '1030')];
  const c2 = [line('P103', 1, '1030'), line('P110', 1)];
  const c3 = [line('P103', 1, '1030'), line('P110', 3)];
  const c4 = [line('P103', 1, '1030'), line('P110', 2)];
  if (f.has('add-cart-before'))
    patchNth(v, 'cart', 'add', 2, (m) => withData(m, { ...dataOf(m), cart: cartLines(c1) }));
  if (f.has('add-whole-cart'))
    patchNth(v, 'cart', 'add', 2, (m) => withData(m, { ...dataOf(m), results: cartLines(c2) }));
  if (f.has('add-qty-total'))
    patchNth(v, 'cart', 'add', 3, (m) =>
      withData(m, { ...dataOf(m), results: cartLines([line('P110', 3)]) }),
    );
  if (f.has('add-drops-item'))
    patchNth(v, 'cart', 'add', 3, (m) =>
      withData(m, { ...dataOf(m), cart: cartLines([line('P110', 3)]) }),
    );
  if (f.has('remove-cart-stale'))
    patchNth(v, 'cart', 'remove', 1, (m) => withData(m, { ...dataOf(m), cart: cartLines(c3) }));
  if (f.has('cart-parent-for-variant'))
    patchNth(v, 'cart', 'add', 1, (m) =>
      withData(m, {
        ...dataOf(m),
        cart: [{ parentId: 'P103', uid: 'P103', sku: 'S-103', qty: 1, price: 40 }],
      }),
    );
  if (f.has('cart-empty-parent'))
    patchAll(
      v,
      (m) => m.category === 'cart',
      (m) =>
        withData(m, {
          ...dataOf(m),
          results: resultsOf(m).map((it) => ({ ...it, parentId: '' })),
          cart: ((dataOf(m).cart as Array<Record<string, unknown>>) ?? []).map((it) => ({
            ...it,
            parentId: '',
          })),
        }),
    );
  v.load('/search?q=tee');
  const r = v.search({ query: 'tee', results: ['P103', 'P108', 'P102', 'P110'] });
  v.see(r, ['P103', 'P108', 'P102', 'P110']).wait(2_500);
  v.click(r, 'P103').wait(250);
  v.load('/products/p103');
  if (f.has('variant-sku-mismatch'))
    v.emit('product', 'pageview', { result: { parentId: 'P103', uid: '1030', sku: 'S-1031' } });
  else v.productView('P103', { childUid: '1030' });
  v.wait(6_000);
  v.load('/cart', { cart: c1 }).wait(8_000);
  v.load('/products/p110').productView('P110').wait(5_000);
  v.load('/cart', { cart: c2 });
  if (f.has('remove-phantom'))
    v.sendNow('cart', 'remove', { results: cartLines([line('P107', 1)]), cart: cartLines(c2) });
  v.wait(6_000);
  v.load('/cart?updated=1', { cart: c3 }).wait(8_000);
  v.load('/cart?updated=2', { cart: c4 }).wait(20_000);
  const thanks = '/checkout/thank-you?order=1001';
  if (f.has('checkout-new-user')) v.userId = w.id('user');
  if (f.has('shopper-at-checkout'))
    patchAll(
      v,
      (m) => m.body.context.pageUrl.includes('/checkout/'),
      (m) => withContext(m, { shopperId: 'cust-901' }),
    );
  v.load(thanks, { cart: [] });
  const lines = [line('P103', 1, '1030'), line('P110', 2)];
  let order = { id: '1001', transactionTotal: 104, total: 112.32, lines };
  if (f.has('order-cents'))
    order = { ...order, lines: lines.map((l) => ({ ...l, price: l.price * 100 })) };
  if (f.has('order-line-total'))
    order = { ...order, lines: lines.map((l) => ({ ...l, price: l.price * l.qty })) };
  if (f.has('order-total-cents')) order = { ...order, transactionTotal: 10_400, total: 11_232 };
  if (f.has('order-total-zero')) order = { ...order, transactionTotal: 0, total: 0 };
  if (f.has('order-no-lines')) order = { ...order, lines: [] };
  if (f.has('order-sku-only'))
    patchNth(v, 'order', 'transaction', 1, (m) =>
      withData(m, {
        ...dataOf(m),
        results: resultsOf(m).map((it) =>
          it.uid === '1030' ? { parentId: '', uid: '', sku: 'S-1030', qty: 1, price: 40 } : it,
        ),
      }),
    );
  if (f.has('order-vat-percent'))
    patchNth(v, 'order', 'transaction', 1, (m) => withData(m, { ...dataOf(m), vat: 20 }));
  v.order(order).wait(5_000);
  return w;
};

/** Quick adds from tiles (two within 100 ms: one merged request), the parent's variant in the cart, the order. */
const quickAdd: Builder = (f) => {
  const w = new World('quick-add');
  const v = new Visit(w);
  v.load('/search?q=tee');
  const r = v.search({ query: 'tee', results: ['P103', 'P101', 'P102', 'P110'] });
  v.see(r, ['P103', 'P101', 'P102', 'P110']).wait(2_500);
  if (f.has('addtocart-no-debounce')) v.noQueue = true;
  v.addToCart(r, 'P101').wait(100);
  v.addToCart(r, 'P103');
  v.noQueue = false;
  v.wait(3_000);
  const cart = [line('P101'), line('P103', 1, '1030')];
  v.load('/cart', { cart });
  if (f.has('cart-readd'))
    v.sendNow('cart', 'add', { results: cartLines([line('P101')]), cart: cartLines(cart) });
  v.wait(8_000);
  v.load('/checkout/thank-you?order=A-77', { cart: [] });
  v.order({ id: 'A-77', transactionTotal: 129, total: 139.5, lines: cart }).wait(4_000);
  return w;
};

/** A search, a login, searches and a product page as the logged-in shopper. */
const login: Builder = (f) => {
  const w = new World('login');
  const v = new Visit(w);
  if (f.has('login-no-id'))
    patchAll(
      v,
      (m) => m.category === 'shopper',
      (m) => withContext(m, { shopperId: '' }),
    );
  v.load('/search?q=socks');
  const r = v.search({ query: 'socks', results: ['P113', 'P114', 'P115'] });
  v.see(r, ['P113', 'P114', 'P115']).wait(3_000);
  v.load('/account/login').wait(15_000);
  if (f.has('shopper-without-login')) {
    v.load('/account');
    v.shopperId = 'cust-77';
  } else v.load('/account', { shopperId: 'cust-77' });
  v.wait(2_000);
  v.load('/search?q=wool+socks');
  // the client logs the page's shopper in on every page load (Snap.tsx; B queues it though the id is stored);
  // the page that never gives the tracker shopper.id sends none
  if (!f.has('shopper-without-login')) v.enqueue('shopper', 'login', {});
  const r2 = v.search({ query: 'wool socks', results: ['P113', 'P116', 'P117'] });
  v.see(r2, ['P113', 'P116', 'P117']).wait(3_000);
  v.click(r2, 'P113').wait(300);
  v.load('/products/p113');
  if (f.has('shopper-switch')) v.shopperId = 'jane@example.com';
  if (f.has('shopper-cleared')) v.shopperId = '';
  v.productView('P113').wait(4_000);
  return w;
};

/** A visit across an idle tab: the session rolls over after 30 minutes without activity. */
const sessions: Builder = (f) => {
  const w = new World('session');
  const v = new Visit(w);
  const load = (url: string) => {
    const pl = v.pageLoadId;
    v.load(url);
    if (f.has('session-per-page')) v.sessionId = w.id('session');
    if (f.has('pageloadid-sticky') && url.startsWith('/products/')) v.pageLoadId = pl;
  };
  load('/search?q=boots');
  const r = v.search({ query: 'boots', results: ['P105', 'P108', 'P109'] });
  v.see(r, ['P105', 'P108', 'P109']).wait(4_000);
  v.click(r, 'P105').wait(300);
  load('/products/p105');
  v.productView('P105').wait(5 * 60_000);
  load('/search?q=hiking+boots');
  const r2 = v.search({ query: 'hiking boots', results: ['P108', 'P119'] });
  v.see(r2, ['P108', 'P119']).wait(3_000);
  v.wait(35 * 60_000);
  const before = v.sessionId;
  load('/search?q=boots+sale');
  if (f.has('session-immortal')) v.sessionId = before;
  const r3 = v.search({ query: 'boots sale', results: ['P119', 'P109'] });
  v.see(r3, ['P119', 'P109']).wait(3_000);
  v.click(r3, 'P119').wait(300);
  load('/products/p119');
  v.productView('P119').wait(4_000);
  return w;
};

/** A reload of a search page (production: the cache answers with the same responseId). */
const reload: Builder = (f) => {
  const w = new World('reload');
  const v = new Visit(w);
  v.load('/search?q=boots');
  const first = v.pageLoadId;
  const r = v.search({ query: 'boots', results: ['P105', 'P108', 'P109', 'P119'] });
  v.see(r, ['P105', 'P108', 'P109', 'P119']).wait(3_000);
  if (f.has('late')) v.wait(40_000);
  v.load('/search?q=boots');
  if (f.has('pageloadid-kept')) v.pageLoadId = first;
  const again = v.search(r);
  v.see(again, ['P105', 'P108', 'P109', 'P119']).wait(3_000);
  v.click(again, 'P108').wait(300);
  v.load('/products/p108').productView('P108').wait(4_000);
  return w;
};

/** A click 0.8 s after the tiles appeared: the clickthrough goes out, the impressions never do. */
const fastClick: Builder = () => {
  const w = new World('fast-click');
  const v = new Visit(w);
  v.load('/search?q=shoes');
  const r = v.search({ query: 'shoes', results: SHOES.slice(0, 4) });
  v.see(r, SHOES.slice(0, 4)).wait(800);
  v.click(r, 'P102').wait(150);
  v.load('/products/p102').productView('P102').wait(4_000);
  return w;
};

/** Inline and slot banners on a search page, a click on the inline banner. */
const banners: Builder = (f) => {
  const w = new World('banners');
  const v = new Visit(w);
  if (f.has('inline-in-banners'))
    patchAll(
      v,
      (m) => m.event === 'impression',
      (m) => {
        const results = resultsOf(m);
        const inline = results.filter((it) => it.type === 'banner').map((it) => ({ uid: it.uid }));
        if (inline.length === 0) return m;
        return withData(m, {
          ...dataOf(m),
          results: results.filter((it) => it.type !== 'banner'),
          banners: [...((dataOf(m).banners as unknown[]) ?? []), ...inline],
        });
      },
    );
  if (f.has('banner-element-id'))
    patchAll(
      v,
      (m) => m.event === 'impression' && Array.isArray(dataOf(m).banners),
      (m) =>
        withData(m, {
          ...dataOf(m),
          banners: (dataOf(m).banners as Array<{ uid: string }>).map((b) =>
            b.uid === '512' ? { uid: 'promo-header' } : b,
          ),
        }),
    );
  v.load('/search?q=sale');
  const r = v.search({
    query: 'sale',
    results: ['P101', 'P104', 'P106', 'P107', 'P113'],
    inline: [{ uid: '7', index: 2 }],
    banners: ['512'],
  });
  v.see(r, ['P101', 'P104', '7', 'P106']).seeBanner(r, '512').wait(3_000);
  v.click(r, '7').wait(200);
  v.load('/pages/sale');
  const t = v.recommend('trending', ['P110', 'P111']);
  v.see(t, ['P110', 'P111']).wait(4_000);
  return w;
};

/** A visit in development mode (dev: true, test=true searches) or production, through to an order. */
const modeVisit: Builder = (f) => {
  const w = new World(f.has('dev') ? 'dev-visit' : 'prod-visit');
  const v = new Visit(w, { dev: f.has('dev') });
  if (f.has('prod-searches')) v.test = false;
  if (f.has('test-searches')) v.test = true;
  v.load('/search?q=jacket');
  const r = v.search({ query: 'jacket', results: ['P108', 'P119', 'P114'] });
  v.see(r, ['P108', 'P119', 'P114']).wait(3_000);
  v.click(r, 'P108').wait(300);
  v.load('/products/p108').productView('P108', { childUid: '1081' }).wait(8_000);
  const cart = [line('P108', 1, '1081')];
  v.load('/cart', { cart }).wait(6_000);
  v.load('/checkout/thank-you?order=D-5', { cart: [] });
  v.order({ id: 'D-5', transactionTotal: 130, total: 141.7, lines: cart }).wait(4_000);
  return w;
};

// ----- empty responses (principle h: no impression is owed) -----

const zeroResult: Builder = (f) => {
  const w = new World('zero-result');
  const v = new Visit(w);
  v.load('/search?q=xyzzy');
  const r = v.search({ query: 'xyzzy', results: [] });
  v.wait(6_000);
  if (f.has('back')) {
    v.load('/pages/help').wait(20_000);
    v.load('/search?q=xyzzy');
    v.search(r);
    v.wait(6_000);
  }
  return w;
};

const emptyWidget: Builder = (f) => {
  const w = new World('empty-widget');
  const v = new Visit(w);
  v.load('/products/p120').productView('P120');
  v.recommend(f.has('bundle') ? 'bundle-fbt' : 'similar', [], { bundle: f.has('bundle') });
  const vw = v.recommend('viewed', ['P101', 'P102']);
  v.see(vw, ['P101', 'P102']).wait(5_000);
  return w;
};

const emptyAutocomplete: Builder = () => {
  const w = new World('empty-ac');
  const v = new Visit(w);
  v.load('/').wait(2_000);
  v.autocomplete('qq', []);
  v.wait(5_000);
  return w;
};

const emptyCategory: Builder = () => {
  const w = new World('empty-category');
  const v = new Visit(w);
  v.load('/collections/clearance');
  v.search({ kind: 'category', results: [] });
  v.wait(6_000);
  return w;
};

// ----- the set -----

export const CLEAN: CleanJourney[] = [
  {
    id: 'search-basic',
    principle: 'timing',
    description:
      'search page: render, impressions of two rows and a slot banner, a click, the product page',
    builder: searchPage,
    flags: [],
  },
  {
    id: 'spa-paging',
    principle: 'one-response-per-controller',
    description:
      'SPA: page 2, a filter, a sort 1.1 s after it, add to cart and a click on the newest response',
    builder: spaPaging,
    flags: [],
  },
  {
    id: 'spa-back-to-page-one',
    principle: 'one-response-per-controller',
    description:
      "SPA: page 2, then back to page 1: the cache answers with page 1's response, rendered and impressed again, a page-1 tile clicked",
    builder: spaPaging,
    flags: ['back-to-one'],
  },
  {
    id: 'infinite-scroll',
    principle: 'binding',
    description:
      "infinite scroll: page 2 appended with its own responseId; a page-1 tile clicked afterwards with page 1's",
    builder: infinite,
    flags: [],
  },
  {
    id: 'infinite-backfill',
    principle: 'binding',
    description:
      'backfill of 3 pages on load: one render (page 1), tiles of pages 2-3 impressed with their own responseIds',
    builder: backfill,
    flags: [],
  },
  {
    id: 'cached-back',
    principle: 'binding',
    description:
      'production: back to the search page 20 s later, the cache renders the same responseId on a new page load',
    builder: backNavigation,
    flags: ['reuse'],
  },
  {
    id: 'back-dev',
    principle: 'binding',
    description: 'development mode: back to the search page, the cache is off, a new response',
    builder: backNavigation,
    flags: ['dev'],
  },
  {
    id: 'back-late',
    principle: 'binding',
    description:
      'back to the search page 20 min later: the 5-min cache has expired, a new response',
    builder: backNavigation,
    flags: ['late'],
  },
  {
    id: 'back-new-query',
    principle: 'binding',
    description: 'a new search for another query after a product page: a new response',
    builder: backNavigation,
    flags: ['other-query'],
  },
  {
    id: 'back-filtered',
    principle: 'binding',
    description: 'the same query with a filter after a product page: a new response',
    builder: backNavigation,
    flags: ['other-filter'],
  },
  {
    id: 'two-shoppers',
    principle: 'binding',
    description: 'two browsers search the same query a minute apart, each gets its own response',
    builder: twoShoppers,
    flags: [],
  },
  {
    id: 'merch-redirect',
    principle: 'place',
    description:
      'merchandising redirect: search/redirect at once, no render, the landing page with a trending widget',
    builder: merchRedirect,
    flags: [],
  },
  {
    id: 'single-result',
    principle: 'place',
    description:
      'single-result redirect: render queued and sent, then the product page of the variant',
    builder: singleResult,
    flags: [],
  },
  {
    id: 'autocomplete',
    principle: 'one-response-per-controller',
    description:
      'autocomplete: two responses while typing, a repeated search (no render), a click on the newest',
    builder: autocomplete,
    flags: [],
  },
  {
    id: 'ac-redirect',
    principle: 'place',
    description:
      'autocomplete response with a redirect: render and impression, then autocomplete/redirect and the landing page',
    builder: acRedirect,
    flags: [],
  },
  {
    id: 'email-landing',
    principle: 'identity',
    description:
      'landing from an e-mail recommendation: context.attribution on every beacon of the session',
    builder: emailLanding,
    flags: [],
  },
  {
    id: 'product-widgets',
    principle: 'other-page-kinds',
    description:
      'product page with similar, viewed and bundle widgets; the similar widget reloads; add to cart; cart page',
    builder: productWidgets,
    flags: [],
  },
  {
    id: 'category',
    principle: 'binding',
    description: 'category page on category/* endpoints, a click, the product page',
    builder: categoryPage,
    flags: [],
  },
  {
    id: 'full-visit',
    principle: 'cart-ledger',
    description:
      'search → variant product page → four cart pages (add, add, qty up, qty down) → thank-you (cart/remove to empty) → order',
    builder: fullVisit,
    flags: [],
  },
  {
    id: 'quick-add',
    principle: 'cart-ledger',
    description:
      'two quick adds merged into one request, parent quick-added then its variant in the cart (add + remove), order',
    builder: quickAdd,
    flags: [],
  },
  {
    id: 'login',
    principle: 'identity',
    description: 'search, login (shopper/login with its shopperId), later pages carry it',
    builder: login,
    flags: [],
  },
  {
    id: 'session-rollover',
    principle: 'identity',
    description: 'a 5-min read, then a 35-min idle tab: the next page starts a new session',
    builder: sessions,
    flags: [],
  },
  {
    id: 'reload',
    principle: 'identity',
    description:
      'reload of a search page within 10 s: the same pageLoadId, the cached response rendered and impressed again',
    builder: reload,
    flags: [],
  },
  {
    id: 'reload-late',
    principle: 'identity',
    description: 'reload of a search page after 40 s: a new pageLoadId, the cached response',
    builder: reload,
    flags: ['late'],
  },
  {
    id: 'fast-click',
    principle: 'timing',
    description:
      'a click 0.8 s after the tiles appeared: clickthrough without impressions (they were lost with the page)',
    builder: fastClick,
    flags: [],
  },
  {
    id: 'banners',
    principle: 'ids-and-values',
    description: 'inline banner in results and a slot banner impressed, the inline banner clicked',
    builder: banners,
    flags: [],
  },
  {
    id: 'dev-visit',
    principle: 'binding',
    description:
      'development mode visit: context.dev on every beacon, test=true searches, through an order',
    builder: modeVisit,
    flags: ['dev'],
  },
  {
    id: 'prod-visit',
    principle: 'binding',
    description: 'production visit: no dev flag, no test=true, through an order',
    builder: modeVisit,
    flags: [],
  },
  {
    id: 'zero-result',
    principle: 'empty',
    description: 'zero-result search: a render and nothing else',
    builder: zeroResult,
    flags: [],
  },
  {
    id: 'zero-result-cached',
    principle: 'empty',
    description:
      'zero-result search, help page, back: the cached empty response rendered again on a new page',
    builder: zeroResult,
    flags: ['back'],
  },
  {
    id: 'empty-widget',
    principle: 'empty',
    description: 'product page whose similar widget is empty (render only) beside a filled widget',
    builder: emptyWidget,
    flags: [],
  },
  {
    id: 'empty-bundle',
    principle: 'empty',
    description: 'product page whose bundle widget is empty (bundles/render only)',
    builder: emptyWidget,
    flags: ['bundle'],
  },
  {
    id: 'empty-autocomplete',
    principle: 'empty',
    description: 'autocomplete with no suggestions: a render and nothing else',
    builder: emptyAutocomplete,
    flags: [],
  },
  {
    id: 'empty-category',
    principle: 'empty',
    description: 'an empty category page: a render and nothing else',
    builder: emptyCategory,
    flags: [],
  },
];

const F_RENDER =
  'Search render: sent in search() right after the store is updated, with only {responseId}';
const F_CACHE =
  'Cache key: path + request params (query, filters, sort, page, …, userId, sessionId, …); the cache lives 5 minutes in sessionStorage and is off in development mode';
const F_IMPR =
  'A tile or banner is impressed when 70% of it is visible for 1 s …, once per uid per responseId';
const F_QUEUE =
  "B queues render, impression and addtocart behind a 300 ms debounce …; impressions and addtocarts with the same … responseId merge into one request with the first event's context";
const F_CTX =
  'context.pageUrl is window.location.href at the moment the event is created (B getContext)';
const F_REDIRECT =
  'Merchandising redirect: search/redirect is sent at once …, then window.location.replace(url); no render is sent';
const F_PAGEVIEW =
  "Product page: product/pageview with {result:{parentId, uid, sku}}; parentId = parentId || uid || '', uid = uid || parentId || sku || ''; with a variant uid = childUid || uid, sku = childSku || sku";
const F_CART =
  'Cart: new items or higher quantities → one cart/add with results = only the difference (qty = the increase) and cart = the whole current cart; lower quantities or removed items → one cart/remove with results = what left and cart = the whole current cart';
const F_ORDER =
  "Order: results mapped parentId: parentId || uid || '', uid: uid || parentId || sku || '', sku, qty: Number(qty), price: Number(price); transactionTotal the amount before discounts, taxes and shipping, total after them";
const F_LOGIN =
  "Login (T, on load when the page's shopper.id is set and differs from the stored one): shopper/login with context.shopperId; every later event carries context.shopperId";
const F_IDENT =
  "Identity: userId lives 18 months, sessionId 30 minutes of inactivity (rolling), both in cookies and localStorage of the storefront's domain";
const F_PLID =
  'A new pageLoadId per full page load, except that the stored one is reused when the href is the same and under 10 s old. Snap never starts a new pageLoadId inside an SPA';
const F_SPA =
  'Pagination, filter or sort change in an SPA: a new search, a new responseId, a render, same pageLoadId';
const F_CLICK =
  "Clickthrough: exactly one item: product results:[{type:'product', uid, parentId ('' when the product has none), sku}]";

export const FAULTS: Fault[] = [
  // a. binding
  {
    id: 'a-query-cache',
    principle: 'binding',
    twin: 'back-new-query',
    flag: 'reuse',
    description:
      'a search for "sneakers" renders and tracks the responseId of the earlier "shoes" search (the storefront caches the response by path, not by query)',
    contradicts: F_CACHE,
  },
  {
    id: 'a-filter-cache',
    principle: 'binding',
    twin: 'back-filtered',
    flag: 'reuse',
    description:
      "the same query with filter.color=red renders the unfiltered response's responseId (the storefront's own cache ignores filters)",
    contradicts: F_CACHE,
  },
  {
    id: 'a-dev-cache',
    principle: 'binding',
    twin: 'back-dev',
    flag: 'reuse',
    description:
      "development mode: back navigation renders the earlier responseId again, though the client's cache is off in development",
    contradicts: F_CACHE,
  },
  {
    id: 'a-stale-cache',
    principle: 'binding',
    twin: 'back-late',
    flag: 'reuse',
    description:
      "back navigation 20 min later renders the same responseId (a storefront cache outliving the client's 5 min)",
    contradicts: F_CACHE,
  },
  {
    id: 'a-other-shopper',
    principle: 'binding',
    twin: 'two-shoppers',
    flag: 'shared-response',
    description:
      "a second browser renders and clicks the first shopper's responseId (a CDN-cached server-rendered search page embeds it)",
    contradicts: F_CACHE,
  },
  {
    id: 'a-ac-on-search',
    principle: 'binding',
    twin: 'autocomplete',
    flag: 'ac-click-on-search',
    description:
      "a click on an autocomplete suggestion is sent to search/clickthrough with the autocomplete response's id",
    contradicts:
      'ACC sends only autocomplete/* events …; no code path sends an autocomplete responseId on search/*',
  },
  {
    id: 'a-ac-redirect-on-search',
    principle: 'binding',
    twin: 'ac-redirect',
    flag: 'ac-redirect-on-search',
    description:
      "a term submitted from the dropdown sends search/redirect with the autocomplete response's id",
    contradicts:
      "ACC sends only autocomplete/* events (… redirect), each with the autocomplete response's own responseId",
  },
  {
    id: 'a-category-as-search',
    principle: 'binding',
    twin: 'category',
    flag: 'category-as-search',
    description:
      'a category page tracked with the search tracker: render, impressions and click of a category response go to search/*',
    contradicts:
      'Category pages … render, impression, clickthrough and addtocart go to category/* (SC: this.tracker.events[this.page.type])',
  },
  {
    id: 'a-bundle-as-recs',
    principle: 'binding',
    twin: 'product-widgets',
    flag: 'bundles-as-recommendations',
    description:
      "a bundle widget's render and impressions go to recommendations/* (the integration treats every widget as recommendations)",
    contradicts:
      'one render {responseId, tag} to recommendations/render (or bundles/render when the profile type is bundle)',
  },
  {
    id: 'a-wrong-tag',
    principle: 'binding',
    twin: 'product-widgets',
    flag: 'wrong-tag',
    description:
      'an add to cart from the "similar" widget is sent with the tag of the "viewed" widget (a shared handler reads the wrong widget\'s tag)',
    contradicts:
      "impressions, clickthroughs and addtocarts carry tag and the responseId of the result's response",
  },
  {
    id: 'a-infinite-current',
    principle: 'binding',
    twin: 'infinite-scroll',
    flag: 'click-current-response',
    description:
      "infinite scroll: a click on a page-1 tile carries page 2's responseId (tracking data from the current params, as before 25c13f2)",
    contradicts:
      'each result keeps the responseId of the response that delivered it (snap-client searchResponse.ts)',
  },
  {
    id: 'a-backfill-first',
    principle: 'binding',
    twin: 'infinite-backfill',
    flag: 'backfill-first-id',
    description: "backfill: tiles of page 3 are impressed with page 1's responseId",
    contradicts:
      'Infinite-scroll backfill: tiles of later pages are impressed with their own responseIds',
  },
  {
    id: 'a-prod-search-in-dev',
    principle: 'binding',
    twin: 'dev-visit',
    flag: 'prod-searches',
    description:
      'beacons in development mode (context.dev) for responses of searches sent without test=true (the search client left in production mode)',
    contradicts:
      'One mode drives both: in development mode beacons carry context.dev: true and the search client adds test=true',
  },
  {
    id: 'a-test-search-in-prod',
    principle: 'binding',
    twin: 'prod-visit',
    flag: 'test-searches',
    description:
      'production beacons for responses of searches sent with test=true (a staging search config shipped to production)',
    contradicts: 'One mode drives both …; in production neither',
  },

  // b. one response per controller
  {
    id: 'b-click-stale',
    principle: 'one-response-per-controller',
    twin: 'spa-paging',
    flag: 'click-stale',
    description:
      "after the sort's response is rendered, a click names the filter's response (the tile's click handler closed over the previous response)",
    contradicts: F_SPA,
  },
  {
    id: 'b-addtocart-stale',
    principle: 'one-response-per-controller',
    twin: 'spa-paging',
    flag: 'addtocart-stale',
    description:
      "after the sort's response is rendered, an add to cart names the filter's response",
    contradicts: 'Addtocart: {responseId of the response that delivered the product, …}',
  },
  {
    id: 'b-impress-one-behind',
    principle: 'one-response-per-controller',
    twin: 'spa-paging',
    flag: 'impress-one-behind',
    description:
      "the sorted tiles are impressed with the previous (filter) response's id, one response behind",
    contradicts: F_IMPR,
  },
  {
    id: 'b-ac-click-stale',
    principle: 'one-response-per-controller',
    twin: 'autocomplete',
    flag: 'ac-click-stale',
    description:
      'a click on a dropdown product names the first autocomplete response after the second was rendered',
    contradicts: "ACC sends … each with the autocomplete response's own responseId",
  },
  {
    id: 'b-widget-stale',
    principle: 'one-response-per-controller',
    twin: 'product-widgets',
    flag: 'widget-stale',
    description:
      'after the similar widget reloaded (new response rendered), an add to cart from it names its first response',
    contradicts:
      'one controller per widget; after each recommend response, one render {responseId, tag}',
  },
  {
    id: 'b-ac-rerender',
    principle: 'one-response-per-controller',
    twin: 'autocomplete',
    flag: 'ac-rerender',
    description: 'a repeated autocomplete search (same response as shown) is rendered again',
    contradicts:
      'Render is sent after each autocomplete response except a repeated search (same responseId as the results shown)',
  },
  {
    id: 'b-reimpress-page-one',
    principle: 'one-response-per-controller',
    twin: 'infinite-scroll',
    flag: 'reimpress-page-one',
    description:
      "infinite scroll: appending page 2 re-impresses every page-1 tile with page 1's id (impression flags reset, as before 6a63aa5)",
    contradicts: 'Infinite scroll: page-1 tiles are not re-sent',
  },

  {
    id: 'b-spa-cached-no-render',
    principle: 'one-response-per-controller',
    twin: 'spa-back-to-page-one',
    flag: 'cached-no-render',
    description:
      'SPA back to page 1: the cached response is not rendered again (renders suppressed for cached responses, as before 348ff75), yet its tiles are impressed and clicked after page 2',
    contradicts:
      "Search render: sent after every completed search, including a response served from the client's cache: then the same responseId is rendered again",
  },
  {
    id: 'b-back-cached-no-render',
    principle: 'one-response-per-controller',
    twin: 'cached-back',
    flag: 'cached-no-render',
    description:
      'back navigation served from the cache: no render on the new page load, only impressions and a click of the cached response',
    contradicts:
      "Search render: sent after every completed search, including a response served from the client's cache: then the same responseId is rendered again",
  },

  // c. timing
  {
    id: 'c-impress-at-render',
    principle: 'timing',
    twin: 'search-basic',
    flag: 'impress-at-render',
    description:
      'every tile is impressed at the moment of the render (the integration tracks impressions on render, not on visibility)',
    contradicts: F_IMPR,
  },
  {
    id: 'c-one-timestamp',
    principle: 'timing',
    twin: 'search-basic',
    flag: 'one-timestamp',
    description:
      'every event of the search page carries the page-load timestamp (server-side tracking stamps them all at once)',
    contradicts: 'context.timestamp is set when the event is created (B getContext)',
  },
  {
    id: 'c-no-debounce',
    principle: 'timing',
    twin: 'search-basic',
    flag: 'no-debounce',
    description:
      "each tile's impression is its own request, sent at once (no 300 ms queue, no merging)",
    contradicts: F_QUEUE,
  },
  {
    id: 'c-clock-offset',
    principle: 'timing',
    twin: 'search-basic',
    flag: 'clock-offset',
    description:
      'timestamps are local time written as UTC (one hour ahead of the receive time) by an integration formatting its own dates',
    contradicts: 'context.timestamp = B getTimestamp(), the time the event is created',
  },
  {
    id: 'c-render-late',
    principle: 'timing',
    twin: 'search-basic',
    flag: 'render-late',
    description:
      'the render is sent 2.5 s after the search, after the first impressions (the integration renders on "all images loaded")',
    contradicts: F_RENDER,
  },
  {
    id: 'c-context-at-send',
    principle: 'timing',
    twin: 'spa-paging',
    flag: 'context-at-send',
    description:
      "queued impressions get their context when sent: the filter response's impressions carry the URL of the sort chosen 80 ms later",
    contradicts: F_CTX,
  },
  {
    id: 'c-addtocart-no-debounce',
    principle: 'timing',
    twin: 'quick-add',
    flag: 'addtocart-no-debounce',
    description: 'two quick adds 100 ms apart are sent as two requests at once (no queue)',
    contradicts: F_QUEUE,
  },

  // d. place
  {
    id: 'd-redirect-from-landing',
    principle: 'place',
    twin: 'merch-redirect',
    flag: 'redirect-from-landing',
    description:
      'the redirect is tracked on the landing page (its pageLoadId and URL) after the navigation',
    contradicts: F_REDIRECT,
  },
  {
    id: 'd-redirect-and-render',
    principle: 'place',
    twin: 'merch-redirect',
    flag: 'redirect-and-render',
    description: 'a redirect response is both redirected and rendered',
    contradicts: F_REDIRECT,
  },
  {
    id: 'd-redirect-url-mismatch',
    principle: 'place',
    twin: 'merch-redirect',
    flag: 'redirect-url-mismatch',
    description:
      "search/redirect names a URL other than the response's redirect (the storefront's rewritten target)",
    contradicts:
      'Merchandising redirect (SC afterSearch), when the response has a redirect URL: search/redirect is sent at once',
  },
  {
    id: 'd-ac-redirect-from-landing',
    principle: 'place',
    twin: 'ac-redirect',
    flag: 'ac-redirect-from-landing',
    description: 'autocomplete/redirect is sent from the landing page after the navigation',
    contradicts:
      'A term or product submitted from the dropdown may send autocomplete/redirect first and then set location.href',
  },
  {
    id: 'd-single-as-redirect',
    principle: 'place',
    twin: 'single-result',
    flag: 'single-as-redirect',
    description:
      'a single-result redirect is tracked as search/redirect to the product URL (the response had no redirect)',
    contradicts:
      'Single-result redirect (afterStore): render is queued first, then the page navigates to the product',
  },
  {
    id: 'd-wrong-product-after-click',
    principle: 'place',
    twin: 'search-basic',
    flag: 'wrong-product-after-click',
    description:
      'after a click on P102 the product page /products/p102 sends product/pageview for P101 (a template reads the wrong product)',
    contradicts: F_PAGEVIEW,
  },
  {
    id: 'd-pageview-wrong-product',
    principle: 'place',
    twin: 'product-widgets',
    flag: 'pageview-wrong-product',
    description:
      'the product page /products/p103 sends product/pageview for P105, the first product of its similar widget',
    contradicts: F_PAGEVIEW,
  },
  {
    id: 'd-click-from-product-page',
    principle: 'place',
    twin: 'search-basic',
    flag: 'click-from-product-page',
    description:
      'the clickthrough is sent from the product page (its pageLoadId and URL), read back from sessionStorage after the navigation',
    contradicts: 'Clickthrough is sent at once (with keepalive in production)',
  },

  // e. ids and values
  {
    id: 'e-parentid-from-sku',
    principle: 'ids-and-values',
    twin: 'search-basic',
    flag: 'parentid-from-sku',
    description:
      'impressed items carry the sku as parentId (the integration maps parentId from the wrong field)',
    contradicts: F_CLICK,
  },
  {
    id: 'e-click-neighbour-sku',
    principle: 'ids-and-values',
    twin: 'search-basic',
    flag: 'click-neighbour-sku',
    description: 'the clicked item P102 carries the sku of P103 (off-by-one in the tile list)',
    contradicts: F_CLICK,
  },
  {
    id: 'e-recs-uid-from-sku',
    principle: 'ids-and-values',
    twin: 'product-widgets',
    flag: 'recs-uid-from-sku',
    description: 'similar-widget impressions send the sku as uid',
    contradicts:
      'impressions … carry tag and the responseId …, once per uid per responseId (uid = the result id)',
  },
  {
    id: 'e-variant-sku-mismatch',
    principle: 'ids-and-values',
    twin: 'full-visit',
    flag: 'variant-sku-mismatch',
    description:
      "product/pageview names variant 1030 with the sku of variant 1031 (the picker's previous selection)",
    contradicts: F_PAGEVIEW,
  },
  {
    id: 'e-inline-in-banners',
    principle: 'ids-and-values',
    twin: 'banners',
    flag: 'inline-in-banners',
    description:
      'the inline banner is impressed in banners[] instead of results[] as {type:"banner"}',
    contradicts: "Inline banner: in results as {type:'banner', uid}",
  },
  {
    id: 'e-banner-element-id',
    principle: 'ids-and-values',
    twin: 'banners',
    flag: 'banner-element-id',
    description:
      'the slot banner is impressed with its element id "promo-header", not its data-banner-id',
    contradicts:
      'Merchandising (slot) banner impression: uid from data-banner-id="<digits>"; without that attribute nothing is sent',
  },
  {
    id: 'e-order-cents',
    principle: 'ids-and-values',
    twin: 'full-visit',
    flag: 'order-cents',
    description:
      'order lines priced in cents (4000, 3200) while the cart and totals are in dollars',
    contradicts: F_ORDER,
  },
  {
    id: 'e-order-line-total',
    principle: 'ids-and-values',
    twin: 'full-visit',
    flag: 'order-line-total',
    description:
      'the qty-2 order line carries the line total (64) as price, not the unit price (32)',
    contradicts: F_ORDER,
  },
  {
    id: 'e-order-total-cents',
    principle: 'ids-and-values',
    twin: 'full-visit',
    flag: 'order-total-cents',
    description: 'order totals in cents (10400 / 11232) with lines in dollars',
    contradicts: F_ORDER,
  },
  {
    id: 'e-order-total-zero',
    principle: 'ids-and-values',
    twin: 'full-visit',
    flag: 'order-total-zero',
    description:
      'order totals 0 with priced lines (the template reads totals from a variable that is not set)',
    contradicts:
      'The OAS …: only gross mismatches (0 with priced lines, a factor of about 100) are certain bugs',
  },

  // f. cart ledger
  {
    id: 'f-add-cart-before',
    principle: 'cart-ledger',
    twin: 'full-visit',
    flag: 'add-cart-before',
    description:
      'cart/add of P110 carries the cart as it was before the add (snapshot taken before the AJAX add returned)',
    contradicts: F_CART,
  },
  {
    id: 'f-add-whole-cart',
    principle: 'cart-ledger',
    twin: 'full-visit',
    flag: 'add-whole-cart',
    description: 'cart/add lists the whole cart in results, not only the item added',
    contradicts: F_CART,
  },
  {
    id: 'f-add-qty-total',
    principle: 'cart-ledger',
    twin: 'full-visit',
    flag: 'add-qty-total',
    description:
      'raising P110 from 1 to 3 sends results qty 3 (the new quantity), not the increase 2',
    contradicts: F_CART,
  },
  {
    id: 'f-add-drops-item',
    principle: 'cart-ledger',
    twin: 'full-visit',
    flag: 'add-drops-item',
    description: 'a cart/add whose cart has lost variant 1030 without any cart/remove',
    contradicts: F_CART,
  },
  {
    id: 'f-remove-cart-stale',
    principle: 'cart-ledger',
    twin: 'full-visit',
    flag: 'remove-cart-stale',
    description: 'cart/remove of one P110 carries the cart from before the removal (P110 still x3)',
    contradicts: F_CART,
  },
  {
    id: 'f-remove-phantom',
    principle: 'cart-ledger',
    twin: 'full-visit',
    flag: 'remove-phantom',
    description:
      'cart/remove of P107, which was never in the cart (a "saved for later" item removed)',
    contradicts: F_CART,
  },
  {
    id: 'f-cart-readd',
    principle: 'cart-ledger',
    twin: 'quick-add',
    flag: 'cart-readd',
    description:
      'after a quick add of P101 the cart page sends cart/add of P101 again, with a cart that still holds one',
    contradicts:
      "Every */addtocart … also adds its results to B's stored cart, but sends no cart/add of its own",
  },

  // g. identity
  {
    id: 'g-shopper-without-login',
    principle: 'identity',
    twin: 'login',
    flag: 'shopper-without-login',
    description: 'context.shopperId appears after the login page without any shopper/login',
    contradicts: F_LOGIN,
  },
  {
    id: 'g-login-no-id',
    principle: 'identity',
    twin: 'login',
    flag: 'login-no-id',
    description: 'shopper/login is sent with an empty shopperId',
    contradicts: F_LOGIN,
  },
  // login-every-page was a fault here until the client's source was read again: Snap.tsx logs the context's
  // shopper in on every page load and B queues the login even when the id is stored, so the clean journey
  // sends it on each page of the logged-in shopper, as the client does.
  {
    id: 'g-shopper-switch',
    principle: 'identity',
    twin: 'login',
    flag: 'shopper-switch',
    description: 'shopperId changes from cust-77 to an e-mail on a product page without a login',
    contradicts: F_LOGIN,
  },
  {
    id: 'g-shopper-cleared',
    principle: 'identity',
    twin: 'login',
    flag: 'shopper-cleared',
    description:
      'shopperId goes back to "" on a later page of the logged-in visit (the template lacks the customer object)',
    contradicts: 'every later event carries context.shopperId',
  },
  {
    id: 'g-shopper-at-checkout',
    principle: 'identity',
    twin: 'full-visit',
    flag: 'shopper-at-checkout',
    description:
      "the thank-you page sets context.shopperId from the checkout's customer id without a login",
    contradicts: F_LOGIN,
  },
  {
    id: 'g-attribution-lost',
    principle: 'identity',
    twin: 'email-landing',
    flag: 'attribution-lost',
    description:
      'context.attribution is sent only on the landing page and dropped on the next pages of the session',
    contradicts:
      'context.attribution ([{type, id}]) comes from the athos_attribution / ss_attribution URL parameter … and is kept for the session',
  },
  {
    id: 'g-session-per-page',
    principle: 'identity',
    twin: 'session-rollover',
    flag: 'session-per-page',
    description: 'a new sessionId on every page load (the integration generates its own per page)',
    contradicts: F_IDENT,
  },
  {
    id: 'g-session-immortal',
    principle: 'identity',
    twin: 'session-rollover',
    flag: 'session-immortal',
    description:
      "the sessionId survives a 35-min idle tab (the integration's own session never expires)",
    contradicts: F_IDENT,
  },
  {
    id: 'g-checkout-new-user',
    principle: 'identity',
    twin: 'full-visit',
    flag: 'checkout-new-user',
    description:
      "the thank-you page (checkout domain) carries a new userId with the visit's sessionId (only the session was passed on)",
    contradicts:
      'a checkout on another domain starts a new userId and sessionId unless the integration passes them on',
  },
  {
    id: 'g-pageloadid-sticky',
    principle: 'identity',
    twin: 'session-rollover',
    flag: 'pageloadid-sticky',
    description:
      "product pages reuse the previous search page's pageLoadId (stored in sessionStorage)",
    contradicts: F_PLID,
  },
  {
    id: 'g-pageloadid-per-route',
    principle: 'identity',
    twin: 'spa-paging',
    flag: 'pageloadid-per-route',
    description: 'a new pageLoadId on every SPA route change (page, filter, sort)',
    contradicts: F_PLID,
  },
  {
    id: 'g-pageloadid-kept',
    principle: 'identity',
    twin: 'reload-late',
    flag: 'pageloadid-kept',
    description: "a reload 40 s later keeps the first load's pageLoadId",
    contradicts: F_PLID,
  },

  // i. other page kinds
  {
    id: 'i-order-no-lines',
    principle: 'other-page-kinds',
    twin: 'full-visit',
    flag: 'order-no-lines',
    description:
      'order/transaction with totals but no lines (the thank-you template fails to list the items)',
    contradicts: 'Order (from a script with order and items): results mapped from the items',
  },
  {
    id: 'i-order-sku-only',
    principle: 'other-page-kinds',
    twin: 'full-visit',
    flag: 'order-sku-only',
    description: 'an order line with uid "" and parentId "" but a sku (a direct beacon call)',
    contradicts: F_ORDER,
  },
  {
    id: 'i-order-vat-percent',
    principle: 'other-page-kinds',
    twin: 'full-visit',
    flag: 'order-vat-percent',
    description:
      'order/transaction with vat: 20 (a percentage where the OAS wants a rate such as 0.20)',
    contradicts:
      'never vat, which the OAS allows as a rate such as 0.20, so only a direct beacon call sends it',
  },
  {
    id: 'i-pageview-sku-only',
    principle: 'other-page-kinds',
    twin: 'product-widgets',
    flag: 'pageview-sku-only',
    description: 'product/pageview with parentId "" and uid "" and only a sku',
    contradicts: F_PAGEVIEW,
  },
  {
    id: 'i-pageview-no-parent',
    principle: 'other-page-kinds',
    twin: 'product-widgets',
    flag: 'pageview-no-parent',
    description: 'product/pageview with uid P103 and parentId ""',
    contradicts: F_PAGEVIEW,
  },
  {
    id: 'i-cart-parent-for-variant',
    principle: 'other-page-kinds',
    twin: 'full-visit',
    flag: 'cart-parent-for-variant',
    description:
      'cart/add of variant 1030 whose cart lists the parent P103 instead (results not in its cart)',
    contradicts: F_CART,
  },
  {
    id: 'i-cart-empty-parent',
    principle: 'other-page-kinds',
    twin: 'full-visit',
    flag: 'cart-empty-parent',
    description:
      'cart events whose items have parentId "" (the client maps parentId: parentId || uid)',
    contradicts: 'Cart items are mapped parentId: parentId || uid, uid: uid',
  },
];

export function cleanById(id: string): CleanJourney {
  const c = CLEAN.find((x) => x.id === id);
  if (!c) throw new Error(`no clean journey ${id}`);
  return c;
}

export function buildClean(c: CleanJourney): World {
  return c.builder(new Set(c.flags));
}

export function buildFault(fault: Fault): World {
  const twin = cleanById(fault.twin);
  return twin.builder(new Set([...twin.flags, fault.flag]));
}
