import { visitPage, type RuleCases } from '../kit';

const THANKS = 'https://shop.example/thanks';
/** the thank-you page loaded by a shopper (userId, sessionId) */
const thanks = (pageLoadId: string, userId: string, sessionId: string) =>
  visitPage(pageLoadId, { pageUrl: THANKS, userId, sessionId });

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
      name: 'edge: a reload within 10 s of a thank-you page whose cart/remove came before the first order (the first load’s own)',
      events: () => {
        const t = visitPage('thanks');
        return [
          t.cartRemove([{ uid: 'a' }], [], { at: 0 }),
          t.order('o-1', [{ uid: 'a' }], { at: 10 }),
          t.order('o-1', [{ uid: 'a' }], { at: 5_000 }),
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
    {
      name: 'edge: the same userId on a new sessionId 30 min after the first order (the session may have expired): a return, order-reloaded’s',
      events: () => [
        thanks('t1', 'user-1', 'session-1').order('o-1', [{ uid: 'a' }], { at: 0 }),
        thanks('t2', 'user-1', 'session-2').order('o-1', [{ uid: 'a' }], { at: 30 * 60_000 }),
      ],
    },
  ],
  invalid: [
    {
      name: 'a tag manager sends the order again 1.5 s later on the same page load, with a vat the tracker never sends',
      events: () => {
        const t = visitPage('thanks');
        return [
          t.order('o-1', [{ uid: 'a' }], { at: 0 }),
          t.order('o-1', [{ uid: 'a' }], { at: 1500 }, { vat: 0.2 }),
        ];
      },
      findings: [
        {
          messageId: 'notAsSent',
          message: "it carries vat 0.2, which the provider's tracker never sends",
          fix: 'remove the tag manager',
          events: [0, 1],
        },
      ],
    },
    {
      name: 'edge: the first carried the vat (a hand-written call), the copy on a new page load has none',
      events: () => [
        visitPage('t1', { pageUrl: THANKS }).order('o-1', [{ uid: 'a' }], { at: 0 }, { vat: 0.2 }),
        visitPage('t2', { pageUrl: THANKS }).order('o-1', [{ uid: 'a' }], { at: 60_000 }),
      ],
      findings: [
        {
          messageId: 'notAsSent',
          message: "the first carried vat 0.2, which the provider's tracker never sends",
          events: [0, 1],
        },
      ],
    },
    {
      name: 'edge: a copy timed as a reload with other totals (a second order script, not the same one read again)',
      events: () => {
        const t = visitPage('thanks');
        return [
          t.order('o-1', [{ uid: 'a' }], { at: 0 }),
          t.order('o-1', [{ uid: 'a' }], { at: 4000 }, { tt: 20, total: 24.5 }),
        ];
      },
      findings: [
        {
          messageId: 'notAsSent',
          message: "its totals (transactionTotal 20, total 24.5) are not the first's (20, 20)",
          events: [0, 1],
        },
      ],
    },
    {
      name: 'edge: a copy timed as a reload with other lines',
      events: () => {
        const t = visitPage('thanks');
        return [
          t.order('o-1', [{ uid: 'a' }, { uid: 'b', price: 0 }], { at: 0 }),
          t.order('o-1', [{ uid: 'b', price: 0 }, { uid: 'a' }], { at: 4000 }),
        ];
      },
      findings: [
        { messageId: 'notAsSent', message: "its lines are not the first's", events: [0, 1] },
      ],
    },
    {
      name: 'another shopper (another userId and sessionId) sends the same orderId from the same thank-you page 45 s later: a hard-coded order id',
      events: () => [
        thanks('t1', 'user-1', 'session-1').order('5001', [{ uid: 'a' }], { at: 0 }),
        thanks('t2', 'user-2', 'session-2').order('5001', [{ uid: 'b' }], { at: 45_000 }),
      ],
      findings: [
        {
          messageId: 'otherShopper',
          data: {
            orderId: '5001',
            userId: 'user-2',
            sessionId: 'session-2',
            firstUserId: 'user-1',
            firstSessionId: 'session-1',
          },
          message:
            /^order "5001" was sent again 45 s after ev_\S+, by another shopper: userId "user-2" and sessionId "session-2", where ev_\S+ had userId "user-1" and sessionId "session-1" \(https:\/\/shop\.example\/thanks, first from https:\/\/shop\.example\/thanks\)\. A reload of the thank-you page keeps both/,
          fix: 'the id of the order just placed',
          events: [0, 1],
          pageLoadId: 't2',
          behaviour: 'order.transaction',
        },
      ],
    },
    {
      name: 'edge: another userId on the same sessionId a day later (a reload keeps the userId for 18 months)',
      events: () => [
        thanks('t1', 'user-1', 'session-1').order('5001', [{ uid: 'a' }], { at: 0 }),
        thanks('t2', 'user-2', 'session-1').order('5001', [{ uid: 'a' }], { at: 86_400_000 }),
      ],
      findings: [{ messageId: 'otherShopper', data: { userId: 'user-2' }, pageLoadId: 't2' }],
    },
    {
      name: 'edge: the same userId on another sessionId 1 ms less than 30 min after (the session was still alive)',
      events: () => [
        thanks('t1', 'user-1', 'session-1').order('o-1', [{ uid: 'a' }], { at: 0 }),
        thanks('t2', 'user-1', 'session-2').order('o-1', [{ uid: 'a' }], { at: 30 * 60_000 - 1 }),
      ],
      findings: [{ messageId: 'otherShopper', data: { sessionId: 'session-2' } }],
    },
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
      name: 'a tag manager’s stale ecommerce variable: the next purchase’s thank-you page empties its cart, then sends the first order again',
      events: () => {
        const first = visitPage('thanks-1', {
          pageUrl: 'https://shop.example/thank-you?order=1001',
        });
        const second = visitPage('thanks-2', {
          pageUrl: 'https://shop.example/thank-you?order=1002',
        });
        return [
          first.cartRemove([{ uid: 'a' }], [], { at: 0 }),
          first.order('1001', [{ uid: 'a' }], { at: 10 }),
          second.cartRemove([{ uid: 'b', qty: 2 }], [], { at: 600_000 }),
          second.order('1001', [{ uid: 'a' }], { at: 600_010 }),
        ];
      },
      findings: [
        {
          messageId: 'stale',
          message: 'had just emptied a cart of 2 × "b"',
          fix: 'clear the tag manager',
          pageLoadId: 'thanks-2',
        },
      ],
    },
    {
      name: 'a service worker replays the answered order 120 s later: the same body, timestamp included',
      events: () => {
        const t = visitPage('thanks');
        return [
          t.order('o-1', [{ uid: 'a' }], { at: 0 }),
          t.order('o-1', [{ uid: 'a' }], { at: 0, recv: 120_000 }),
        ];
      },
      findings: [
        {
          messageId: 'resent',
          message: 'arrived again 120 s later with the same timestamp',
          fix: 'never one the service answered',
        },
      ],
    },
    {
      name: 'edge: the same timestamp with other lines is not one request delivered twice (two senders)',
      events: () => {
        const t = visitPage('thanks');
        return [
          t.order('o-1', [{ uid: 'a' }], { at: 0 }),
          t.order('o-1', [{ uid: 'b' }], { at: 0, recv: 41 }),
        ];
      },
      findings: [{ messageId: 'samePage', message: 'on the same page 0 ms after' }],
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
