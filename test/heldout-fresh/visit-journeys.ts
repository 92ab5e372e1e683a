// Clean journeys through the rest of a visit: product pages with recommendation widgets and bundles, the
// cart globals compared on every page load (a quick add then the variant, increases, removals, an emptied
// cart before the order), orders and reloaded thank-you pages, a hosted checkout on another domain, login,
// e-mail attribution and an idle session. Each builder reads the flag of the fault to play; null plays the
// client's own traffic.
import { line, type CartLine, type Message } from '../heldout/client';
import { journey, type CleanJourney } from './principles';
import { dataOf, edit, on, reroute } from './tamper';

type Item = Record<string, unknown>;

function items(m: Message, field: 'results' | 'cart'): Item[] {
  return (dataOf(m)[field] as Item[] | undefined) ?? [];
}

const ORDER_LINES: CartLine[] = [line('P102', 2), line('P105', 1)];

export const VISIT_JOURNEYS: CleanJourney[] = [
  journey(
    'pdp-widgets',
    'recommendations',
    ['product', 'recommendations'],
    'a product page with two widgets (two tags, two responseIds on one page load), a click in the second',
    (v, flag) => {
      let second = '';
      if (flag === 'widget-tag-swap')
        edit(
          v,
          (m) => on('recommendations/impression', second)(m),
          (m) => {
            dataOf(m).tag = 'similar';
          },
        );
      if (flag === 'widget-one-render')
        edit(
          v,
          (m) => on('recommendations/render', second)(m),
          (m) => {
            dataOf(m).responseId = similar.id;
          },
        );
      if (flag === 'widget-on-search')
        edit(v, on('recommendations/clickthrough'), (m) => {
          m.category = 'search';
          delete dataOf(m).tag;
        });
      if (flag === 'pdp-parent-empty')
        edit(v, on('product/pageview'), (m) => {
          (dataOf(m).result as Item).parentId = '';
        });
      v.load('/products/P103');
      v.productView('P103');
      const similar = v.recommend('similar', ['P104', 'P105', 'P106']);
      const bought = v.recommend('also-bought', ['P107', 'P108', 'P109']);
      second = bought.id;
      v.see(similar, ['P104', 'P105', 'P106']);
      v.wait(2_500);
      v.see(bought, ['P107', 'P108']);
      v.wait(2_500);
      v.click(bought, 'P108');
      v.wait(60);
      v.load('/products/P108');
      v.productView('P108');
    },
  ),

  journey(
    'bundle-pdp',
    'recommendations',
    ['product', 'recommendations', 'cart'],
    'a bundle widget: bundles/* events, two items added from it, a cart page whose globals match the stored cart',
    (v, flag) => {
      if (flag === 'bundle-on-recs') reroute(v, (m) => m.category === 'bundles', 'recommendations');
      v.load('/products/P108');
      v.productView('P108');
      const b = v.recommend('bundle-fbt', ['P108', 'P109', 'P110'], { bundle: true });
      v.see(b, ['P108', 'P109', 'P110']);
      v.wait(2_500);
      v.addToCart(b, 'P109');
      v.addToCart(b, 'P110');
      v.wait(2_000);
      v.load('/cart', { cart: [line('P109', 1), line('P110', 1)] });
      v.wait(3_000);
    },
  ),

  journey(
    'quickadd-variant',
    'cart',
    ['search', 'product', 'cart'],
    'a quick add of a parent, then cart globals listing its variant: cart/add of the variant and cart/remove of the parent',
    (v, flag) => {
      if (flag === 'pdp-variant-swapped')
        edit(v, on('product/pageview'), (m) => {
          dataOf(m).result = { parentId: '1031', uid: 'P103', sku: 'S-1031' };
        });
      if (flag === 'cart-parent-empty')
        edit(v, on('cart/add'), (m) => {
          for (const c of [...items(m, 'results'), ...items(m, 'cart')]) c.parentId = '';
        });
      v.load('/search?q=tee');
      const r = v.search({ query: 'tee', results: ['P102', 'P103', 'P104'] });
      v.see(r, ['P102', 'P103', 'P104']);
      v.wait(2_000);
      v.addToCart(r, 'P103');
      v.wait(1_500);
      v.click(r, 'P103');
      v.wait(60);
      v.load('/products/P103?variant=1031', { cart: [line('P103', 1, '1031')] });
      v.productView('P103', { childUid: '1031' });
      v.wait(3_000);
      v.load('/cart', { cart: [line('P103', 1, '1031')] });
      v.wait(2_000);
    },
  ),

  journey(
    'cart-changes',
    'cart',
    ['product', 'cart'],
    'cart globals over several page loads: an add, an unchanged page, increases and a new line, a removal',
    (v, flag) => {
      if (flag === 'cart-results-whole-cart')
        edit(v, on('cart/add'), (m) => {
          dataOf(m).results = items(m, 'cart');
        });
      if (flag === 'cart-add-stale-cart')
        // the cart as it was before this change
        edit(v, on('cart/add'), (m) => {
          const added = items(m, 'results');
          dataOf(m).cart = items(m, 'cart')
            .map((c) => {
              const a = added.find((x) => x.uid === c.uid);
              return a ? { ...c, qty: Number(c.qty) - Number(a.qty) } : c;
            })
            .filter((c) => Number(c.qty) > 0);
        });
      if (flag === 'pdp-uid-empty')
        edit(v, on('product/pageview'), (m) => {
          (dataOf(m).result as Item).uid = '';
        });
      if (flag === 'cart-remove-kept')
        edit(v, on('cart/remove'), (m) => {
          dataOf(m).cart = [...items(m, 'results'), ...items(m, 'cart')];
        });
      v.load('/products/P101', { cart: [] });
      v.productView('P101');
      v.wait(20_000);
      v.load('/cart', { cart: [line('P101', 1)] });
      v.wait(15_000);
      v.load('/products/P104', { cart: [line('P101', 1)] });
      if (flag === 'cart-resend-unchanged')
        v.sendNow('cart', 'add', {
          results: [{ parentId: 'P101', uid: 'P101', sku: 'S-101', qty: 1, price: 89 }],
          cart: [{ parentId: 'P101', uid: 'P101', sku: 'S-101', qty: 1, price: 89 }],
        });
      v.productView('P104');
      v.wait(15_000);
      v.load('/cart', { cart: [line('P101', 3), line('P104', 1)] });
      v.wait(15_000);
      v.load('/cart', { cart: [line('P104', 1)] });
      v.wait(3_000);
    },
  ),

  journey(
    'checkout-order',
    'order',
    ['product', 'cart', 'order'],
    'cart, checkout, and a thank-you page whose empty cart globals send cart/remove just before the order',
    (v, flag) => {
      if (flag === 'order-vat-percent')
        edit(v, on('order/transaction'), (m) => {
          dataOf(m).vat = 20;
        });
      if (flag === 'order-parent-empty')
        edit(v, on('order/transaction'), (m) => {
          for (const r of items(m, 'results')) r.parentId = '';
        });
      v.load('/products/P102', { cart: [] });
      v.productView('P102');
      v.wait(20_000);
      v.load('/cart', { cart: ORDER_LINES });
      v.wait(60_000);
      v.load('/checkout', { cart: ORDER_LINES });
      v.wait(90_000);
      const cents = flag === 'order-cents';
      const order = {
        id: '5001',
        transactionTotal: cents ? 10_400 : 104,
        total: cents ? 11_830 : 118.3,
        lines: ORDER_LINES,
      };
      if (flag === 'cart-remove-after-order') {
        // a headless thank-you page: no cart globals; the integration empties the cart after the order
        v.load('/checkout/thank-you?order=5001');
        v.order(order);
        v.wait(400);
        v.sendNow('cart', 'remove', {
          results: ORDER_LINES.map((l) => ({ ...l })),
          cart: [],
        });
      } else {
        v.load('/checkout/thank-you?order=5001', { cart: [] });
        v.order(order);
      }
      if (flag === 'order-refire') {
        // the confirmation component mounts again 15 s later on the same page
        v.wait(15_000);
        v.order(order);
      }
      v.wait(3_000);
    },
  ),

  journey(
    'thankyou-reload-late',
    'order',
    ['order'],
    'a thank-you page reloaded after 12 s: a new pageLoadId and the order sent again',
    (v) => {
      const order = { id: '5002', transactionTotal: 64, total: 71.5, lines: [line('P109', 1)] };
      v.load('/checkout/thank-you?order=5002');
      v.order(order);
      v.wait(12_000);
      v.load('/checkout/thank-you?order=5002');
      v.order(order);
      v.wait(2_000);
    },
  ),

  journey(
    'thankyou-reload-quick',
    'order',
    ['order'],
    'a thank-you page reloaded after 4 s: the same pageLoadId and the order sent again',
    (v) => {
      const order = { id: '5003', transactionTotal: 32, total: 36.2, lines: [line('P110', 1)] };
      v.load('/checkout/thank-you?order=5003');
      v.order(order);
      v.wait(4_000);
      v.load('/checkout/thank-you?order=5003');
      v.order(order);
      v.wait(2_000);
    },
  ),

  journey(
    'hosted-checkout',
    'identity',
    ['cart', 'order'],
    'a cart on the storefront, the order on a hosted checkout domain: a new userId and sessionId there',
    (v, flag) => {
      v.load('/cart', { cart: [line('P108', 1, '1080')] });
      v.wait(30_000);
      // the checkout's own domain has its own storage: the beacon there starts a new user and session
      v.userId = v.world.id('user');
      if (flag !== 'session-without-user') v.sessionId = v.world.id('session');
      v.storedCart = [];
      v.load('https://pay.example-checkout.com/thank-you?o=7001');
      const unmapped = flag === 'order-total-zero';
      v.order({
        id: '7001',
        transactionTotal: unmapped ? 0 : 130,
        total: unmapped ? 0 : 141.7,
        lines: [line('P108', 1, '1080')],
      });
      v.wait(2_000);
    },
  ),

  journey(
    'login-visit',
    'login',
    ['login', 'search', 'product'],
    'a shopper logs in: one shopper/login, then every event carries the shopperId',
    (v, flag) => {
      if (flag === 'login-context-empty')
        edit(v, on('shopper/login'), (m) => {
          m.body.context.shopperId = '';
        });
      if (flag === 'shopper-dropped')
        edit(
          v,
          (m) => m.category !== 'shopper',
          (m) => {
            m.body.context.shopperId = '';
          },
        );
      const shopper = { shopperId: 'cust-4471' };
      v.load('/account/login');
      v.wait(5_000);
      v.load('/account', shopper);
      v.wait(4_000);
      v.load('/search?q=boots', shopper);
      // the client logs the page's shopper in on every page load (Snap.tsx; B queues it though the id is stored)
      v.enqueue('shopper', 'login', {});
      const r = v.search({ query: 'boots', results: ['P101', 'P102', 'P103'] });
      if (flag === 'shopper-dropped') delete r.issued.requester?.shopperId;
      v.see(r, ['P101', 'P102', 'P103']);
      v.wait(2_500);
      v.click(r, 'P101');
      v.wait(60);
      v.load('/products/P101', shopper);
      // the client logs the page's shopper in on every page load (Snap.tsx; B queues it though the id is stored)
      v.enqueue('shopper', 'login', {});
      v.productView('P101');
      v.wait(2_000);
    },
  ),

  journey(
    'email-attribution',
    'identity',
    ['product', 'recommendations', 'search'],
    'a visit from an e-mail link: context.attribution from the URL, kept on every later page of the session',
    (v, flag) => {
      if (flag === 'attribution-lost')
        edit(
          v,
          (m) => !m.body.context.pageUrl.includes('athos_attribution'),
          (m) => {
            delete m.body.context.attribution;
          },
        );
      v.load('/products/P110?athos_attribution=email:spring-26');
      v.productView('P110');
      const w = v.recommend('similar', ['P111', 'P112']);
      v.see(w, ['P111', 'P112']);
      v.wait(3_000);
      v.load('/search?q=lamp');
      const r = v.search({ query: 'lamp', results: ['P105', 'P109', 'P112'] });
      v.see(r, ['P105', 'P109', 'P112']);
      v.wait(2_500);
      v.click(r, 'P112');
      v.wait(60);
      v.load('/products/P112');
      v.productView('P112');
    },
  ),

  journey(
    'idle-session',
    'identity',
    ['search', 'product'],
    'a visit, 40 minutes idle, then a new session on the same userId',
    (v, flag) => {
      const firstSession = v.sessionId;
      v.load('/search?q=boots');
      const r = v.search({ query: 'boots', results: ['P101', 'P102', 'P103'] });
      v.see(r, ['P101', 'P102', 'P103']);
      v.wait(3_000);
      v.click(r, 'P103');
      v.wait(60);
      // a consent tool deletes the session's keys and keeps the user's
      if (flag === 'session-reset-midvisit') v.sessionId = v.world.id('session');
      v.load('/products/P103');
      v.productView('P103');
      v.wait(40 * 60_000);
      v.load('/search?q=lamp');
      // the integration keeps the session in a cookie of its own that outlives the client's 30 minutes
      if (flag === 'session-kept-after-idle') v.sessionId = firstSession;
      const later = v.search({ query: 'lamp', results: ['P105', 'P109'] });
      v.see(later, ['P105', 'P109']);
      v.wait(2_000);
    },
  ),
];
