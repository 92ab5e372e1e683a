import { PageBuilder, type RuleCases } from '../kit';

const tiles = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `t${from + i}`);

export default {
  valid: [
    {
      name: 'tiles impressed as they scroll into view',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', tiles(8), { at: 1200 }),
          p.impression('r1', tiles(8, 8), { at: 4000 }),
          p.impression('r1', tiles(8, 16), { at: 7000 }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: '24 tiles impressed at load',
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', tiles(24), { at: 100 })];
      },
      findings: [{ fix: 'IntersectionObserver', responseId: 'r1' }],
    },
  ],
} satisfies RuleCases;
