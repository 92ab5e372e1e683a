import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'events with the responseId of their response',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.click('r1', 'a', { at: 3000 }),
        ];
      },
    },
    {
      name: 'edge: a render with an empty responseId alone (fired before the response arrived: missing-render names it)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.click('r1', 'a', { at: 3000 }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'every event of the page with responseId "" (the id read from the wrong field, "" as fallback)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('', { at: 0 }),
          p.impression('', ['a', 'b'], { at: 1200 }),
          p.click('', 'a', { at: 3000 }),
        ];
      },
      findings: [
        {
          data: { count: '2 events', kinds: 'search/impression and search/clickthrough' },
          message: '2 events (search/impression and search/clickthrough: ev_',
          fix: 'response.tracking.responseId',
          events: [1, 2],
          behaviour: 'search.tile-response',
        },
      ],
    },
    {
      name: 'a widget’s click with an empty responseId',
      events: () => {
        const p = new PageBuilder().as('recommendations', 'similar');
        return [p.render('w1', { at: 0 }), p.click('', 'a', { at: 3000 })];
      },
      findings: [
        { message: /^1 event \(recommendations\/clickthrough: ev_\S+\) carries/, events: [1] },
      ],
    },
  ],
} satisfies RuleCases;
