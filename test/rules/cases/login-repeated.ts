import { visitPage, type RuleCases } from '../kit';

const as = (shopperId: string, at: number) => ({ at, context: { shopperId } });

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
      name: 'the login’s own page sent its cart event first',
      events: () => [
        visitPage('cart').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], as('s-9', 30_000)),
        visitPage('cart').login('s-9', { at: 30_001 }),
      ],
    },
    {
      name: 'logged out in between, then in again',
      events: () => [
        visitPage('account').login('s-9', { at: 0 }),
        visitPage('pdp').product('a', { at: 10_000 }),
        visitPage('account2').login('s-9', { at: 20_000 }),
      ],
    },
  ],
  invalid: [
    {
      name: 'a login sent on every page',
      events: () => [
        visitPage('account').login('s-9', { at: 0 }),
        visitPage('pdp').login('s-9', { at: 10_000 }),
      ],
      findings: [
        {
          message: 'which the visit already carried',
          fix: 'do not send shopper/login on every page',
          pageLoadId: 'pdp',
          events: [0, 1],
        },
      ],
    },
  ],
} satisfies RuleCases;
