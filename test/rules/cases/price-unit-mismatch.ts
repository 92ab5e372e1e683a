import { visitPage, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'the cart’s price in the order',
      events: () => [
        visitPage('cart').cartAdd([{ uid: 'a', price: 12.5 }], [{ uid: 'a', price: 12.5 }], {
          at: 0,
        }),
        visitPage('thanks').order('o-1', [{ uid: 'a', price: 12.5 }], { at: 30_000 }),
      ],
    },
    {
      name: 'a sale price at checkout (20% off)',
      events: () => [
        visitPage('cart').cartAdd([{ uid: 'a', price: 50 }], [{ uid: 'a', price: 50 }], { at: 0 }),
        visitPage('thanks').order('o-1', [{ uid: 'a', price: 40 }], { at: 30_000 }),
      ],
    },
  ],
  invalid: [
    {
      name: 'order lines in cents, cart in units',
      events: () => [
        visitPage('cart').cartAdd([{ uid: 'a', price: 12.5 }], [{ uid: 'a', price: 12.5 }], {
          at: 0,
        }),
        visitPage('thanks').order(
          'o-1',
          [{ uid: 'a', price: 1250 }],
          { at: 30_000 },
          { tt: 12.5, total: 12.5 },
        ),
      ],
      findings: [
        {
          message: 'uid "a" at 1250 where',
          fix: 'divide cents by 100',
          pageLoadId: 'thanks',
          events: [1],
        },
      ],
    },
  ],
} satisfies RuleCases;
