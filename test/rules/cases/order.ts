import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'render before its impressions',
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['a'], { at: 1200 })];
      },
    },
    {
      name: 'an impression that arrived first but is timestamped after the render',
      events: () => {
        const p = new PageBuilder();
        return [
          p.impression('r1', ['a'], { at: 1200, recv: 1000 }),
          p.render('r1', { at: 0, recv: 1100 }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'an impression timestamped 2 s before its render',
      events: () => {
        const p = new PageBuilder();
        return [p.impression('r1', ['a'], { at: 0 }), p.render('r1', { at: 2000 })];
      },
      findings: [
        { fix: 'call render', events: [0, 1], responseId: 'r1', behaviour: 'search.render' },
      ],
    },
    {
      name: 'a bundle widget’s impression timestamped before its render',
      events: () => {
        const p = new PageBuilder().as('bundles', 'cross-sell');
        return [p.impression('b1', ['a'], { at: 0 }), p.render('b1', { at: 2000 })];
      },
      // the bundle widget's row, not the search page's render
      findings: [{ events: [0, 1], responseId: 'b1', behaviour: 'bundles.widget' }],
    },
  ],
} satisfies RuleCases;
