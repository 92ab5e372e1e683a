import { visitPage, type RuleCases } from '../kit';

/** the variant 1030 twice, priced as the cart priced it (25) or in cents (2500) */
const jacket = (price: number) => [{ uid: '1030', parentId: 'P103', qty: 2, price }];
/** the cart page before the thank-you page, in units */
const cartAt25 = () =>
  visitPage('cart').cartAdd(jacket(25), jacket(25), {
    at: 0,
  });

export default {
  valid: [
    {
      name: 'a discount and shipping: totals off by a little, not a bug',
      events: () => [
        visitPage('thanks').order(
          'o-1',
          [{ uid: 'a', qty: 2, price: 50 }],
          { at: 0 },
          { tt: 75, total: 100 },
        ),
      ],
    },
    {
      name: 'the cart, the lines and the totals in units',
      events: () => [
        cartAt25(),
        visitPage('thanks').order('o-1', jacket(25), { at: 30_000 }, { tt: 50, total: 56.5 }),
      ],
    },
  ],
  invalid: [
    {
      name: 'totals in cents against prices in units: the fix is the totals',
      events: () => [
        visitPage('thanks').order(
          'o-1',
          [{ uid: 'a', qty: 1, price: 12.5 }],
          { at: 0 },
          { tt: 1250, total: 1250 },
        ),
      ],
      findings: [
        {
          messageId: 'totals',
          message: 'transactionTotal 1250 is about 100× what its lines add up to (12.50)',
          fix: 'pass order.transactionTotal and order.total as numbers in the unit of the line prices',
          events: [0],
          causedBy: null,
        },
      ],
    },
    {
      name: 'totals never set (sent as 0)',
      events: () => [
        visitPage('thanks').order(
          'o-1',
          [{ uid: 'a', qty: 1, price: 12.5 }],
          { at: 0 },
          { tt: 0, total: 0 },
        ),
      ],
      findings: [{ messageId: 'totals', message: 'missing order.transactionTotal as 0' }],
    },
    {
      name: 'line prices in cents against totals in units, no cart to tell: the fix is the line prices',
      events: () => [
        visitPage('thanks').order('o-1', jacket(2500), { at: 0 }, { tt: 50, total: 56.5 }),
      ],
      findings: [
        {
          messageId: 'linePrices',
          message:
            'its lines add up to 5000, about 100× its transactionTotal 50 and about 88× its total 56.50 (likely line prices in cents against totals in units)',
          fix: "send each line's unit price in the unit of order.transactionTotal and order.total, the currency unit (divide cents by 100 in the order script), not the totals in cents.",
          events: [0],
          causedBy: null,
        },
      ],
    },
    {
      name: 'line prices in cents, the cart and the totals in units: it follows from price-unit-mismatch, which leads',
      events: () => [
        cartAt25(),
        visitPage('thanks').order('o-1', jacket(2500), { at: 30_000 }, { tt: 50, total: 56.5 }),
      ],
      findings: [
        {
          messageId: 'linePrices',
          fix: 'divide cents by 100 in the order script',
          events: [1],
          causedBy: 'price-unit-mismatch',
        },
      ],
    },
    {
      name: 'line prices in cents and transactionTotal never set: two bugs, the missing total leads on its own',
      events: () => [
        cartAt25(),
        visitPage('thanks').order('o-1', jacket(2500), { at: 30_000 }, { tt: 0, total: 56.5 }),
      ],
      findings: [
        {
          messageId: 'totals',
          message: 'transactionTotal is 0 while its lines add up to 5000',
          causedBy: null,
        },
        {
          messageId: 'linePrices',
          message: 'its lines add up to 5000, about 88× its total 56.50 (',
          causedBy: 'price-unit-mismatch',
        },
      ],
    },
    {
      name: 'lines without a price while transactionTotal is set: the fix is the lines, not the totals',
      events: () => [
        visitPage('thanks').order(
          'o-1',
          [
            { uid: 'a', qty: 1, price: 0 },
            { uid: 'b', qty: 2, price: 0 },
          ],
          { at: 0 },
          { tt: 50, total: 56.5 },
        ),
      ],
      findings: [
        {
          messageId: 'unpriced',
          message:
            'none of its 2 lines carries a price and quantity although transactionTotal is 50 (the client sends a missing price as 0)',
          fix: 'give each item of the athos/track/order/transaction script its unit price and qty as numbers',
          events: [0],
        },
      ],
    },
    {
      name: 'transactionTotal in units against lines and total in cents: the odd total is the fix',
      events: () => [
        visitPage('thanks').order('o-1', jacket(2500), { at: 0 }, { tt: 50, total: 5650 }),
      ],
      findings: [
        {
          messageId: 'totals',
          message:
            'transactionTotal 50 is about 1/100 of what its lines add up to (5000), which the other total is not',
          fix: 'in the unit of the line prices',
          causedBy: null,
        },
      ],
    },
  ],
} satisfies RuleCases;
