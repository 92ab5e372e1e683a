import { visitPage, type RuleCases } from '../kit';

const MIN = 60_000;

export default {
  valid: [
    {
      name: 'a visit with pauses under 30 minutes',
      events: () => [
        visitPage('pdp1').product('a', { at: 0 }),
        visitPage('pdp2').product('b', { at: 25 * MIN }),
        visitPage('cart').cartAdd([{ uid: 'b' }], [{ uid: 'b' }], { at: 50 * MIN }),
      ],
    },
    {
      name: 'a queued event arriving late, timestamped before the visit’s latest',
      events: () => [
        visitPage('pdp1').product('a', { at: 0 }),
        visitPage('pdp2').product('b', { at: 20 * MIN }),
        visitPage('pdp1').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 1000 }),
      ],
    },
    {
      name: 'after 40 minutes the shopper comes back with a new sessionId',
      events: () => [
        visitPage('pdp1').product('a', { at: 0 }),
        visitPage('pdp2', { sessionId: 'session-2' }).product('b', { at: 40 * MIN }),
      ],
    },
    {
      name: 'an SPA page left open 40 minutes keeps the sessionId it read at its load (the client reads it once per page load)',
      events: () => [
        visitPage('spa').product('a', { at: 0 }),
        visitPage('spa').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 40 * MIN }),
      ],
    },
  ],
  invalid: [
    {
      name: 'edge: after the SPA page’s 40 minutes, a new page load still carrying the sessionId',
      events: () => [
        visitPage('spa').product('a', { at: 0 }),
        visitPage('spa').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 40 * MIN }),
        visitPage('pdp2').product('b', { at: 80 * MIN }),
      ],
      findings: [
        { message: 'after the visit had no event for 40 minutes', pageLoadId: 'pdp2', events: [2] },
      ],
    },
    {
      name: 'the same sessionId after 45 minutes without an event',
      events: () => [
        visitPage('pdp1').product('a', { at: 0 }),
        visitPage('pdp2').product('b', { at: 45 * MIN }),
      ],
      findings: [
        {
          message: 'after the visit had no event for 45 minutes',
          fix: 'let the provider',
          pageLoadId: 'pdp2',
          events: [1],
        },
      ],
    },
  ],
} satisfies RuleCases;
