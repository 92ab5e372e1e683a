import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'a merchandising redirect: the redirect alone',
      events: () => [new PageBuilder().redirect('r3', '/pages/gift-cards', { at: 0 })],
    },
    {
      name: 'a single-result redirect: a render, then the product page (no redirect event)',
      events: () => [new PageBuilder().render('r4', { at: 0 })],
    },
  ],
  invalid: [
    {
      name: 'the redirect response rendered, then redirected',
      events: () => {
        const p = new PageBuilder();
        return [p.render('r3', { at: 0 }), p.redirect('r3', '/pages/gift-cards', { at: 50 })];
      },
      findings: [
        {
          message: 'was redirected',
          fix: 'without search/render',
          events: [0, 1],
          responseId: 'r3',
        },
      ],
    },
  ],
} satisfies RuleCases;
