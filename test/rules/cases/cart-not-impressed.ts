import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'a quick add of an impressed tile (its variant, by parentId)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.cart('r1', 'a-red', { at: 3000 }, 'a'),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'a quick add of a tile never impressed',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.cart('r1', 'b', { at: 3000 }),
        ];
      },
      findings: [{ message: '"b"', events: [2], responseId: 'r1' }],
    },
  ],
} satisfies RuleCases;
