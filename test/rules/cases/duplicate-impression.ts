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
      name: 'a slot banner repeated beside every tile of one impression request',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a', 'b'], { at: 1200 }, ['81001', '81001']),
        ];
      },
      findings: [
        {
          messageId: 'withinOne',
          message: '), in data.banners: uid "81001"',
          fix: 'impress a slot banner on its own',
          responseId: 'r1',
          events: [1],
        },
      ],
    },
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
      findings: [
        {
          messageId: 'duplicate',
          message: '"a"',
          responseId: 'r1',
          behaviour: 'search.impression',
        },
      ],
    },
    {
      name: 'infinite scroll renders page 2, and page 1’s tiles are impressed again (6a63aa5)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a', 'b'], { at: 1200 }),
          p.render('r2', { at: 5000 }),
          p.impression('r2', ['c', 'd'], { at: 6200 }),
          p.impression('r1', ['a', 'b'], { at: 6300 }),
        ];
      },
      // the tiles shown stay on screen as page 2 is added: each keeps its response, already impressed
      findings: [
        {
          messageId: 'duplicate',
          message: '"a"',
          responseId: 'r1',
          events: [1, 4],
          behaviour: 'search.tile-response',
        },
      ],
    },
  ],
} satisfies RuleCases;
