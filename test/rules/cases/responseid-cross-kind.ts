import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'autocomplete and search each with their own responseId',
      events: () => {
        const p = new PageBuilder();
        const ac = p.as('autocomplete');
        return [
          ac.render('a1', { at: 0 }),
          ac.impression('a1', ['x'], { at: 1200 }),
          p.render('s1', { at: 3000 }),
          p.impression('s1', ['y'], { at: 4200 }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'search events carrying the autocomplete response’s id',
      events: () => {
        const p = new PageBuilder();
        const ac = p.as('autocomplete');
        return [
          ac.render('a1', { at: 0 }),
          ac.impression('a1', ['x'], { at: 1200 }),
          p.render('a1', { at: 3000 }),
          p.impression('a1', ['y'], { at: 4200 }),
        ];
      },
      findings: [{ responseId: 'a1' }],
    },
  ],
} satisfies RuleCases;
