import { visitPage, type RuleCases } from '../kit';

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
  ],
  invalid: [
    {
      name: 'totals in cents against prices in units',
      events: () => [
        visitPage('thanks').order(
          'o-1',
          [{ uid: 'a', qty: 1, price: 12.5 }],
          { at: 0 },
          { tt: 1250, total: 1250 },
        ),
      ],
      findings: [{ message: 'in cents', fix: 'unit of the line prices', events: [0] }],
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
      findings: [{ message: 'missing order.transactionTotal as 0' }],
    },
  ],
} satisfies RuleCases;
