import { visitPage, type Line, type RuleCases } from '../kit';

const CART: Line[] = [
  { uid: '2001', parentId: 'P200', price: 149, qty: 1 },
  { uid: 'BOOT', price: 90, qty: 2 },
];
/** the same purchase under the platform's own ids */
const PLATFORM: Line[] = [
  { uid: '44012345678901', parentId: '8812', price: 149, qty: 1 },
  { uid: '44012345678902', parentId: '8813', price: 90, qty: 2 },
];
const thanks = () => visitPage('thanks', { pageUrl: 'https://shop.example.com/thank-you' });

export default {
  valid: [
    {
      name: 'the emptied cart removed as the page loads, then the order of the same items',
      events: () => [
        thanks().cartRemove(CART, [], { at: 0 }),
        thanks().order('A-1', CART, { at: 5 }),
      ],
    },
    {
      name: 'edge: one line under the cart’s ids is enough (the rest the shopper’s choice)',
      events: () => [
        thanks().cartRemove(CART, [], { at: 0 }),
        thanks().order('A-2', [CART[0]!, PLATFORM[1]!], { at: 5 }),
      ],
    },
    {
      name: 'edge: other prices (another purchase than the cart, a discounted line)',
      events: () => [
        thanks().cartRemove(CART, [], { at: 0 }),
        thanks().order('A-3', [PLATFORM[0]!, { ...PLATFORM[1]!, price: 80 }], { at: 5 }),
      ],
    },
    {
      name: 'edge: a removal that did not empty the cart',
      events: () => [
        thanks().cartRemove([CART[1]!], [CART[0]!], { at: 0 }),
        thanks().order('A-4', [PLATFORM[1]!], { at: 5 }),
      ],
    },
    {
      name: 'edge: the removal after the order (cart-after-order’s)',
      events: () => [
        thanks().order('A-5', PLATFORM, { at: 0 }),
        thanks().cartRemove(CART, [], { at: 300 }),
      ],
    },
  ],
  invalid: [
    {
      name: 'the order script maps the platform’s ids, the cart globals the feed’s',
      events: () => [
        thanks().cartRemove(CART, [], { at: 0 }),
        thanks().order('A-9', PLATFORM, { at: 5 }),
      ],
      findings: [
        {
          message:
            /^order "A-9" \(ev_\w+\) bought uid "44012345678901", uid "44012345678902", ids none of which the cart held/,
          fix: 'the feed’s ids',
          events: [1, 0],
          behaviour: 'order.transaction',
        },
      ],
    },
  ],
} satisfies RuleCases;
