import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'one merged impression request per burst of visible tiles, the next burst after the debounce',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a', 'b', 'c'], { at: 1100 }),
          p.impression('r1', ['d', 'e'], { at: 1800 }),
          p.impression('r1', ['f'], { at: 2100 }),
        ];
      },
    },
    {
      name: 'impressions of two responses created together (each response has its own request)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.render('r2', { at: 10 }),
          p.impression('r1', ['a'], { at: 1100 }),
          p.impression('r2', ['b'], { at: 1120 }),
        ];
      },
    },
    {
      name: 'an impression and an addtocart of one response together (two endpoints queue apart)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1100 }),
          p.cart('r1', 'a', { at: 1150 }),
        ];
      },
    },
    {
      name: 'a request the service rejected is not counted',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1100, accepted: false }),
          p.impression('r1', ['a'], { at: 1150 }),
        ];
      },
    },
    {
      name: 'two impression requests of other sessionIds created together (the client’s queue merges per session; context-drift names the drift)',
      events: () => {
        const p = new PageBuilder();
        const drifted = new PageBuilder({ sessionId: 'session-other' });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1100 }),
          drifted.impression('r1', ['b'], { at: 1105 }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'edge: requests of one session split around one of another session, all created together',
      events: () => {
        const p = new PageBuilder();
        const drifted = new PageBuilder({ sessionId: 'session-other' });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1100 }),
          drifted.impression('r1', ['b'], { at: 1105 }),
          p.impression('r1', ['c'], { at: 1110 }),
        ];
      },
      findings: [{ message: 'two search/impression requests of responseId "r1"', events: [1, 3] }],
    },
    {
      name: 'one impression request per tile, created together',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1100 }),
          p.impression('r1', ['b'], { at: 1105 }),
          p.impression('r1', ['c'], { at: 1110 }),
        ];
      },
      findings: [
        {
          message: '3 search/impression requests of responseId "r1"',
          fix: "send search/impression through the provider's beacon client",
          events: [1, 2, 3],
          responseId: 'r1',
        },
      ],
    },
    {
      name: 'a widget’s two adds 200 ms apart, each sent at once',
      events: () => {
        const p = new PageBuilder().as('recommendations', 'similar');
        return [
          p.render('w1', { at: 0 }),
          p.impression('w1', ['a', 'b'], { at: 1100 }),
          p.cart('w1', 'a', { at: 3000 }),
          p.cart('w1', 'b', { at: 3200 }),
        ];
      },
      findings: [{ message: 'two recommendations/addtocart requests', events: [2, 3] }],
    },
  ],
} satisfies RuleCases;
