import { visitPage, type RuleCases } from '../kit';

const MIN = 60_000;

export default {
  valid: [
    {
      name: 'a new session after more than 30 minutes without an event',
      events: () => [
        visitPage('pdp1').product('a', { at: 0 }),
        visitPage('pdp2', { sessionId: 'session-2' }).product('b', { at: 45 * MIN }),
      ],
    },
    {
      name: 'two tabs opened together on a fresh browser',
      events: () => [
        visitPage('tab1').product('a', { at: 0 }),
        visitPage('tab2', { sessionId: 'session-2' }).product('b', { at: 900 }),
      ],
    },
  ],
  invalid: [
    {
      name: 'a new sessionId on the next page load (the storefront makes one per page)',
      events: () => [
        visitPage('pdp1').product('a', { at: 0 }),
        visitPage('pdp2', { sessionId: 'session-2' }).product('b', { at: 20_000 }),
      ],
      findings: [
        {
          message: 'began visit (sessionId) "session-2"',
          fix: 'keep the sessionId',
          pageLoadId: 'pdp2',
          events: [1],
        },
      ],
    },
  ],
} satisfies RuleCases;
