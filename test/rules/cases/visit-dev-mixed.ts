import { visitPage, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'every page in development mode',
      events: () => [
        visitPage('pdp').product('a', { at: 0 }),
        visitPage('thanks').order('o-1', [{ uid: 'a' }], { at: 30_000 }),
      ],
    },
  ],
  invalid: [
    {
      name: 'a thank-you page in production mode inside a development visit',
      events: () => [
        visitPage('pdp').product('a', { at: 0 }),
        visitPage('thanks', { dev: false }).order('o-1', [{ uid: 'a' }], { at: 30_000 }),
      ],
      findings: [
        {
          messageId: 'mixed',
          message: 'lack context.dev: true',
          fix: 'same mode on every page',
          pageLoadId: 'thanks',
          events: [0, 1],
        },
      ],
    },
    {
      name: 'two trackers of one page in different modes: the listing’s in development, the dropdown’s not',
      events: () => [
        visitPage('search').product('a', { at: 0 }),
        visitPage('search', { dev: false }).product('b', { at: 2_000 }),
      ],
      findings: [
        {
          messageId: 'onePage',
          message: 'two trackers of this page were made in different modes',
          fix: 'make one tracker per page',
          pageLoadId: 'search',
        },
      ],
    },
  ],
} satisfies RuleCases;
