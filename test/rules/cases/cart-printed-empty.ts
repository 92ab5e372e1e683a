import { visitPage, type Line, type RuleCases } from '../kit';

const two: Line[] = [
  { uid: '1010', parentId: 'P101', qty: 1, price: 40 },
  { uid: 'P102', qty: 2, price: 64.5 },
];
const shipping = () => visitPage('shipping', { pageUrl: 'https://shop.example/pages/shipping' });
const cartPage = () => visitPage('cart', { pageUrl: 'https://shop.example/cart' });
const thanks = () => visitPage('thanks', { pageUrl: 'https://shop.example/checkout/thank-you' });

/** the cart filled on a product page, then a page that loads with an empty cart in its globals */
const filledThenEmptied = (removeAt = 4_000) => {
  const pdp = visitPage('pdp', { pageUrl: 'https://shop.example/products/p101' });
  const s = shipping();
  return [
    pdp.cartAdd(two, two, { at: 0 }),
    s.send('search/render', { responseId: 'r-nav' }, { at: 4_000 }),
    s.cartRemove(two, [], { at: removeAt }),
  ];
};

export default {
  valid: [
    {
      name: 'the thank-you page removes the stored cart before its order (the client’s own), and the next page adds nothing',
      events: () => {
        const t = thanks();
        return [
          ...filledThenEmptied().slice(0, 1),
          t.cartRemove(two, [], { at: 4_000 }),
          t.order('100234', two, { at: 4_010 }),
          cartPage().cartAdd(two, two, { at: 9_000 }),
        ];
      },
    },
    {
      name: 'the next page adds another quantity back (the shopper’s cart changed)',
      events: () => [
        ...filledThenEmptied(),
        cartPage().cartAdd([{ ...two[0]! }], [{ ...two[0]! }], { at: 9_000 }),
      ],
    },
    {
      name: 'the emptied page showed one of the items (the shopper may have put it back from there)',
      events: () => {
        const s = shipping();
        return [
          ...filledThenEmptied(),
          s.product('1010', { at: 4_500 }, 'P101'),
          cartPage().cartAdd(two, two, { at: 9_000 }),
        ];
      },
    },
    {
      name: 'edge: the removal 1.001 s after its page began (the shopper’s own, not the load’s comparison)',
      events: () => [...filledThenEmptied(5_001), cartPage().cartAdd(two, two, { at: 9_000 })],
    },
    {
      name: 'edge: the restoring add 1.001 s after this page began (the shopper’s own)',
      events: () => {
        const c = cartPage();
        return [
          ...filledThenEmptied(),
          c.product('P900', { at: 9_000 }),
          c.cartAdd(two, two, { at: 10_001 }),
        ];
      },
    },
    {
      name: 'a later cart event of the emptied page named an item (a direct add there)',
      events: () => {
        const s = shipping();
        return [
          ...filledThenEmptied(),
          s.cartAdd([two[1]!], [two[1]!], { at: 6_000 }),
          cartPage().cartAdd([two[0]!], two, { at: 9_000 }),
        ];
      },
    },
    {
      name: 'the order on the next page buys other lines than were removed',
      events: () => [...filledThenEmptied(), thanks().order('100234', [two[0]!], { at: 9_000 })],
    },
  ],
  invalid: [
    {
      name: 'a cached page prints an empty cart: the next page’s comparison adds everything back',
      events: () => [...filledThenEmptied(), cartPage().cartAdd(two, two, { at: 9_000 })],
      findings: [
        {
          messageId: 'restored',
          message: 'added exactly the same back (1 × "1010", 2 × "P102")',
          fix: 'keep the cart globals out of cached pages',
          pageLoadId: 'cart',
          events: [2, 3],
        },
      ],
    },
    {
      name: 'edge: the removal 1.0 s after its page began, the restoring add 1.0 s after this one began',
      events: () => {
        const c = cartPage();
        return [
          ...filledThenEmptied(5_000),
          c.product('P900', { at: 9_000 }),
          c.cartAdd(two, two, { at: 10_000 }),
        ];
      },
      findings: [{ messageId: 'restored', pageLoadId: 'cart', events: [2, 4] }],
    },
    {
      name: 'a cached page prints an empty cart just before the thank-you page: the order buys what it removed',
      events: () => [...filledThenEmptied(), thanks().order('100234', two, { at: 9_000 })],
      findings: [
        {
          messageId: 'ordered',
          message: 'order "100234" (ev_',
          pageLoadId: 'thanks',
          events: [2, 3],
        },
      ],
    },
  ],
} satisfies RuleCases;
