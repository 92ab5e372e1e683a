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
      findings: [{ fix: 'once per response', responseId: 'r1' }],
    },
  ],
} satisfies RuleCases;
