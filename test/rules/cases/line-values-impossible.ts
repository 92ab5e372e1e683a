import { visitPage, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'an order with a free gift (price 0) and a missing price the client sent as 0',
      events: () => [
        visitPage('thanks').order(
          'o-1',
          [
            { uid: 'a', qty: 2, price: 10 },
            { uid: 'gift', qty: 1, price: 0 },
          ],
          { at: 0 },
        ),
      ],
    },
    {
      name: 'a removed line carries the quantity that left',
      events: () => [
        visitPage('cart').cartRemove([{ uid: 'a', qty: 1 }], [{ uid: 'a', qty: 1 }], { at: 0 }),
      ],
    },
  ],
  invalid: [
    {
      name: 'an order line of quantity 0',
      events: () => [
        visitPage('thanks').order(
          'o-1',
          [{ uid: 'a', qty: 0, price: 10 }],
          { at: 0 },
          { tt: 10, total: 10 },
        ),
      ],
      findings: [
        {
          message: 'uid "a" qty 0 price 10',
          fix: 'number of units',
          events: [0],
          behaviour: 'order.totals',
        },
      ],
    },
    {
      name: 'a cart/add with a negative quantity and price (a removal sent as an add)',
      events: () => [visitPage('cart').cartAdd([{ uid: 'a', qty: -1, price: -20 }], [], { at: 0 })],
      findings: [{ message: 'qty -1 price -20', events: [0], behaviour: 'cart.items' }],
    },
  ],
} satisfies RuleCases;
