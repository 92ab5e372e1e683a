import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'each tile impressed once as it scrolls into view',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a', 'b'], { at: 1200 }),
          p.impression('r1', ['c', 'd'], { at: 4000 }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'the same tile impressed on every scroll',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a', 'b'], { at: 1200 }),
          p.impression('r1', ['a', 'c'], { at: 4000 }),
        ];
      },
      findings: [{ message: '"a"', responseId: 'r1' }],
    },
  ],
} satisfies RuleCases;
