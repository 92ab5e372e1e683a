import { visitPage, type Line, type RuleCases } from '../kit';

const JACKET: Line[] = [{ uid: '2001', parentId: 'P200', price: 149 }];
const BOOT: Line[] = [{ uid: 'BOOT', price: 90 }];

const product = () => visitPage('product', { pageUrl: 'https://shop.example.com/products/jacket' });
const thanks = () => visitPage('thanks', { pageUrl: 'https://shop.example.com/thank-you' });

export default {
  valid: [
    {
      name: 'the cart/add on the product page, then the order',
      events: () => [
        product().cartAdd(JACKET, JACKET, { at: 0 }),
        thanks().order('12345', JACKET, { at: 5000 }),
      ],
    },
    {
      name: 'edge: a re-add of the bought item on another page a few minutes later (shopping on)',
      events: () => [
        thanks().order('12345', JACKET, { at: 0 }),
        product().cartAdd(JACKET, JACKET, { at: 3 * 60_000 }),
      ],
    },
    {
      name: 'edge: a re-add on the order’s page more than 10 s after it',
      events: () => {
        const page = thanks();
        return [
          page.order('12345', JACKET, { at: 0 }),
          page.cartAdd(JACKET, JACKET, { at: 10_001 }),
        ];
      },
    },
    {
      name: 'edge: the add on the order’s page holds something the order did not buy (a new cart)',
      events: () => {
        const page = thanks();
        return [
          page.order('12345', JACKET, { at: 0 }),
          page.cartAdd([...JACKET, ...BOOT], [...JACKET, ...BOOT], { at: 500 }),
        ];
      },
    },
    {
      name: 'edge: the order’s item was carted before the order (its cart events came first)',
      events: () => {
        const page = thanks();
        return [
          product().cartAdd(JACKET, JACKET, { at: 0 }),
          page.order('12345', JACKET, { at: 5000 }),
          page.cartAdd(JACKET, JACKET, { at: 5400 }),
        ];
      },
    },
    {
      name: 'the thank-you page’s emptied cart removed before its order, as the client sends it',
      events: () => {
        const page = thanks();
        return [
          product().cartAdd(JACKET, JACKET, { at: 0 }),
          page.cartRemove(JACKET, [], { at: 5000 }),
          page.order('12345', JACKET, { at: 5004 }),
        ];
      },
    },
    {
      name: 'edge: a remove at the order’s very instant (sent just before it, or not)',
      events: () => {
        const page = thanks();
        return [page.order('12345', JACKET, { at: 0 }), page.cartRemove(JACKET, [], { at: 0 })];
      },
    },
    {
      name: 'edge: a remove after the order of what it did not buy',
      events: () => {
        const page = thanks();
        return [page.order('12345', JACKET, { at: 0 }), page.cartRemove(BOOT, [], { at: 300 })];
      },
    },
    {
      name: 'edge: a remove of the bought item on the next page load',
      events: () => [
        thanks().order('12345', JACKET, { at: 0 }),
        product().cartRemove(JACKET, [], { at: 4000 }),
      ],
    },
    {
      name: 'edge: the add on the order’s page comes before the order',
      events: () => {
        const page = thanks();
        return [page.cartAdd(JACKET, JACKET, { at: 0 }), page.order('12345', JACKET, { at: 400 })];
      },
    },
  ],
  invalid: [
    {
      name: 'the thank-you page empties its cart after the order',
      events: () => {
        const page = thanks();
        return [
          product().cartAdd(JACKET, JACKET, { at: 0 }),
          page.order('12345', JACKET, { at: 5000 }),
          page.cartRemove(JACKET, [], { at: 5300 }),
        ];
      },
      findings: [
        {
          messageId: 'removedAfter',
          message:
            /^cart\/remove ev_\w+ removed uid "2001" on the order’s page 0\.3 s after order "12345" \(ev_\w+\) bought it/,
          fix: 'do not send cart/remove after the order',
          events: [2, 1],
          behaviour: 'cart.ledger',
        },
      ],
    },
    {
      name: 'the order first, then the cart/add of what it bought, on the thank-you page',
      events: () => {
        const page = thanks();
        return [
          product().product('P200', { at: 0 }),
          page.order('12345', JACKET, { at: 2000 }),
          page.cartAdd(JACKET, JACKET, { at: 2400 }),
        ];
      },
      findings: [
        {
          messageId: 'late',
          message:
            /^cart\/add ev_\w+ added uid "2001" on the order’s page 0\.4 s after order "12345" \(ev_\w+\) bought it/,
          fix: 'send cart/add when the item goes into the cart',
          events: [2, 1],
          pageLoadId: 'thanks',
          behaviour: 'cart.ledger',
        },
      ],
    },
    {
      name: 'edge: 10 s after the order, on its page',
      events: () => {
        const page = thanks();
        return [
          page.order('12345', JACKET, { at: 0 }),
          page.cartAdd(JACKET, JACKET, { at: 10_000 }),
        ];
      },
      findings: [{ messageId: 'late', message: '10 s after order "12345"', events: [1, 0] }],
    },
    {
      name: 'edge: the add names the product of a variant the order bought (parentId)',
      events: () => {
        const page = thanks();
        return [
          page.order('12345', JACKET, { at: 0 }),
          page.cartAdd([{ uid: 'P200' }], [{ uid: 'P200' }], { at: 300 }),
        ];
      },
      findings: [{ messageId: 'late', events: [1, 0] }],
    },
  ],
} satisfies RuleCases;
