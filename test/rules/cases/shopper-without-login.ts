import { visitPage, type RuleCases } from '../kit';

const as = (shopperId: string, at: number) => ({ at, context: { shopperId } });

export default {
  valid: [
    {
      name: 'a login, then events carrying its shopperId',
      events: () => [
        visitPage('pdp').product('a', { at: 0 }),
        visitPage('account').login('s-9', { at: 10_000 }),
        visitPage('cart').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], as('s-9', 20_000)),
      ],
    },
    {
      name: 'the login queued behind the cart event of its own page (created together)',
      events: () => [
        visitPage('pdp').product('a', { at: 0 }),
        visitPage('cart').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], as('s-9', 30_000)),
        visitPage('cart').login('s-9', { at: 30_001 }),
      ],
    },
    {
      name: 'a shopper logged in on an earlier visit: the visit begins with the stored id',
      events: () => [
        visitPage('pdp').product('a', as('s-9', 0)),
        visitPage('cart').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], as('s-9', 20_000)),
      ],
    },
    {
      name: 'a logout: the shopperId goes away',
      events: () => [
        visitPage('pdp').product('a', as('s-9', 0)),
        visitPage('pdp2').product('b', { at: 20_000 }),
      ],
    },
    {
      name: 'one browser: a shopper logs in, another logs in, the first logs in again',
      events: () => [
        visitPage('account').login('s-9', { at: 0 }),
        visitPage('pdp').product('a', as('s-9', 10_000)),
        visitPage('account2').login('s-10', { at: 20_000 }),
        visitPage('pdp2').product('b', as('s-10', 30_000)),
        visitPage('account3').login('s-9', { at: 40_000 }),
        visitPage('pdp3').product('c', as('s-9', 50_000)),
      ],
    },
  ],
  invalid: [
    {
      name: 'a shopperId appearing mid-visit with no login',
      events: () => [
        visitPage('pdp').product('a', { at: 0 }),
        visitPage('cart').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], as('s-9', 20_000)),
      ],
      findings: [
        {
          messageId: 'noLogin',
          message: 'carried none, and no shopper/login with "s-9"',
          pageLoadId: 'cart',
          events: [0, 1],
        },
      ],
    },
    {
      name: 'another shopper’s id with no login of it',
      events: () => [
        visitPage('account').login('s-9', { at: 0 }),
        visitPage('pdp').product('a', as('s-9', 10_000)),
        visitPage('pdp2').product('b', as('s-10', 20_000)),
      ],
      findings: [
        {
          messageId: 'noLogin',
          message: 'carried shopperId "s-9"',
          pageLoadId: 'pdp2',
          events: [1, 2],
        },
      ],
    },
    {
      name: 'ids made once on the server: two logged-in shoppers’ pages alternate in one visit',
      events: () => [
        visitPage('account').login('s-9', { at: 0 }),
        visitPage('pdp').product('a', as('s-9', 10_000)),
        visitPage('account2').login('s-10', { at: 20_000 }),
        visitPage('pdp2').product('b', as('s-10', 30_000)),
        visitPage('pdp3').product('c', as('s-9', 40_000)),
      ],
      findings: [
        {
          messageId: 'shared',
          message: "two shoppers' browsers send this visit's userId and sessionId",
          fix: 'do not generate them on the server',
          pageLoadId: 'pdp3',
        },
      ],
    },
  ],
} satisfies RuleCases;
