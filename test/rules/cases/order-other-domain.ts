import { visitPage, type Line, type RuleCases } from '../kit';

const SHOP = 'https://shop.example.com';
const PAY = 'https://pay.example-checkout.com';
const MIN = 60_000;
const CART: Line[] = [{ uid: 'P104', qty: 2 }, { uid: 'P113' }];

/** The storefront visit: a cart page whose last cart event holds `cart`, at `at`. */
const storefront = (cart: Line[] = CART, at = 0, o: { origin?: string; userId?: string } = {}) =>
  visitPage('cart', {
    sessionId: 's-shop',
    userId: o.userId ?? 'u-shop',
    pageUrl: `${o.origin ?? SHOP}/cart`,
  }).cartAdd(cart, cart, { at });

/** The thank-you page in a visit of its own (new sessionId and userId unless given). */
const thanks = (
  at: number,
  o: { origin?: string; userId?: string; sessionId?: string; lines?: Line[] } = {},
) =>
  visitPage('thanks', {
    sessionId: o.sessionId ?? 's-pay',
    userId: o.userId ?? 'u-pay',
    pageUrl: `${o.origin ?? PAY}/thank-you`,
  }).order('100245', o.lines ?? CART, { at });

export default {
  valid: [
    {
      name: 'the payment domain was given the ids: the order is in the storefront visit',
      events: () => [storefront(), thanks(2 * MIN, { sessionId: 's-shop', userId: 'u-shop' })],
    },
    {
      name: 'edge: the order on the storefront’s own origin (another shopper of the same shop)',
      events: () => [storefront(), thanks(2 * MIN, { origin: SHOP })],
    },
    {
      name: 'edge: the cart changed 32 minutes before the order (past a session’s life)',
      events: () => [storefront(), thanks(32 * MIN)],
    },
    {
      name: 'edge: another quantity of one product',
      events: () => [storefront(), thanks(2 * MIN, { lines: [{ uid: 'P104' }, { uid: 'P113' }] })],
    },
    {
      name: 'edge: the userId was passed on, only the sessionId is new (credit follows the userId)',
      events: () => [storefront(), thanks(2 * MIN, { userId: 'u-shop' })],
    },
    {
      name: 'edge: the order’s visit had a page before the order (its identity came along)',
      events: () => [
        storefront(),
        visitPage('pay-review', {
          sessionId: 's-pay',
          userId: 'u-pay',
          pageUrl: `${PAY}/review`,
        }).product('P104', { at: MIN }),
        thanks(2 * MIN),
      ],
    },
    {
      name: 'edge: the storefront visit ordered its cart itself, then another origin orders the same',
      events: () => [
        storefront(),
        visitPage('shop-thanks', {
          sessionId: 's-shop',
          userId: 'u-shop',
          pageUrl: `${SHOP}/thank-you`,
        }).order('100244', CART, { at: MIN }),
        thanks(2 * MIN),
      ],
    },
    {
      name: 'edge: the storefront cart changed after the order',
      events: () => [thanks(2 * MIN), storefront(CART, 3 * MIN)],
    },
  ],
  invalid: [
    {
      name: 'the thank-you page on the payment domain, not given userId and sessionId',
      events: () => [storefront(), thanks(90_000)],
      findings: [
        {
          message:
            'order "100245" on https://pay.example-checkout.com arrived in a new visit (sessionId "s-pay", userId "u-pay") 90 s after visit "s-shop" on https://shop.example.com left a cart with the same items',
          fix: 'pass userId and sessionId to the payment domain',
          events: [1, 0],
          pageLoadId: 'thanks',
        },
      ],
    },
    {
      name: 'edge: the cart changed 30 minutes before the order (within a session’s life)',
      events: () => [storefront(), thanks(30 * MIN)],
      findings: [{ message: '30 min after visit "s-shop"', events: [1, 0] }],
    },
    {
      name: 'edge: the same products in another order of lines',
      events: () => [storefront(), thanks(MIN, { lines: [CART[1]!, CART[0]!] })],
      findings: [{ events: [1, 0] }],
    },
    {
      name: 'edge: a subdomain of the storefront’s domain is another origin (localStorage is per origin)',
      events: () => [storefront(), thanks(MIN, { origin: 'https://checkout.shop.example.com' })],
      findings: [{ message: 'on https://checkout.shop.example.com arrived', events: [1, 0] }],
    },
  ],
} satisfies RuleCases;
