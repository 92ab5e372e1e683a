import { visitPage, type Line, type RuleCases } from '../kit';

const lines: Line[] = [
  { uid: '1010', parentId: 'P101', qty: 1, price: 40 },
  { uid: 'P102', qty: 2, price: 64.5 },
];
const checkout = () => visitPage('checkout', { pageUrl: 'https://shop.example/checkout' });

export default {
  valid: [
    {
      name: 'a split order: two order scripts read at once, 499 ms apart',
      events: () => {
        const c = checkout();
        return [c.order('A-1', lines, { at: 0 }), c.order('A-2', lines, { at: 499 })];
      },
    },
    {
      name: 'two orders of other lines on one page load (the shopper bought something else)',
      events: () => {
        const c = checkout();
        return [c.order('A-1', lines, { at: 0 }), c.order('A-2', [lines[0]!], { at: 40_000 })];
      },
    },
    {
      name: 'an SPA that tracks its cart: the shopper carted the same again between the orders',
      events: () => {
        const c = checkout();
        return [
          c.order('A-1', lines, { at: 0 }),
          c.cartAdd(lines, lines, { at: 20_000 }),
          c.order('A-2', lines, { at: 40_000 }),
        ];
      },
    },
    {
      name: 'edge: the same lines 30 min and 1 ms later',
      events: () => {
        const c = checkout();
        return [c.order('A-1', lines, { at: 0 }), c.order('A-2', lines, { at: 1_800_001 })];
      },
    },
    {
      name: 'two checkouts on two page loads (separate purchases)',
      events: () => [
        checkout().order('A-1', lines, { at: 0 }),
        visitPage('checkout-2', { pageUrl: 'https://shop.example/checkout' }).order('A-2', lines, {
          at: 40_000,
        }),
      ],
    },
  ],
  invalid: [
    {
      name: 'a one-page checkout sends the order when it is placed, then again after a declined card is paid again',
      events: () => {
        const c = checkout();
        return [c.order('A-1', lines, { at: 0 }), c.order('A-2', lines, { at: 40_000 })];
      },
      findings: [
        {
          message: 'order "A-2" (ev_',
          fix: 'once the payment has succeeded',
          pageLoadId: 'checkout',
          events: [0, 1],
        },
      ],
    },
    {
      name: 'edge: 500 ms apart; and 30 min apart',
      events: () => {
        const c = checkout();
        return [
          c.order('A-1', lines, { at: 0 }),
          c.order('A-2', lines, { at: 500 }),
          c.order('A-3', lines, { at: 1_800_500 }),
        ];
      },
      findings: [
        { message: 'sent 0.5 s after order "A-1"', events: [0, 1] },
        { message: 'sent 30 min after order "A-2"', events: [1, 2] },
      ],
    },
  ],
} satisfies RuleCases;
