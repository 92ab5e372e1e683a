import { visitPage, type RuleCases } from '../kit';

const at = (pageLoadId: string, path: string, dev: boolean) =>
  visitPage(pageLoadId, { pageUrl: `http://localhost:3000/${path}`, dev });

export default {
  valid: [
    {
      name: 'every page in development mode',
      events: () => [
        visitPage('pdp').product('a', { at: 0 }),
        visitPage('thanks').order('o-1', [{ uid: 'a' }], { at: 30_000 }),
      ],
    },
    {
      name: 'a shopper switches to development mode mid-visit with ?dev: that page and the next (its session cookie) in development',
      events: () => [
        at('pdp', 'products/a', false).product('a', { at: 0 }),
        at('pdp-dev', 'products/a?dev=true', true).product('a', { at: 10_000 }),
        at('pdp-b', 'products/b', true).product('b', { at: 20_000 }),
      ],
    },
    {
      name: 'and back to production with ?dev=false',
      events: () => [
        at('pdp', 'products/a?dev', true).product('a', { at: 0 }),
        at('pdp-prod', 'products/a?dev=false', false).product('a', { at: 10_000 }),
        at('pdp-b', 'products/b', false).product('b', { at: 20_000 }),
      ],
    },
  ],
  invalid: [
    {
      name: 'edge: after a switch to development mode, a page in production without ?dev=false',
      events: () => [
        at('pdp', 'products/a', false).product('a', { at: 0 }),
        at('pdp-dev', 'products/a?dev=true', true).product('a', { at: 10_000 }),
        at('thanks', 'thank-you', false).order('o-1', [{ uid: 'a' }], { at: 20_000 }),
      ],
      findings: [
        {
          messageId: 'afterSwitch',
          message:
            'lacks context.dev: true, but the visit switched to development mode at page pdp-dev',
          fix: 'the `dev` parameter and its session cookie',
          pageLoadId: 'thanks',
        },
      ],
    },
    {
      name: 'a thank-you page in production mode inside a development visit',
      events: () => [
        visitPage('pdp').product('a', { at: 0 }),
        visitPage('thanks', { dev: false }).order('o-1', [{ uid: 'a' }], { at: 30_000 }),
      ],
      findings: [
        {
          messageId: 'mixed',
          message: 'lacks context.dev: true',
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
