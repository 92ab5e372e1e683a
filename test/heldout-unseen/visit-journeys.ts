// The unseen set's journeys through the rest of the visit: recommendation widgets, product pages, the
// cart, the order and the shopper's identity; each plays its clean traffic or, given a flag, one fault.
import { Visit, line } from '../heldout/client';
import { copy, data, on, results, tile, type Flag } from './traffic';

// ----- recommendations -----

export function productRecs(v: Visit, flag: Flag): void {
  if (flag === 'reco-render-no-tag')
    on(v, (m) => {
      if (m.category !== 'recommendations' || m.event !== 'render') return m;
      const c = copy(m);
      delete c.body.data!.tag;
      return c;
    });
  if (flag === 'bundle-as-reco')
    on(v, (m) => (m.category === 'bundles' ? { ...m, category: 'recommendations' } : m));
  let viewed = '';
  if (flag === 'reco-wrong-tag' || flag === 'reco-one-render')
    on(v, (m) => {
      if (m.category !== 'recommendations' || data(m).responseId !== viewed) return m;
      if (flag === 'reco-one-render') return m.event === 'render' ? null : m;
      const c = copy(m);
      c.body.data!.tag = 'similar';
      return c;
    });
  v.load('/product/P101');
  v.productView('P101');
  const similar = v.recommend('similar', ['P102', 'P104', 'P105', 'P106']);
  const recent = v.recommend('recently-viewed', ['P110', 'P112']);
  viewed = recent.id;
  const bundle = v.recommend('bundle-p101', ['P101', 'P107', 'P113'], { bundle: true });
  v.see(similar, ['P102', 'P104', 'P105']);
  v.see(bundle, ['P107', 'P113']);
  v.wait(1_500);
  v.see(recent, ['P110', 'P112']);
  v.wait(2_000);
  if (flag === 'reco-addtocart-no-tag')
    v.sendNow('bundles', 'addtocart', {
      responseId: bundle.id,
      results: [{ parentId: '', uid: 'P107', sku: 'S-107', qty: 1, price: 7.5 }],
    });
  else if (flag === 'addtocart-other-response')
    // the add button reads the responseId of the page's first widget
    v.enqueue('bundles', 'addtocart', {
      tag: 'bundle-p101',
      responseId: similar.id,
      results: [{ parentId: '', uid: 'P107', sku: 'S-107', qty: 1, price: 7.5 }],
    });
  else v.addToCart(bundle, 'P107');
  v.wait(800);
  if (flag === 'reco-click-other-response')
    v.emit('recommendations', 'clickthrough', {
      tag: 'similar',
      responseId: similar.id,
      results: [tile('P110')],
    });
  else v.click(recent, 'P110');
  v.wait(100);
  v.load('/product/P110');
  v.productView('P110');
  const next = v.recommend('similar', ['P109', 'P111']);
  v.see(next, ['P109', 'P111']);
  v.wait(2_500);
}

export function emptyWidget(v: Visit, _flag: Flag): void {
  v.load('/product/P120');
  v.productView('P120');
  // a widget whose profile has nothing for this product: rendered, never impressed
  v.recommend('also-bought', []);
  const similar = v.recommend('similar', ['P113', 'P118']);
  v.see(similar, ['P113', 'P118']);
  v.wait(3_000);
}

// ----- product pages -----

export function variantProduct(v: Visit, flag: Flag): void {
  v.load('/search?q=tee');
  const r = v.search({ query: 'tee', results: ['P103', 'P108'] });
  v.see(r, ['P103', 'P108']);
  v.wait(2_000);
  // a quick add of the tile (the parent)
  v.addToCart(r, 'P103');
  v.wait(1_000);
  v.click(r, 'P103');
  v.wait(100);
  v.load('/product/P103?variant=1031');
  if (flag === 'pageview-variant-swapped')
    v.sendNow('product', 'pageview', { result: { parentId: '1031', uid: 'P103', sku: 'S-1031' } });
  else if (flag === 'pageview-sku-no-uid')
    v.sendNow('product', 'pageview', { result: { parentId: 'P103', uid: '', sku: 'S-1031' } });
  else v.productView('P103', { childUid: '1031' });
  if (flag === 'pageview-twice') {
    // a single-page product template that tracks the view again on each swatch change
    v.wait(2_000);
    v.productView('P103', { childUid: '1031' });
  }
  v.wait(3_000);
  // the cart lists the variant the shopper really has (the quick add put the parent in the beacon's cart)
  v.load('/cart', { cart: [line('P103', 1, '1030')] });
  v.wait(3_000);
}

// ----- cart -----

