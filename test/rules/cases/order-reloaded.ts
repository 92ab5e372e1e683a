import { visitPage, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'one order',
      events: () => [visitPage('thanks').order('o-1', [{ uid: 'a' }], { at: 0 })],
    },
    {
      name: 'another shopper (userId and sessionId) sends the same orderId from the same page 45 s later: no reload (order-duplicate names it)',
      events: () => [
        visitPage('t1', { pageUrl: 'https://shop.example/thanks' }).order('5001', [{ uid: 'a' }], {
          at: 0,
        }),
        visitPage('t2', {
          pageUrl: 'https://shop.example/thanks',
          userId: 'user-2',
          sessionId: 'session-2',
        }).order('5001', [{ uid: 'b' }], { at: 45_000 }),
      ],
    },
    {
      name: 'a copy timed as a reload but carrying a vat the tracker never sends: another sender (order-duplicate names it)',
      events: () => {
        const t = visitPage('thanks');
        return [
          t.order('o-1', [{ uid: 'a' }], { at: 0 }),
          t.order('o-1', [{ uid: 'a' }], { at: 1500 }, { vat: 0.2 }),
        ];
      },
    },
    {
      name: 'the same page load past 10 s (order-duplicate names it)',
      events: () => {
        const t = visitPage('thanks');
        return [
          t.order('o-1', [{ uid: 'a' }], { at: 0 }),
          t.order('o-1', [{ uid: 'a' }], { at: 10_001 }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'a reload within 10 s: the same pageLoadId',
      events: () => {
        const t = visitPage('thanks');
        return [
          t.order('o-1', [{ uid: 'a' }], { at: 0 }),
          t.order('o-1', [{ uid: 'a' }], { at: 10_000 }),
        ];
      },
      findings: [
        {
          messageId: 'reloaded',
          message: 'was sent again 10 s after ev_',
          fix: 'first view of the thank-you page',
          events: [0, 1],
          behaviour: 'order.transaction',
        },
      ],
    },
    {
      name: 'a return to the thank-you page later, on a new page load',
      events: () => [
        visitPage('t1', { pageUrl: 'https://shop.example/thanks?o=1' }).order(
          'o-1',
          [{ uid: 'a' }],
          { at: 0 },
        ),
        visitPage('t2', { pageUrl: 'https://shop.example/thanks?o=1' }).order(
          'o-1',
          [{ uid: 'a' }],
          { at: 3_600_000 },
        ),
      ],
      findings: [{ messageId: 'reloaded', message: 'on a new page load (t2)', pageLoadId: 't2' }],
    },
    {
      name: 'edge: a return 30 min later with a new sessionId (the session may have expired) and the same userId',
      events: () => [
        visitPage('t1', { pageUrl: 'https://shop.example/thanks' }).order('o-1', [{ uid: 'a' }], {
          at: 0,
        }),
        visitPage('t2', { pageUrl: 'https://shop.example/thanks', sessionId: 'session-2' }).order(
          'o-1',
          [{ uid: 'a' }],
          { at: 30 * 60_000 },
        ),
      ],
      findings: [{ messageId: 'reloaded', message: '1800 s after', pageLoadId: 't2' }],
    },
  ],
} satisfies RuleCases;
