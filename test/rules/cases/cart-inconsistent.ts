import { line, quickAddThenGlobals, visitPage, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'cart/add with the added item in its cart',
      events: () => [visitPage('cart').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 0 })],
    },
    {
      name: 'the thank-you page empties the cart before the order',
      events: () => [visitPage('thanks').cartRemove([{ uid: 'a' }], [], { at: 0 })],
    },
    {
      name: 'a quantity raised from 1 to 3: results carry the increase, 2',
      events: () => [
        visitPage('pdp').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 0 }),
        visitPage('cart').cartAdd([{ uid: 'a', qty: 2 }], [{ uid: 'a', qty: 3 }], { at: 20_000 }),
      ],
    },
    {
      name: 'a quick add of the parent, then the cart page adds the variant and removes the parent',
      events: () => {
        const list = visitPage('search');
        const cart = visitPage('cart');
        return [
          list.cartAdd([{ uid: 'b' }], [{ uid: 'b' }], { at: 0 }),
          list.cart('r1', 'P103', { at: 5000 }),
          cart.cartAdd(
            [{ uid: '1030', parentId: 'P103' }],
            [{ uid: 'b' }, { uid: '1030', parentId: 'P103' }],
            { at: 20_000 },
          ),
          cart.cartRemove([{ uid: 'P103' }], [{ uid: 'b' }, { uid: '1030', parentId: 'P103' }], {
            at: 20_001,
          }),
        ];
      },
    },
    {
      name: 'a quick add of a tile without a parent, then cart globals listing it: cart/add of it as the globals map it and cart/remove of it as stored, one comparison (the client keys a line by parentId, uid and sku)',
      events: () => quickAddThenGlobals(),
    },
    {
      name: 'edge: the same, the cart/remove sent first',
      events: () => quickAddThenGlobals(true),
    },
    {
      name: 'one comparison sends a remove and an add, each with the whole cart after both',
      events: () => {
        const cart = visitPage('cart');
        return [
          visitPage('pdp').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 0 }),
          cart.cartRemove([{ uid: 'a' }], [{ uid: 'c' }], { at: 20_000 }),
          cart.cartAdd([{ uid: 'c' }], [{ uid: 'c' }], { at: 20_001 }),
        ];
      },
    },
    {
      name: 'edge: a quick add, then the shopper raises the quantity on the cart page (cart/add of the increase)',
      events: () => [
        visitPage('search').cart('r1', 'P101', { at: 0 }),
        visitPage('cart').cartAdd([{ uid: 'P101' }], [{ uid: 'P101', qty: 2 }], { at: 20_000 }),
      ],
    },
    {
      name: 'edge: a quick add after the last cart event, then a cart/add of the rise beyond it',
      events: () => [
        visitPage('pdp').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 0 }),
        visitPage('search').cart('r1', 'a', { at: 10_000 }),
        visitPage('cart').cartAdd([{ uid: 'a' }], [{ uid: 'a', qty: 3 }], { at: 20_000 }),
      ],
    },
    {
      name: 'two quick adds, then the cart page adds the variant and removes the parent, each with the whole cart',
      events: () => {
        const list = visitPage('category');
        const cart = visitPage('cart');
        const whole = [{ uid: '1030', parentId: 'P103' }, { uid: 'P105' }];
        return [
          list.cart('r1', 'P103', { at: 0 }),
          list.cart('r1', 'P105', { at: 120 }),
          cart.cartAdd([{ uid: '1030', parentId: 'P103' }], whole, { at: 20_000 }),
          cart.cartRemove([{ uid: 'P103' }], whole, { at: 20_001 }),
        ];
      },
    },
    {
      name: 'edge: a quick-added item the cart globals no longer list leaves with a cart/remove of it',
      events: () => {
        const cart = visitPage('cart');
        return [
          visitPage('category').cart('r1', 'P105', { at: 0 }),
          cart.cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 20_000 }),
          cart.cartRemove([{ uid: 'P105' }], [{ uid: 'a' }], { at: 20_001 }),
        ];
      },
    },
    {
      name: 'edge: a quick add, then an order: the cart it put in the stored cart is gone with the order',
      events: () => [
        visitPage('category').cart('r1', 'P105', { at: 0 }),
        visitPage('thanks').send(
          'order/transaction',
          { orderId: 'o1', transactionTotal: 20, total: 20, results: [line({ uid: 'P105' })] },
          { at: 10_000 },
        ),
        visitPage('cart').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 20_000 }),
      ],
    },
    {
      name: 'edge: a cart/remove the service rejected (an item with only a sku) named the item the thank-you cart lost: the client stored the cart without it',
      events: () => {
        const cart = visitPage('cart');
        const thanks = visitPage('thanks');
        return [
          cart.cartAdd([{ uid: '2041' }], [{ uid: '2041' }, { uid: '3002' }], { at: 0 }),
          cart.send(
            'cart/remove',
            {
              results: [{ sku: 'sku-2041', qty: 1, price: 20 }],
              cart: [line({ uid: '3002' })],
            },
            { at: 5_000, accepted: false, errors: ['data.results[0] must have property uid'] },
          ),
          thanks.cartRemove([{ uid: '3002' }], [], { at: 20_000 }),
          thanks.order('o1', [{ uid: '3002' }], { at: 20_001 }),
        ];
      },
    },
    {
      name: 'edge: a cart/add the service rejected named the item the next cart gained',
      events: () => {
        const cart = visitPage('cart');
        return [
          visitPage('pdp').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 0 }),
          cart.send(
            'cart/add',
            { results: [{ sku: 'sku-b', qty: 1, price: 20 }], cart: [line({ uid: 'a' })] },
            { at: 20_000, accepted: false },
          ),
          visitPage('cart2').cartAdd([{ uid: 'c' }], [{ uid: 'a' }, { uid: 'b' }, { uid: 'c' }], {
            at: 40_000,
          }),
        ];
      },
    },
    {
      name: 'no cart event before in the visit: the stored cart may come from an earlier visit',
      events: () => [visitPage('cart').cartRemove([{ uid: 'x' }], [{ uid: 'y' }], { at: 0 })],
    },
  ],
  invalid: [
    {
      name: 'a quick add, then the cart page sends cart/add of it again (its cart still holds one)',
      events: () => [
        visitPage('search').cart('r1', 'P101', { at: 0 }),
        visitPage('cart').cartAdd([{ uid: 'P101' }], [{ uid: 'P101' }], { at: 20_000 }),
      ],
      findings: [
        {
          message: "already put 1 in the client's stored cart",
          events: [1],
          behaviour: 'cart.quick-add-then-cart-add',
        },
      ],
    },
    {
      name: 'edge: a quick add of a tile without a parent, then cart/add of it as the globals map it and no cart/remove of the stored one: added again',
      events: () => [
        visitPage('category').cart('r1', 'M1', { at: 0 }, ''),
        visitPage('cart').cartAdd([{ uid: 'M1' }], [{ uid: 'M1' }], { at: 20_000 }),
      ],
      findings: [
        { message: 'had already put 1', events: [1], behaviour: 'cart.quick-add-then-cart-add' },
      ],
    },
    {
      name: 'edge: a quick add on top of the cart before, then a cart/add that raises no further',
      events: () => [
        visitPage('pdp').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 0 }),
        visitPage('search').cart('r1', 'a', { at: 10_000 }),
        visitPage('cart').cartAdd([{ uid: 'a' }], [{ uid: 'a', qty: 2 }], { at: 20_000 }),
      ],
      findings: [
        { message: 'had already put 2', events: [2], behaviour: 'cart.quick-add-then-cart-add' },
      ],
    },
    {
      name: 'cart/add sent before the cart updated: its cart lacks the item',
      events: () => [visitPage('cart').cartAdd([{ uid: 'a' }], [{ uid: 'b' }], { at: 0 })],
      // a visit that never made a quick add breaks the ledger alone
      findings: [{ fix: 'after the change', events: [0], behaviour: 'cart.ledger' }],
    },
    {
      name: 'a quantity raised from 1 to 3 sent as results qty 3 (the new quantity)',
      events: () => [
        visitPage('pdp').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 0 }),
        visitPage('cart').cartAdd([{ uid: 'a', qty: 3 }], [{ uid: 'a', qty: 3 }], { at: 20_000 }),
      ],
      findings: [
        {
          message: 'results carry the new quantity, not the increase',
          events: [1],
          behaviour: 'cart.ledger',
        },
      ],
    },
    {
      name: 'a cart/add whose cart lost an item, with no cart/remove of it',
      events: () => [
        visitPage('pdp').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 0 }),
        visitPage('cart').cartAdd([{ uid: 'b' }], [{ uid: 'b' }], { at: 20_000 }),
      ],
      findings: [
        {
          message: 'sends a cart that lost "a" with no cart/remove of it',
          events: [1],
          behaviour: 'cart.ledger',
        },
      ],
    },
    {
      name: 'edge: a cart/remove the service rejected named another item: the thank-you cart that lost "2041" still warns',
      events: () => {
        const cart = visitPage('cart');
        const thanks = visitPage('thanks');
        return [
          cart.cartAdd([{ uid: '2041' }], [{ uid: '2041' }, { uid: '3002' }], { at: 0 }),
          cart.send(
            'cart/remove',
            { results: [{ sku: 'sku-9', qty: 1, price: 20 }], cart: [line({ uid: '3002' })] },
            { at: 5_000, accepted: false },
          ),
          thanks.cartRemove([{ uid: '3002' }], [], { at: 20_000 }),
        ];
      },
      findings: [
        {
          message: 'sends a cart that lost "2041" with no cart/remove of it',
          events: [2],
          behaviour: 'cart.ledger',
        },
      ],
    },
    {
      name: 'edge: a rejected cart/remove before the last accepted cart event exempts nothing after it',
      events: () => {
        const cart = visitPage('cart');
        return [
          cart.cartAdd([{ uid: '2041' }], [{ uid: '2041' }], { at: 0 }),
          cart.send(
            'cart/remove',
            { results: [{ sku: 'sku-2041', qty: 1, price: 20 }], cart: [] },
            { at: 5_000, accepted: false },
          ),
          visitPage('pdp').cartAdd([{ uid: 'b' }], [{ uid: '2041' }, { uid: 'b' }], { at: 20_000 }),
          visitPage('cart2').cartAdd([{ uid: 'c' }], [{ uid: 'b' }, { uid: 'c' }], { at: 40_000 }),
        ];
      },
      findings: [
        {
          message: 'sends a cart that lost "2041" with no cart/remove of it',
          events: [3],
          behaviour: 'cart.ledger',
        },
      ],
    },
    {
      name: 'two quick adds, then a cart/add whose cart lists only what it added (not the whole cart)',
      events: () => {
        const list = visitPage('category');
        const cart = visitPage('cart');
        return [
          list.cart('r1', 'P103', { at: 0 }),
          list.cart('r1', 'P105', { at: 120 }),
          cart.cartAdd([{ uid: '1030', parentId: 'P103' }], [{ uid: '1030', parentId: 'P103' }], {
            at: 20_000,
          }),
          cart.cartRemove([{ uid: 'P103' }], [{ uid: '1030', parentId: 'P103' }, { uid: 'P105' }], {
            at: 20_001,
          }),
        ];
      },
      findings: [
        {
          message:
            'sends a cart without "P105", which a quick add put in the client\'s stored cart since the last cart event, with no cart/remove of it',
          events: [2],
          behaviour: 'cart.quick-add-then-cart-add',
        },
      ],
    },
    {
      name: 'edge: a quick-added item missing from the cart of a lone cart/add, with no cart/remove on its page',
      events: () => [
        visitPage('category').cart('r1', 'P105', { at: 0 }),
        visitPage('cart').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 20_000 }),
      ],
      findings: [
        {
          message: /^cart\/add ev_\S+ sends a cart without "P105"/,
          events: [1],
          behaviour: 'cart.quick-add-then-cart-add',
        },
      ],
    },
    {
      name: 'a cart/add sent with an empty cart after a quick add: one finding naming what it adds and what the quick add put in',
      events: () => [
        visitPage('search').cart('r1', 'P104', { at: 0 }),
        visitPage('cart').cartAdd([{ uid: 'P103' }], [], { at: 20_000 }),
      ],
      findings: [
        {
          message:
            /^cart\/add ev_\S+ sends an empty cart \(cart: \[\]\) though it adds "P103": the cart after an add holds at least what it adds, and here "P104", which a quick add put in the client's stored cart since the last cart event\. results should hold/,
          events: [1],
          behaviour: 'cart.ledger',
        },
      ],
    },
    {
      name: 'a cart/add sent with an empty cart after a cart that held an item: one finding naming both',
      events: () => [
        visitPage('pdp').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 0 }),
        visitPage('cart').cartAdd([{ uid: 'b' }], [], { at: 20_000 }),
      ],
      findings: [
        {
          message:
            'sends an empty cart (cart: []) though it adds "b": the cart after an add holds at least what it adds, and here "a", which the cart before held.',
          events: [1],
          behaviour: 'cart.ledger',
        },
      ],
    },
    {
      name: 'edge: a cart/remove with an empty cart (the globals emptied) that leaves out an item a quick add put in: the quick add’s finding alone',
      events: () => [
        visitPage('pdp').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 0 }),
        visitPage('search').cart('r1', 'P104', { at: 10_000 }),
        visitPage('thanks').cartRemove([{ uid: 'a' }], [], { at: 20_000 }),
      ],
      findings: [
        {
          message: /^cart\/remove ev_\S+ sends a cart without "P104", which a quick add put/,
          events: [2],
          behaviour: 'cart.quick-add-then-cart-add',
        },
      ],
    },
    {
      name: 'a removal of an item no cart held and no add added (saved for later)',
      events: () => [
        visitPage('pdp').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 0 }),
        visitPage('cart').cartRemove([{ uid: 'z' }], [{ uid: 'a' }], { at: 20_000 }),
      ],
      findings: [
        { message: 'which no cart of the visit held', events: [1], behaviour: 'cart.ledger' },
      ],
    },
    {
      name: 'one cart/add breaks both: it lost an item of the cart before, and adds again what a quick add put in',
      events: () => [
        visitPage('pdp').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 0 }),
        visitPage('search').cart('r1', 'P101', { at: 10_000 }),
        visitPage('cart').cartAdd([{ uid: 'P101' }], [{ uid: 'P101' }], { at: 20_000 }),
      ],
      // a finding of each behaviour: the ledger's on the event's key, the quick add's beside it
      findings: [
        {
          message: 'sends a cart that lost "a" with no cart/remove of it',
          events: [2],
          behaviour: 'cart.ledger',
        },
        {
          message: "already put 1 in the client's stored cart",
          events: [2],
          behaviour: 'cart.quick-add-then-cart-add',
        },
      ],
    },
  ],
} satisfies RuleCases;
