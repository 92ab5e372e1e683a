import { PageBuilder, issued, quickAddAt, visitPage, type RuleCases } from '../kit';

/** a quick add of "a" at 19.99 on a search page of the same visit */
const quickAdd = () => {
  const p = new PageBuilder();
  return [p.render('r1', { at: -5000 }), p.cart('r1', 'a', { at: -3000 })];
};

/**
 * What the sandbox issued for "rain": P201 served at 229, P200 at 10 with a variant 2001 whose own price
 * is 1000 (a variant's price is its own, not the result's).
 */
const RAIN = issued({
  responseId: 'r1',
  results: [
    {
      uid: 'P200',
      sku: 'P200',
      parentId: 'P200',
      children: [{ uid: '2001', sku: 'P200-RED-M', price: 1000 }],
      price: 10,
    },
    { uid: 'P201', sku: 'P201', parentId: 'P201', children: [], price: 229 },
  ],
});
/** the same response, as a file written before prices were kept holds it */
const RAIN_UNPRICED = issued({
  responseId: 'r1',
  results: [{ uid: 'P201', sku: 'P201', parentId: 'P201', children: [] }],
});

export default {
  valid: [
    {
      name: 'a quick add at the price its response served',
      provenance: { responses: [RAIN] },
      events: () => quickAddAt('P201', 229),
    },
    {
      name: 'a quick add at a sale price (80% of the served price, not a unit)',
      provenance: { responses: [RAIN] },
      events: () => quickAddAt('P201', 183.2),
    },
    {
      name: 'a quick add at 49× the served price (a pack price, not cents)',
      provenance: { responses: [RAIN] },
      events: () => quickAddAt('P201', 11221),
    },
    {
      name: 'a quick add of a variant at its own price, 100× its result’s',
      provenance: { responses: [RAIN] },
      events: () => quickAddAt('2001', 1000),
    },
    {
      name: 'a quick add with no price (0, the client’s missing price)',
      provenance: { responses: [RAIN] },
      events: () => quickAddAt('P201', 0),
    },
    {
      name: 'a quick add in cents of a response the sandbox did not issue, on a site with no catalog',
      provenance: { responses: [] },
      events: () => quickAddAt('P201', 22900, { responseId: 'elsewhere' }),
    },
    {
      name: 'a quick add in cents of a response kept without prices, on a site with no catalog',
      provenance: { responses: [RAIN_UNPRICED] },
      events: () => quickAddAt('P201', 22900),
    },
    {
      name: 'a quick add in cents on a site whose account does not check ids against its catalog',
      provenance: {
        responses: [],
        catalogCheck: false,
        catalog: { ids: ['P201'], prices: { P201: 229 } },
      },
      events: () => quickAddAt('P201', 22900, { kind: 'category', responseId: 'c1' }),
    },
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
    {
      name: 'a quick add, then the cart at the same price',
      events: () => [
        ...quickAdd(),
        visitPage('cart').cartAdd([{ uid: 'a', price: 19.99 }], [{ uid: 'a', price: 19.99 }], {
          at: 0,
        }),
      ],
    },
    {
      name: 'a quick add, then the cart at 49 times its price (a bundle price, not cents)',
      events: () => [
        ...quickAdd(),
        visitPage('cart').cartAdd([{ uid: 'a', price: 979.5 }], [{ uid: 'a', price: 979.5 }], {
          at: 0,
        }),
      ],
    },
    {
      name: 'a quick add, then a cart item with no price (0, the client’s missing price)',
      events: () => [
        ...quickAdd(),
        visitPage('cart').cartAdd([{ uid: 'a', price: 0 }], [{ uid: 'a', price: 0 }], { at: 0 }),
      ],
    },
    {
      name: 'a cart at 1.5× the catalog price (a price the feed has not caught up with)',
      provenance: { catalog: { ids: ['a'], prices: { a: 20 } } },
      events: () => [
        visitPage('cart').cartAdd([{ uid: 'a', price: 30 }], [{ uid: 'a', price: 30 }], { at: 0 }),
      ],
    },
    {
      name: 'an order line 49× the catalog price (not cents)',
      provenance: { catalog: { ids: ['a'], prices: { a: 20 } } },
      events: () => [visitPage('thanks').order('o-1', [{ uid: 'a', price: 980 }], { at: 0 })],
    },
    {
      name: 'the shopper switched currency between the cart (USD) and the order (JPY, about 150×): no unit mistake',
      events: () => [
        visitPage('cart').cartAdd([{ uid: 'a', price: 119.95 }], [{ uid: 'a', price: 119.95 }], {
          at: 0,
          context: { currency: { code: 'USD' } },
        }),
        visitPage('thanks').order('o-1', [{ uid: 'a', price: 17990 }], {
          at: 60_000,
          context: { currency: { code: 'JPY' } },
        }),
      ],
    },
    {
      name: 'a quick add in USD, then the cart in JPY: no unit mistake either',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: -5000 }),
          p.event(
            'addtocart',
            {
              responseId: 'r1',
              results: [{ parentId: 'a', uid: 'a', sku: 'a', qty: 1, price: 119.95 }],
            },
            { at: -3000, context: { currency: { code: 'USD' } } },
          ),
          visitPage('cart').cartAdd([{ uid: 'a', price: 17990 }], [{ uid: 'a', price: 17990 }], {
            at: 0,
            context: { currency: { code: 'JPY' } },
          }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'edge: the cart and the order in the same currency (USD), the order’s line 100× the cart’s',
      events: () => [
        visitPage('cart').cartAdd([{ uid: 'a', price: 119.95 }], [{ uid: 'a', price: 119.95 }], {
          at: 0,
          context: { currency: { code: 'USD' } },
        }),
        visitPage('thanks').order('o-1', [{ uid: 'a', price: 11995 }], {
          at: 60_000,
          context: { currency: { code: 'USD' } },
        }),
      ],
      findings: [{ messageId: 'otherUnit', pageLoadId: 'thanks' }],
    },
    {
      name: 'a quick add in cents of the issued response, then the cart at the price it served: only the quick add is named',
      provenance: { responses: [RAIN] },
      events: () => [
        ...quickAddAt('P201', 22900),
        visitPage('cart').cartAdd([{ uid: 'P201', price: 229 }], [{ uid: 'P201', price: 229 }], {
          at: 10_000,
        }),
      ],
      // the cart agrees with the price the response served: the cents are the quick add's, named on its
      // own page; the cart event is right and gets no finding that would ask to change it
      findings: [{ messageId: 'addOtherUnit', events: [1], responseId: 'r1' }],
    },
    {
      name: 'a quick add in cents of a response not issued, then the cart at the catalog’s price: only the quick add is named',
      provenance: {
        responses: [],
        companion: false,
        catalog: { ids: ['P201'], prices: { P201: 229 } },
      },
      events: () => [
        ...quickAddAt('P201', 22900, { responseId: 'elsewhere' }),
        visitPage('cart').cartAdd([{ uid: 'P201', price: 229 }], [{ uid: 'P201', price: 229 }], {
          at: 10_000,
        }),
      ],
      findings: [{ messageId: 'addOtherUnit', events: [1], responseId: 'elsewhere' }],
    },
    {
      name: 'a quick add at the price the response served, then the cart globals in cents: the cart is named as the one in cents',
      provenance: { responses: [RAIN] },
      events: () => [
        ...quickAddAt('P201', 229),
        visitPage('cart').cartAdd(
          [{ uid: 'P201', price: 22900 }],
          [{ uid: 'P201', price: 22900 }],
          { at: 10_000 },
        ),
      ],
      findings: [
        {
          messageId: 'cartInOtherUnit',
          message:
            /prices an item in cents: uid "P201" at 22900 where the quick add ev_\d+ carried 229, the price the response served \(about 100×\)\. .*the cart globals' price is the one in cents/,
          fix: 'cart globals',
          pageLoadId: 'cart',
          events: [2],
          behaviour: 'cart.items',
        },
      ],
    },
    {
      name: 'a quick add at the catalog’s price, then the cart at a hundredth of it: the cart is named as the one off',
      provenance: {
        responses: [],
        companion: false,
        catalog: { ids: ['P201'], prices: { P201: 229 } },
      },
      events: () => [
        ...quickAddAt('P201', 229, { kind: 'category', responseId: 'c1' }),
        visitPage('cart').cartAdd([{ uid: 'P201', price: 2.29 }], [{ uid: 'P201', price: 2.29 }], {
          at: 10_000,
        }),
      ],
      findings: [
        {
          messageId: 'cartInOtherUnit',
          message:
            /prices an item at a hundredth of its unit price: uid "P201" at 2\.29 where the quick add ev_\d+ carried 229, the catalog's price \(about 1\/100\)/,
          pageLoadId: 'cart',
          events: [2],
          behaviour: 'cart.items',
        },
      ],
    },
    {
      name: 'a quick add in cents of the response the sandbox issued',
      provenance: { responses: [RAIN] },
      events: () => quickAddAt('P201', 22900),
      findings: [
        {
          messageId: 'addOtherUnit',
          message:
            /priced in another unit than the product's unit price: uid "P201" in ev_\d+ \(at 22900 where the response served it at 229 \(about 100×\)\)/,
          data: { count: '1 item', responseId: 'r1' },
          fix: 'not cents',
          events: [1],
          responseId: 'r1',
          behaviour: 'search.addtocart',
        },
      ],
    },
    {
      name: 'a quick add at 50× the served price (the edge of a unit)',
      provenance: { responses: [RAIN] },
      events: () => quickAddAt('P201', 11450),
      findings: [
        {
          messageId: 'addOtherUnit',
          message: /\(at 11450 where the response served it at 229 \(about 50×\)\)/,
          behaviour: 'search.addtocart',
        },
      ],
    },
    {
      name: 'a widget’s quick add at a hundredth of the served price',
      provenance: { responses: [{ ...RAIN, kind: 'recommendations', tag: 'similar' }] },
      events: () => quickAddAt('P201', 2.29, { kind: 'recommendations' }),
      findings: [
        {
          messageId: 'addOtherUnit',
          message:
            /uid "P201" in ev_\d+ \(at 2\.29 where the response served it at 229 \(about 1\/100\)\)/,
          events: [1],
          behaviour: 'recommendations.events',
          tag: 'similar',
        },
      ],
    },
    {
      name: 'a category page’s quick add in cents of a response the sandbox did not issue: the catalog’s price',
      provenance: {
        responses: [],
        companion: false,
        catalog: { ids: ['P201'], prices: { P201: 229 } },
      },
      events: () => quickAddAt('P201', 22900, { kind: 'category', responseId: 'c1' }),
      findings: [
        {
          messageId: 'addOtherUnit',
          message: /uid "P201" in ev_\d+ \(at 22900 where the catalog has 229 \(about 100×\)\)/,
          events: [1],
          responseId: 'c1',
          behaviour: 'category.events',
        },
      ],
    },
    {
      name: 'a quick add in cents of a response kept without prices: the catalog’s price',
      provenance: {
        responses: [{ ...RAIN_UNPRICED, kind: 'autocomplete' }],
        catalog: { ids: ['P201'], prices: { P201: 229 } },
      },
      events: () => quickAddAt('P201', 22900, { kind: 'autocomplete' }),
      findings: [
        {
          messageId: 'addOtherUnit',
          message: 'at 22900 where the catalog has 229',
          behaviour: 'autocomplete.events',
        },
      ],
    },
    {
      name: 'cart globals in cents against the catalog (no quick add before)',
      provenance: { catalog: { ids: ['a'], prices: { a: 19.99 } } },
      events: () => [
        visitPage('cart').cartAdd([{ uid: 'a', price: 1999 }], [{ uid: 'a', price: 1999 }], {
          at: 0,
        }),
      ],
      findings: [
        {
          messageId: 'catalogOtherUnit',
          message:
            'prices an item in another unit than site demo42\'s indexed catalog: uid "a" at 1999 where the catalog has 19.99 (about 100×)',
          fix: 'unit of the feed',
          events: [0],
          behaviour: 'cart.items',
        },
      ],
    },
    {
      name: 'a quick add at the catalog’s price, the cart globals in cents, then the order with the cart’s cents: the order repeats the cart’s unit, named as that one mistake with the cart’s fix',
      provenance: { catalog: { ids: ['a'], prices: { a: 19.99 } } },
      events: () => [
        ...quickAdd(),
        visitPage('cart').cartAdd([{ uid: 'a', price: 1999 }], [{ uid: 'a', price: 1999 }], {
          at: 0,
        }),
        visitPage('thanks').order('o-1', [{ uid: 'a', price: 1999 }], { at: 30_000 }),
      ],
      findings: [
        { messageId: 'cartInOtherUnit', pageLoadId: 'cart', events: [2] },
        {
          messageId: 'cartUnitRepeated',
          message:
            /^order "o-1" \(ev_\d+\) prices a line in the unit the visit's cart carried, not in site demo42's catalog's: uid "a" at 1999 where ev_\d+ carried 1999 and the catalog has 19\.99 \(about 100×\)\. The same unit mistake as the visit's cart/,
          fix: /^the cart’s fix \(ev_\d+\), in the order script too/,
          pageLoadId: 'thanks',
          events: [3],
          // the cart globals' unit: readiness counts one broken behaviour, not the order's totals too
          behaviour: 'cart.items',
        },
      ],
    },
    {
      name: 'cart globals in cents against the catalog, then the order with the same cents: the order repeats the cart’s unit',
      provenance: { catalog: { ids: ['a'], prices: { a: 19.99 } } },
      events: () => [
        visitPage('cart').cartAdd([{ uid: 'a', price: 1999 }], [{ uid: 'a', price: 1999 }], {
          at: 0,
        }),
        visitPage('thanks').order('o-1', [{ uid: 'a', price: 1999 }], { at: 30_000 }),
      ],
      findings: [
        { messageId: 'catalogOtherUnit', pageLoadId: 'cart', events: [0] },
        {
          messageId: 'cartUnitRepeated',
          data: { orderId: 'o-1' },
          pageLoadId: 'thanks',
          events: [1],
          behaviour: 'cart.items',
        },
      ],
    },
    {
      name: 'edge: the cart at the catalog’s price, the order in cents: the order’s own unit, caught against the cart',
      provenance: { catalog: { ids: ['a'], prices: { a: 19.99 } } },
      events: () => [
        visitPage('cart').cartAdd([{ uid: 'a', price: 19.99 }], [{ uid: 'a', price: 19.99 }], {
          at: 0,
        }),
        visitPage('thanks').order('o-1', [{ uid: 'a', price: 1999 }], { at: 30_000 }),
      ],
      findings: [
        { messageId: 'otherUnit', pageLoadId: 'thanks', events: [1], behaviour: 'order.totals' },
      ],
    },
    {
      name: 'edge: the cart in cents for one product, the order in cents for it and for a product no cart event priced: the order’s own finding, not a repeat',
      provenance: { catalog: { ids: ['a', 'b'], prices: { a: 19.99, b: 5 } } },
      events: () => [
        visitPage('cart').cartAdd([{ uid: 'a', price: 1999 }], [{ uid: 'a', price: 1999 }], {
          at: 0,
        }),
        visitPage('thanks').order(
          'o-1',
          [
            { uid: 'a', price: 1999 },
            { uid: 'b', price: 500 },
          ],
          { at: 30_000 },
        ),
      ],
      findings: [
        { messageId: 'catalogOtherUnit', pageLoadId: 'cart', events: [0] },
        {
          messageId: 'catalogOtherUnit',
          message: 'prices 2 lines in another unit than site demo42',
          pageLoadId: 'thanks',
          events: [1],
          behaviour: 'order.totals',
        },
      ],
    },
    {
      name: 'edge: an order in cents with no cart event before it: the order’s own finding against the catalog',
      provenance: { catalog: { ids: ['a'], prices: { a: 19.99 } } },
      events: () => [visitPage('thanks').order('o-1', [{ uid: 'a', price: 1999 }], { at: 0 })],
      findings: [
        {
          messageId: 'catalogOtherUnit',
          pageLoadId: 'thanks',
          events: [0],
          behaviour: 'order.totals',
        },
      ],
    },
    {
      name: 'an order line at 50× the catalog price',
      provenance: { catalog: { ids: ['a'], prices: { a: 20 } } },
      events: () => [visitPage('thanks').order('o-1', [{ uid: 'a', price: 1000 }], { at: 0 })],
      findings: [
        {
          messageId: 'catalogOtherUnit',
          message: 'prices a line',
          pageLoadId: 'thanks',
          behaviour: 'order.totals',
        },
      ],
    },
    {
      name: 'a quick add in units, then the cart globals in cents',
      events: () => [
        ...quickAdd(),
        visitPage('cart').cartAdd([{ uid: 'a', price: 1999 }], [{ uid: 'a', price: 1999 }], {
          at: 0,
        }),
      ],
      findings: [
        {
          messageId: 'quickAddOtherUnit',
          message:
            'prices an item in another unit than the quick add of the same product: uid "a" at 1999 where the quick add',
          fix: 'not cents',
          pageLoadId: 'cart',
          events: [2],
          // the quick add's unit price against the cart's: the add names the unit the cart uses
          behaviour: 'search.addtocart',
        },
      ],
    },
    {
      name: 'a quick add in cents, then the order in units (no cart event between)',
      events: () => [
        ...quickAdd().map((e, i) =>
          i === 1
            ? {
                ...e,
                body: {
                  ...(e.body as object),
                  data: {
                    responseId: 'r1',
                    results: [{ uid: 'a', parentId: 'a', sku: 'sku-a', qty: 1, price: 1999 }],
                  },
                },
              }
            : e,
        ),
        visitPage('thanks').order('o-1', [{ uid: 'a', price: 19.99 }], { at: 30_000 }),
      ],
      // the order is in the currency unit: the cents are the tile's data the quick add read, and the fix is
      // there, not in the order script (it told the developer to divide a right price by 100)
      findings: [
        {
          messageId: 'cartOtherUnit',
          message: 'uid "a" at 19.99 where',
          fix: 'not in the order script',
          pageLoadId: 'thanks',
          behaviour: 'cart.items',
        },
      ],
    },
    {
      name: 'cart events in cents, the order lines in units',
      events: () => [
        visitPage('cart').cartAdd([{ uid: 'a', price: 1250 }], [{ uid: 'a', price: 1250 }], {
          at: 0,
        }),
        visitPage('thanks').order(
          'o-1',
          [{ uid: 'a', price: 12.5 }],
          { at: 30_000 },
          { tt: 12.5, total: 12.5 },
        ),
      ],
      findings: [
        {
          messageId: 'cartOtherUnit',
          message:
            'prices a line at a hundredth of what the visit\'s cart (or quick add) carried: uid "a" at 12.5 where',
          fix: 'divide cents by 100 there, not in the order script',
          pageLoadId: 'thanks',
          events: [1],
          behaviour: 'cart.items',
        },
      ],
    },
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
          messageId: 'otherUnit',
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
        {
          messageId: 'otherUnit',
          message: '2 × the 32',
          fix: 'never qty × price',
          pageLoadId: 'thanks',
          events: [1],
        },
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
      findings: [
        {
          messageId: 'otherUnit',
          message: 'only without their quantities',
          pageLoadId: 'thanks',
          events: [0],
        },
      ],
    },
  ],
} satisfies RuleCases;
