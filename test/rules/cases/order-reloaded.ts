import { visitPage, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'one order',
      events: () => [visitPage('thanks').order('o-1', [{ uid: 'a' }], { at: 0 })],
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
  ],
} satisfies RuleCases;
