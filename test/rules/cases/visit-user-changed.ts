import { visitPage, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'one userId for the visit; a login sets shopperId only',
      events: () => [
        visitPage('pdp').product('a', { at: 0 }),
        visitPage('account').login('shopper-9', { at: 10_000 }),
        visitPage('cart').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 20_000 }),
      ],
    },
    {
      name: 'two tabs opened at once on a fresh browser',
      events: () => [
        visitPage('tab1').product('a', { at: 0 }),
        visitPage('tab2', { userId: 'user-2' }).product('b', { at: 800 }),
      ],
    },
  ],
  invalid: [
    {
      name: 'a checkout tracker with a new userId',
      events: () => [
        visitPage('pdp').product('a', { at: 0 }),
        visitPage('checkout', { userId: 'user-new' }).cartAdd([{ uid: 'a' }], [{ uid: 'a' }], {
          at: 30_000,
        }),
      ],
      findings: [
        {
          message: 'user-new',
          fix: "keep the tracker's userId",
          pageLoadId: 'checkout',
          events: [0],
          // the same origin: the storefront made a new identity, no checkout elsewhere
          behaviour: 'identity.session',
        },
      ],
    },
    {
      name: 'a checkout on another domain given the sessionId but not the userId',
      events: () => [
        visitPage('pdp').product('a', { at: 0 }),
        visitPage('checkout', {
          userId: 'user-new',
          pageUrl: 'https://checkout.example/checkout',
        }).cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 30_000 }),
      ],
      findings: [
        { message: 'user-new', pageLoadId: 'checkout', behaviour: 'identity.cross-domain' },
      ],
    },
  ],
} satisfies RuleCases;