export function cartChanges(v: Visit, flag: Flag): void {
  if (
    flag === 'cart-remove-nonempty-cart' ||
    flag === 'cart-remove-as-add' ||
    flag === 'cart-add-results-whole'
  )
    on(v, (m) => {
      if (m.category !== 'cart') return m;
      const c = copy(m);
      const d = c.body.data!;
      const cart = (d.cart as unknown[]) ?? [];
      if (flag === 'cart-remove-nonempty-cart' && m.event === 'remove' && cart.length === 0)
        d.cart = d.results;
      if (flag === 'cart-remove-as-add' && m.event === 'remove' && cart.length > 0)
        return {
          ...c,
          event: 'add',
          body: {
            ...c.body,
            data: { ...d, results: results(m).map((x) => ({ ...x, qty: -Number(x.qty) })) },
          },
        };
      const raised = (cart as Array<Record<string, unknown>>).some(
        (x) => x.uid === 'P101' && x.qty === 3,
      );
      if (flag === 'cart-add-results-whole' && m.event === 'add' && raised) d.results = d.cart;
      return c;
    });
  v.load('/product/P101');
  v.productView('P101');
  v.wait(4_000);
  v.load('/cart', { cart: [line('P101'), line('P105', 2)] });
  v.wait(20_000);
  v.load('/product/P109');
  v.productView('P109');
  if (flag === 'cart-add-no-cart')
    // the product page's own add button calls the API by hand, without the cart
    v.emit('cart', 'add', { results: [{ ...line('P109') }] });
  v.wait(5_000);
  v.load('/cart', { cart: [line('P101', 3), line('P105', 1)] });
  v.wait(15_000);
  v.load('/search?q=shirt', { cart: [line('P101', 3), line('P105', 1)] });
  if (flag === 'cart-add-every-load')
    v.sendNow('cart', 'add', {
      results: [line('P101', 3), line('P105', 1)].map((c) => ({ ...c })),
      cart: [line('P101', 3), line('P105', 1)].map((c) => ({ ...c })),
    });
  const r = v.search({ query: 'shirt', results: ['P101', 'P102'] });
  v.see(r, ['P101', 'P102']);
  v.wait(30_000);
  // everything removed in the mini cart, then a new page
  v.load('/', { cart: [] });
  v.wait(3_000);
}

// ----- order -----

export function orderFlow(v: Visit, flag: Flag): void {
  if (flag === 'currency-string')
    on(v, (m) => {
      if (m.category !== 'order') return m;
      const c = copy(m);
      (c.body.context as unknown as Record<string, unknown>).currency = 'USD';
      return c;
    });
  if (flag === 'order-remove-cart-kept')
    on(v, (m) => {
      if (m.category !== 'cart' || m.event !== 'remove') return m;
      const c = copy(m);
      c.body.data!.cart = c.body.data!.results;
      return c;
    });
  const lines = [line('P101', 2), line('P104')];
  v.load('/product/P104');
  v.productView('P104');
  v.wait(5_000);
  v.load('/cart', { cart: lines });
  v.wait(25_000);
  v.load('/checkout', { cart: lines });
  v.wait(90_000);
  const order = {
    id: '5001',
    transactionTotal: 190.99,
    total: 207.4,
    lines,
  };
  if (flag === 'order-before-cart-remove') {
    // a hand-written order call in the page head, before the tracker compares the cart
    v.load('/checkout/thank-you?order=5001');
    v.order(order);
    v.wait(15);
    v.sendNow('cart', 'remove', {
      results: lines.map((l) => ({ ...l })),
      cart: [],
    });
  } else {
    v.load('/checkout/thank-you?order=5001', { cart: [] });
    if (flag === 'order-cents') v.order({ ...order, transactionTotal: 19099, total: 20740 });
    else if (flag === 'order-zero-total') v.order({ ...order, transactionTotal: 0, total: 0 });
    else if (flag === 'order-line-parent-empty')
      v.emit('order', 'transaction', {
        orderId: '5001',
        transactionTotal: 190.99,
        total: 207.4,
        city: 'Portland',
        state: 'OR',
        country: 'US',
        results: lines.map((l) => ({
          parentId: '',
          uid: l.uid,
          sku: l.sku,
          qty: l.qty,
          price: l.price,
        })),
      });
    else if (flag === 'order-vat')
      v.emit('order', 'transaction', {
        orderId: '5001',
        transactionTotal: 190.99,
        total: 207.4,
        vat: 0.2,
        city: 'Portland',
        state: 'OR',
        country: 'US',
        results: lines.map((l) => ({
          parentId: l.parentId,
          uid: l.uid,
          sku: l.sku,
          qty: l.qty,
          price: l.price,
        })),
      });
    else v.order(order);
    if (flag === 'order-double-tag') {
      // the same order also sent by a tag manager's copy of the snippet
      v.wait(40);
      v.order(order);
    }
  }
  v.wait(4_000);
  v.load('/', { cart: [] });
  v.wait(2_000);
}

