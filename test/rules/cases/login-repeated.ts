import { visitPage, type RuleCases } from '../kit';

const A = 'http://localhost:3000/account';
const as = (shopperId: string, at: number) => ({ at, context: { shopperId } });
const account = (pageUrl = A) => visitPage('acc', { pageUrl });

export default {
  valid: [
    {
      name: 'one login when the shopper logs in',
      events: () => [
        visitPage('pdp').product('a', { at: 0 }),
        visitPage('account').login('s-9', { at: 10_000 }),
        visitPage('pdp2').product('b', as('s-9', 20_000)),
      ],
    },
    {
      // Snap.tsx logs the context's shopper in on every page load; B queues it though the id is stored
      name: 'a login on every page load of the logged-in shopper, as the client sends it',
      events: () => [
        visitPage('account').login('s-9', { at: 0 }),
        visitPage('pdp').login('s-9', { at: 10_000 }),
        visitPage('pdp').product('a', as('s-9', 10_001)),
        visitPage('cart').login('s-9', { at: 20_000 }),
      ],
    },
    {
      name: 'the login’s own page sent its cart event first',
      events: () => [
        visitPage('cart').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], as('s-9', 30_000)),
        visitPage('cart').login('s-9', { at: 30_001 }),
      ],
    },
    {
      name: 'edge: a reload within 10 s keeps the page load and logs in again, 1 s later',
      events: () => [account().login('s-9', { at: 0 }), account().login('s-9', { at: 1_000 })],
    },
    {
      name: 'edge: a reload 12 s after the first login (10 s of the pageLoadId, the queue after the load)',
      events: () => [account().login('s-9', { at: 0 }), account().login('s-9', { at: 12_000 })],
    },
    {
      name: 'edge: an SPA route whose login script retarget() read, at another URL, 20 s later',
      events: () => [
        account().login('s-9', { at: 0 }),
        account(`${A}/orders`).login('s-9', { at: 20_000 }),
      ],
    },
    {
      name: 'edge: another shopper logged in between, then the first again',
      events: () => [
        account().login('s-9', { at: 0 }),
        account().login('s-10', { at: 30_000 }),
        account().login('s-9', { at: 60_000 }),
      ],
    },
  ],
  invalid: [
    {
      name: 'a login per action: again 30 s later on the same page load and URL',
      events: () => [account().login('s-9', { at: 0 }), account().login('s-9', { at: 30_000 })],
      findings: [
        {
          messageId: 'late',
          message: 'again, 30 s after',
          fix: 'do not call shopper/login on clicks',
          pageLoadId: 'acc',
          events: [0, 1],
          behaviour: 'login.shopper',
        },
      ],
    },
    {
      name: 'edge: 12.1 s later, past a reload',
      events: () => [account().login('s-9', { at: 0 }), account().login('s-9', { at: 12_100 })],
      findings: [{ messageId: 'late', events: [0, 1] }],
    },
    {
      name: 'two senders: a second login request 200 ms after the first, which the queue would have merged',
      events: () => [account().login('s-9', { at: 0 }), account().login('s-9', { at: 200 })],
      findings: [
        {
          messageId: 'merged',
          data: { after: 200 },
          fix: 'remove the second call',
          events: [0, 1],
        },
      ],
    },
    {
      name: 'edge: 999 ms apart',
      events: () => [account().login('s-9', { at: 0 }), account().login('s-9', { at: 999 })],
      findings: [{ messageId: 'merged', events: [0, 1] }],
    },
  ],
} satisfies RuleCases;
