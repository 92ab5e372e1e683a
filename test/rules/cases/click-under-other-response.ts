import { PAGED, PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'infinite scroll done right: page 2’s tile clicked with page 2’s responseId',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a', 'b'], { at: 1200 }),
          p.render('r2', { at: 4000 }),
          p.impression('r2', ['c', 'd'], { at: 5200 }),
          p.click('r2', 'c', { at: 7000 }),
        ];
      },
    },
    {
      name: 'a product shown on both pages of the list, clicked under either',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a', 'b'], { at: 1200 }),
          p.render('r2', { at: 4000 }),
          p.impression('r2', ['b', 'd'], { at: 5200 }),
          p.click('r1', 'b', { at: 7000 }),
        ];
      },
    },
    {
      name: 'two widgets (other tags) on one page: one widget’s tile is not the other’s',
      events: () => {
        const p = new PageBuilder().as('recommendations', 'similar');
        const q = new PageBuilder().as('recommendations', 'trending');
        return [
          p.render('w1', { at: 0 }),
          p.impression('w1', ['a'], { at: 1200 }),
          q.render('w2', { at: 100 }),
          q.impression('w2', ['b'], { at: 1300 }),
          q.click('w2', 'b', { at: 3000 }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'page 2’s tile clicked with page 1’s responseId',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a', 'b'], { at: 1200 }),
          p.render('r2', { at: 4000 }),
          p.impression('r2', ['c', 'd'], { at: 5200 }),
          p.click('r1', 'c', { at: 7000 }),
          p.render('r3', { at: 9000 }),
        ];
      },
      findings: [
        {
          message: 'impressed with responseId "r2"',
          fix: "tile's own result",
          events: [4],
          responseId: 'r1',
          // what each response returned is unknown: nothing else names the click, this leads
          causedBy: null,
        },
      ],
    },
    {
      name: 'infinite scroll with the responses issued: item-not-in-response names the click, this follows',
      provenance: { companion: true, responses: PAGED.responses },
      events: PAGED.traffic((q) => [
        q.impression('r2', ['P104', 'P105'], { at: 5200 }),
        q.click('r2', 'P102', { at: 7000 }),
      ]),
      findings: [
        {
          message: 'clickthrough ev_',
          events: [4],
          responseId: 'r2',
          behaviour: 'search.tile-response',
          causedBy: 'item-not-in-response',
        },
      ],
    },
    {
      name: 'a quick add of page 2’s tile with page 1’s responseId, the impression arriving after it',
      live: true,
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0, recv: 0 }),
          p.impression('r1', ['a'], { at: 1200, recv: 1200 }),
          p.render('r2', { at: 4000, recv: 4000 }),
          p.cart('r1', 'c', { at: 6000, recv: 6000 }),
          p.impression('r2', ['c'], { at: 5200, recv: 6500 }),
        ];
      },
      findings: [{ message: 'addtocart', events: [3] }],
    },
  ],
} satisfies RuleCases;