export function orderReload(v: Visit, flag: Flag): void {
  const lines = [line('P103', 1, '1032'), line('P120', 4)];
  v.load('/cart', { cart: lines });
  v.wait(30_000);
  v.load('/checkout/thank-you?order=6002', { cart: [] });
  const order = { id: '6002', transactionTotal: 61, total: 66.5, lines };
  v.order(order);
  v.wait(4_000);
  // reloaded within 10 s: the same pageLoadId, the order sent again
  v.load('/checkout/thank-you?order=6002', { cart: [] });
  if (flag === 'order-reload-other-id') v.order({ ...order, id: '6002-1' });
  else v.order(order);
  v.wait(3_000);
}

export function checkoutOtherDomain(v: Visit, _flag: Flag): void {
  const lines = [line('P109'), line('P112', 2)];
  v.load('/cart', { cart: lines });
  v.wait(40_000);
  v.load('/checkout', { cart: lines });
  v.wait(5_000);
  // the hosted checkout's domain has neither the cookies nor the localStorage of the shop's
  const checkout = new Visit(v.world, { start: v.t + 120_000 });
  checkout.load('https://checkout.example.net/thank-you?order=7003');
  checkout.order({ id: '7003', transactionTotal: 108, total: 116.64, lines });
  checkout.wait(3_000);
  v.wait(checkout.t - v.t);
}

// ----- login and identity -----

export function loginJourney(v: Visit, flag: Flag): void {
  let loggedIn = false;
  if (flag === 'login-no-shopper-context')
    on(v, (m) => {
      if (m.category !== 'shopper') return m;
      const c = copy(m);
      c.body.context.shopperId = '';
      return c;
    });
  if (flag === 'shopper-lost-after-login')
    on(v, (m) => {
      if (m.category === 'shopper' || !loggedIn) return m;
      const c = copy(m);
      c.body.context.shopperId = '';
      return c;
    });
  v.load('/account/login');
  v.wait(8_000);
  if (flag === 'login-new-session') v.sessionId = v.world.id('session');
  v.load('/account', { shopperId: 'shopper-77' });
  loggedIn = true;
  v.wait(3_000);
  v.load('/search?q=shirt', { shopperId: 'shopper-77' });
  // the client logs the page's shopper in on every page load (Snap.tsx; B queues it though the id is stored)
  v.emit('shopper', 'login', undefined);
  const r = v.search({ query: 'shirt', results: ['P101', 'P102', 'P104'] });
  v.see(r, ['P101', 'P102']);
  v.wait(2_000);
  v.addToCart(r, 'P102');
  v.wait(1_000);
  v.load('/cart', { cart: [line('P102')], shopperId: 'shopper-77' });
  // the client logs the page's shopper in on every page load (Snap.tsx; B queues it though the id is stored)
  v.emit('shopper', 'login', undefined);
  v.wait(3_000);
}

export function emailAttribution(v: Visit, flag: Flag): void {
  if (flag === 'attribution-dropped')
    on(v, (m) => {
      if (m.body.context.pageUrl.includes('athos_attribution')) return m;
      const c = copy(m);
      delete c.body.context.attribution;
      return c;
    });
  v.load('/product/P108?athos_attribution=email:spring-news');
  v.productView('P108', { childUid: '1081' });
  const w = v.recommend('similar', ['P109', 'P119']);
  v.see(w, ['P109', 'P119']);
  v.wait(3_000);
  if (flag === 'userid-change') v.userId = v.world.id('user');
  if (flag === 'session-per-page') v.sessionId = v.world.id('session');
  v.load('/search?q=bag');
  const r = v.search({ query: 'bag', results: ['P108', 'P109'] });
  v.see(r, ['P108', 'P109']);
  v.wait(2_000);
  v.click(r, 'P109');
  v.wait(100);
  if (flag === 'session-per-page') v.sessionId = v.world.id('session');
  v.load('/product/P109');
  v.productView('P109');
  v.wait(2_000);
}

export function sessionRollover(v: Visit, flag: Flag): void {
  v.load('/search?q=candle');
  const r = v.search({ query: 'candle', results: ['P118', 'P119'] });
  v.see(r, ['P118', 'P119']);
  v.wait(2_000);
  if (flag === 'session-early-rollover') {
    v.wait(5 * 60_000);
    v.sessionId = v.world.id('session');
  } else v.wait(35 * 60_000);
  const keep = v.sessionId;
  v.load('/search?q=candle');
  if (flag === 'session-no-rollover') v.sessionId = keep;
  const r2 = v.search({ query: 'candle', results: ['P118', 'P119'] });
  v.see(r2, ['P118']);
  v.wait(2_000);
}
