import { visitPage, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'a line of two at its unit price, the totals Σ qty × price',
      events: () => [
        visitPage('cart').cartAdd(
          [{ uid: 'a', qty: 2, price: 32 }],
          [{ uid: 'a', qty: 2, price: 32 }],
          {
            at: 0,
          },
        ),
        visitPage('thanks').order(
          'o-1',
          [{ uid: 'a', qty: 2, price: 32 }],
          { at: 30_000 },
          { tt: 64, total: 70 },
        ),
      ],
    },
    {
      name: 'a second item priced as the first item’s double (a line of one is never a line total)',
      events: () => [
        visitPage('thanks').order(
          'o-1',
          [
            { uid: 'a', qty: 1, price: 64 },
            { uid: 'b', qty: 1, price: 10 },
          ],
          { at: 0 },
          { tt: 74, total: 74 },
        ),
      ],
    },
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
    {
      name: 'a line of two priced at its total (qty × the cart’s price)',
      events: () => [
        visitPage('cart').cartAdd(
          [{ uid: 'a', qty: 2, price: 32 }],
          [{ uid: 'a', qty: 2, price: 32 }],
          {
            at: 0,
          },
        ),
        visitPage('thanks').order(
          'o-1',
          [{ uid: 'a', qty: 2, price: 64 }],
          { at: 30_000 },
          { tt: 64, total: 64 },
        ),
      ],
      findings: [
        { message: '2 × the 32', fix: 'never qty × price', pageLoadId: 'thanks', events: [1] },
      ],
    },
    {
      name: 'no cart before: line prices that add up to transactionTotal only without their quantities',
      events: () => [
        visitPage('thanks').order(
          'o-1',
          [
            { uid: 'a', qty: 2, price: 64 },
            { uid: 'b', qty: 1, price: 10 },
          ],
          { at: 0 },
          { tt: 74, total: 80 },
        ),
      ],
      findings: [{ message: 'only without their quantities', pageLoadId: 'thanks', events: [0] }],
    },
  ],
} satisfies RuleCases;
