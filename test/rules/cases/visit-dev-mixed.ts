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
          message: 'lack context.dev: true',
          fix: 'same mode on every page',
          pageLoadId: 'thanks',
          events: [0, 1],
        },
      ],
    },
  ],
} satisfies RuleCases;
