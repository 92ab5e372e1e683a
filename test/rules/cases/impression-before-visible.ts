import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'tiles impressed a second or more after the render',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a', 'b'], { at: 1050 }),
          p.impression('r1', ['c'], { at: 4000 }),
        ];
      },
    },
    {
      name: 'a cached response rendered again, its tiles impressed again a second later',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.render('r1', { at: 9000 }),
          p.impression('r1', ['a'], { at: 10_100 }),
        ];
      },
    },
    {
      name: 'infinite-scroll backfill: a later page’s tiles have no render of their own',
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r2', ['b'], { at: 20 })];
      },
    },
    {
      name: 'autocomplete is not judged',
      events: () => {
        const p = new PageBuilder().as('autocomplete');
        return [p.render('a1', { at: 0 }), p.impression('a1', ['a'], { at: 300 })];
      },
    },
  ],
  invalid: [
    {
      name: 'every tile impressed as it is drawn',
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['a', 'b', 'c'], { at: 40 })];
      },
      findings: [
        {
          message: 'created less than a second after its render: ',
          fix: 'when a tile has been visible for a second',
          events: [0, 1],
          responseId: 'r1',
        },
      ],
    },
    {
      name: 'render and impression stamped with the same instant',
      events: () => {
        const p = new PageBuilder().as('category');
        return [p.render('c1', { at: 0 }), p.impression('c1', ['a'], { at: 0 })];
      },
      findings: [{ message: '0 ms after', fix: 'category/impression', events: [0, 1] }],
    },
    {
      name: 'a cached response rendered again, its tiles impressed with the render',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.render('r1', { at: 9000 }),
          p.impression('r1', ['a'], { at: 9010 }),
        ];
      },
      findings: [{ message: '10 ms after', events: [2, 3] }],
    },
  ],
} satisfies RuleCases;
