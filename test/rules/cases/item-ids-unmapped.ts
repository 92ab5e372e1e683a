import { quickAddThenGlobals, visitPage, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'ids as the tracker maps them: parentId = the product’s own id, a variant with its parent',
      events: () => [
        visitPage('pdp').product('1030', { at: 0 }, 'P103'),
        visitPage('cart').cartAdd([{ uid: 'a', parentId: 'a' }], [{ uid: 'a', parentId: 'a' }], {
          at: 10_000,
        }),
        visitPage('thanks').order('o-1', [{ uid: 'a', parentId: 'a' }], { at: 30_000 }),
      ],
    },
    {
      name: 'a product page and an order line given only a sku: the tracker sends uid = sku beside an empty parentId',
      events: () => [
        visitPage('pdp').send(
          'product/pageview',
          { result: { uid: 'S-1', parentId: '', sku: 'S-1' } },
          {
            at: 0,
          },
        ),
        visitPage('thanks').order('o-1', [{ uid: 'S-1', parentId: '', sku: 'S-1' }], {
          at: 30_000,
        }),
      ],
    },
    {
      name: 'a quick add of a tile without a parent, then the thank-you page’s emptied cart globals: cart/remove of it as the client stored it (parentId ""), then the order',
      events: () => {
        const thanks = visitPage('thanks');
        return [
          visitPage('category').cart('r1', 'M1', { at: 0 }, ''),
          thanks.cartRemove([{ uid: 'M1', parentId: '' }], [], { at: 20_000 }),
          thanks.order('o-1', [{ uid: 'M1' }], { at: 20_050 }),
        ];
      },
    },
    {
      name: 'edge: one comparison adds the item as the cart globals map it and removes it as the quick add stored it (the client’s key holds the parentId)',
      events: () => quickAddThenGlobals(),
    },
  ],
  invalid: [
    {
      name: 'edge: a cart/remove with an empty parentId of an item the quick add stored with its parentId',
      events: () => [
        visitPage('category').cart('r1', 'M1', { at: 0 }),
        visitPage('thanks').cartRemove([{ uid: 'M1', parentId: '' }], [], { at: 20_000 }),
      ],
      findings: [{ message: 'uid "M1" with an empty parentId', events: [1] }],
    },
    {
      name: 'edge: a cart/remove with an empty parentId after the order cleared the stored cart',
      events: () => [
        visitPage('category').cart('r1', 'M1', { at: 0 }, ''),
        visitPage('thanks').order('o-1', [{ uid: 'M1' }], { at: 10_000 }),
        visitPage('cart').cartRemove([{ uid: 'M1', parentId: '' }], [], { at: 30_000 }),
      ],
      findings: [{ message: 'uid "M1" with an empty parentId', events: [2] }],
    },
    {
      name: 'edge: a cart/remove with an empty parentId after a cart event stored the globals’ cart (mapped)',
      events: () => [
        visitPage('category').cart('r1', 'M1', { at: 0 }, ''),
        visitPage('cart').cartAdd([{ uid: 'X' }], [{ uid: 'X' }, { uid: 'M1' }], { at: 20_000 }),
        visitPage('checkout').cartRemove([{ uid: 'M1', parentId: '' }], [{ uid: 'X' }], {
          at: 40_000,
        }),
      ],
      findings: [{ message: 'uid "M1" with an empty parentId', events: [2] }],
    },
    {
      name: 'edge: the cart a cart/remove sends is the globals’ (mapped): an empty parentId there is no stored item',
      events: () => [
        visitPage('category').cart('r1', 'M1', { at: 0 }, ''),
        visitPage('thanks').cartRemove(
          [{ uid: 'M1', parentId: '' }],
          [{ uid: 'M1', parentId: '' }],
          { at: 20_000 },
        ),
      ],
      findings: [{ message: 'uid "M1" with an empty parentId', events: [1] }],
    },
    {
      name: 'edge: a cart item with uid = sku and an empty parentId (the tracker maps a cart item’s parentId = parentId || uid)',
      events: () => [
        visitPage('cart').cartAdd(
          [{ uid: 'S-1', parentId: '', sku: 'S-1' }],
          [{ uid: 'S-1', parentId: '', sku: 'S-1' }],
          { at: 0 },
        ),
      ],
      findings: [
        { message: 'uid "S-1" with an empty parentId', events: [0], behaviour: 'cart.items' },
      ],
    },
    {
      name: 'edge: an order line whose uid is not its sku, with an empty parentId',
      events: () => [
        visitPage('thanks').order('o-1', [{ uid: '1030', parentId: '', sku: 'S-1' }], { at: 0 }),
      ],
      findings: [
        {
          message: 'uid "1030" with an empty parentId',
          events: [0],
          behaviour: 'order.transaction',
        },
      ],
    },
    {
      name: 'a product page with an empty parentId',
      events: () => [visitPage('pdp').product('P1', { at: 0 }, '')],
      // the tracker's mapping order of a product view's ids
      findings: [
        {
          message: 'uid "P1" with an empty parentId',
          fix: 'parentId',
          events: [0],
          behaviour: 'product.pageview-ids',
        },
      ],
    },
    {
      name: 'an order line with only a sku',
      events: () => [
        visitPage('thanks').order('o-1', [{ uid: '', parentId: '', sku: 'S-1' }], { at: 0 }),
      ],
      findings: [{ message: 'an empty uid beside sku "S-1"', events: [0] }],
    },
  ],
} satisfies RuleCases;
