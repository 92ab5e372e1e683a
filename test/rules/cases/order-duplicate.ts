import { visitPage, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'two different orders',
      events: () => [
        visitPage('t1').order('o-1', [{ uid: 'a' }], { at: 0 }),
        visitPage('t2').order('o-2', [{ uid: 'b' }], { at: 60_000 }),
      ],
    },
    {
      name: 'the thank-you page reloaded within 10 s (order-reloaded names it)',
      events: () => {
        const t = visitPage('thanks');
        return [
          t.order('o-1', [{ uid: 'a' }], { at: 0 }),
          t.order('o-1', [{ uid: 'a' }], { at: 10_000 }),
        ];
      },
    },
    {
      name: 'a reload 500 ms after (order-reloaded names it)',
      events: () => {
        const t = visitPage('thanks');
        return [
          t.order('o-1', [{ uid: 'a' }], { at: 0 }),
          t.order('o-1', [{ uid: 'a' }], { at: 500 }),
        ];
      },
    },
    {
      name: 'the thank-you page opened again later from the e-mail: a new page load, another query (order-reloaded)',
      events: () => [
        visitPage('t1', { pageUrl: 'https://shop.example/thanks?o=1' }).order(
          'o-1',
          [{ uid: 'a' }],
          { at: 0 },
        ),
        visitPage('t2', { pageUrl: 'https://shop.example/thanks?o=1&utm_source=email#top' }).order(
          'o-1',
          [{ uid: 'a' }],
          { at: 60_000 },
        ),
      ],
    },
  ],
  invalid: [
    {
      name: 'the same page load sends the order again 10.001 s later (past any reload)',
      events: () => {
        const t = visitPage('thanks');
        return [
          t.order('o-1', [{ uid: 'a' }], { at: 0 }),
          t.order('o-1', [{ uid: 'a' }], { at: 10_001 }),
        ];
      },
      findings: [
        {
          messageId: 'samePage',
          message: 'was sent again on the same page 10 s after',
          fix: 'render the order script once',
          events: [0, 1],
          behaviour: 'order.transaction',
        },
      ],
    },
    {
      name: 'the same page load sends it twice 499 ms apart (a snippet and a tag, no reload)',
      events: () => {
        const t = visitPage('thanks');
        return [
          t.order('o-1', [{ uid: 'a' }], { at: 0 }),
          t.order('o-1', [{ uid: 'a' }], { at: 499 }),
        ];
      },
      findings: [{ messageId: 'samePage', message: 'on the same page 499 ms after' }],
    },
    {
      name: 'another page sends the same orderId',
      events: () => [
        visitPage('thanks', { pageUrl: 'https://shop.example/thanks?o=1' }).order(
          'o-1',
          [{ uid: 'a' }],
          { at: 0 },
        ),
        visitPage('account', { pageUrl: 'https://shop.example/account/orders' }).order(
          'o-1',
          [{ uid: 'a' }],
          { at: 3000 },
        ),
      ],
      findings: [
        {
          messageId: 'otherPage',
          message: 'was sent again from https://shop.example/account/orders, after ev_',
          fix: 'from the thank-you page only',
          events: [0, 1],
        },
      ],
    },
  ],
} satisfies RuleCases;
