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
    {
      name: 'a category page’s redirect alone, on search/redirect',
      events: () => [
        new PageBuilder().as('category').redirect('c3', '/pages/gift-cards', { at: 0 }),
      ],
    },
    {
      name: 'edge: a category response rendered, and another response of the page redirected',
      events: () => {
        const p = new PageBuilder().as('category');
        return [p.render('c1', { at: 0 }), p.redirect('c3', '/pages/gift-cards', { at: 50 })];
      },
    },
    {
      name: 'edge: a category render after its redirect is after-redirect’s, not this rule’s',
      events: () => {
        const p = new PageBuilder().as('category');
        return [p.redirect('c3', '/pages/gift-cards', { at: 0 }), p.render('c3', { at: 50 })];
      },
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
    {
      name: 'a category page rendered its response, then sent its redirect to search/redirect',
      events: () => {
        const p = new PageBuilder().as('category');
        return [p.render('c3', { at: 0 }), p.redirect('c3', '/pages/gift-cards', { at: 50 })];
      },
      findings: [
        {
          message: 'was redirected',
          fix: 'without category/render',
          events: [0, 1],
          responseId: 'c3',
          behaviour: 'category.redirect',
        },
      ],
    },
  ],
} satisfies RuleCases;
