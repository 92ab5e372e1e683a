import type { RecordedEvent } from '../../../src/shared/events';
import { visitPage, type Line, type RuleCases } from '../kit';

const SHOP = 'https://shop.example.com';
const MIN = 60_000;
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/150.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const CART: Line[] = [{ uid: '2001', parentId: 'P200', qty: 1 }, { uid: 'P113' }];

/** The request as the browser sent it: with its User-Agent header (undefined: the input had none). */
const from = (ua: string | undefined, ev: RecordedEvent): RecordedEvent =>
  ua === undefined ? ev : { ...ev, userAgent: ua };

/** The shopper's first identity: a product page whose cart/add leaves `cart`, at `at`. */
const carted = (o: { at?: number; ua?: string; cart?: Line[] } = {}) =>
  from(
    o.ua ?? CHROME,
    visitPage('product', {
      sessionId: 's-old',
      userId: 'u-old',
      pageUrl: `${SHOP}/products/rain-shell`,
    }).cartAdd(o.cart ?? CART, o.cart ?? CART, { at: o.at ?? 0 }),
  );

/** A search page of the shopper's first identity, a minute before the product page. */
const searched = () =>
  from(
    CHROME,
    visitPage('search-old', {
      sessionId: 's-old',
      userId: 'u-old',
      pageUrl: `${SHOP}/search?q=rain`,
    }).render('r7', { at: -MIN }),
  );

/** A page of the new identity (new userId and sessionId unless given). */
const fresh = (pageLoadId: string, path: string, o: { userId?: string; sessionId?: string } = {}) =>
  visitPage(pageLoadId, {
    sessionId: o.sessionId ?? 's-new',
    userId: o.userId ?? 'u-new',
    pageUrl: `${SHOP}${path}`,
  });

const login = (at: number, ua: string | undefined = CHROME, o: { userId?: string } = {}) =>
  from(ua, fresh('login', '/login', o).login('shopper-777', { at }));

const thanks = (
  at: number,
  o: { ua?: string; userId?: string; sessionId?: string; lines?: Line[]; origin?: string } = {},
) =>
  from(
    o.ua ?? CHROME,
    visitPage('thanks', {
      sessionId: o.sessionId ?? 's-new',
      userId: o.userId ?? 'u-new',
      pageUrl: `${o.origin ?? SHOP}/thank-you?order=12345`,
    }).order('12345', o.lines ?? CART, { at, context: { shopperId: 'shopper-777' } }),
  );

export default {
  valid: [
    {
      name: 'the login kept the userId: the order is the same shopper’s, credited',
      events: () => [
        carted(),
        login(MIN, CHROME, { userId: 'u-old' }),
        thanks(2 * MIN, { userId: 'u-old' }),
      ],
    },
    {
      name: 'edge: another browser (another User-Agent) orders the same cart',
      events: () => [carted(), login(MIN, FIREFOX), thanks(2 * MIN, { ua: FIREFOX })],
    },
    {
      name: 'edge: input without User-Agent headers (two browsers cannot be told apart)',
      events: () =>
        [carted(), login(MIN), thanks(2 * MIN)].map((e) => {
          const { userAgent: _, ...rest } = e;
          return rest as RecordedEvent;
        }),
    },
    {
      name: 'edge: the new userId carted the items itself (a second shopper of the machine does)',
      events: () => [
        carted(),
        login(MIN),
        from(CHROME, fresh('cart', '/cart').cartAdd(CART, CART, { at: 90_000 })),
        thanks(2 * MIN),
      ],
    },
    {
      name: 'edge: the earlier userId kept sending after the new one began (two tabs or two shoppers at once)',
      events: () => [
        carted(),
        login(MIN),
        from(
          CHROME,
          visitPage('other-tab', {
            sessionId: 's-old',
            userId: 'u-old',
            pageUrl: `${SHOP}/search?q=boots`,
          }).render('r9', { at: 90_000 }),
        ),
        thanks(2 * MIN),
      ],
    },
    {
      name: 'edge: the new userId was seen before the cart changed',
      events: () => [login(0), carted({ at: MIN }), thanks(2 * MIN)],
    },
    {
      name: 'edge: the cart changed 32 minutes before the order (past a session’s life)',
      events: () => [carted(), thanks(32 * MIN)],
    },
    {
      name: 'edge: another quantity of one product',
      events: () => [
        carted(),
        thanks(2 * MIN, { lines: [{ uid: '2001', parentId: 'P200', qty: 2 }, { uid: 'P113' }] }),
      ],
    },
    {
      name: 'edge: an order on another origin is order-other-domain’s, not this rule’s',
      events: () => [carted(), thanks(2 * MIN, { origin: 'https://pay.example-checkout.com' })],
    },
  ],
  invalid: [
    {
      name: 'a new Beacon with new ids at login: the order comes under a new userId',
      events: () => [carted(), login(MIN), thanks(MIN + 1500)],
      findings: [
        {
          messageId: 'atLogin',
          message:
            'order "12345" came under userId "u-new", which this browser (same User-Agent, https://shop.example.com) first sent 60 s after userId "u-old" (visit "s-old") left a cart with the same items',
          fix: 'call setShopperId on the existing Beacon',
          events: [2, 0, 1],
          pageLoadId: 'thanks',
          behaviour: 'identity.user-per-browser',
        },
      ],
    },
    {
      name: 'edge: no login in between (storage cleared at a checkout step)',
      events: () => [searched(), carted(), thanks(2 * MIN)],
      findings: [{ messageId: 'reset', message: 'first sent 2 min after', events: [2, 1] }],
    },
    {
      name: 'each identity one page load (a browser that keeps no cookies or localStorage, or new ids on every page): said as such',
      events: () => [carted(), thanks(2 * MIN)],
      findings: [
        {
          messageId: 'onePageEach',
          message: 'each of the two visits is one page load',
          fix: 'repeat the journey in a browser that keeps cookies and localStorage',
          events: [1, 0],
        },
      ],
    },
    {
      name: 'edge: the cart changed 30 minutes before the order (within a session’s life)',
      events: () => [searched(), carted(), thanks(30 * MIN)],
      findings: [{ messageId: 'reset', events: [2, 1] }],
    },
    {
      name: 'edge: the order’s visit had other pages without a cart event (a search, a login)',
      events: () => [
        carted(),
        login(MIN),
        from(CHROME, fresh('search', '/search?q=rain').render('r8', { at: 70_000 })),
        thanks(2 * MIN),
      ],
      findings: [{ messageId: 'atLogin', events: [3, 0, 1] }],
    },
  ],
} satisfies RuleCases;
