import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'a cached response rendered again after its impressions (back to it)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.render('r1', { at: 5000 }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'two renders of one response before any impression',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.render('r1', { at: 100 }),
          p.impression('r1', ['a'], { at: 1300 }),
        ];
      },
      findings: [{ messageId: 'renderedAgain', fix: 'once per response', responseId: 'r1' }],
    },
    {
      name: 'autocomplete: the response shown rendered again for the same term',
      events: () => {
        const p = new PageBuilder().as('autocomplete');
        return [
          p.render('a1', { at: 0 }),
          p.impression('a1', ['a'], { at: 1200 }),
          p.render('a1', { at: 3000 }),
        ];
      },
      findings: [
        {
          messageId: 'autocompleteRenderedAgain',
          message: 'while it was the autocomplete response shown',
          fix: 'not again when the same response comes back',
          events: [0, 2],
          responseId: 'a1',
        },
      ],
    },
  ],
} satisfies RuleCases;
