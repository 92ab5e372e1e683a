import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'one click',
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
      name: 'the shopper came back and clicked the same tile again, 5 s later',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.click('r1', 'a', { at: 3000 }),
          p.click('r1', 'a', { at: 8000 }),
        ];
      },
    },
    {
      name: 'two tiles clicked 300 ms apart',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a', 'b'], { at: 1200 }),
          p.click('r1', 'a', { at: 3000 }),
          p.click('r1', 'b', { at: 3300 }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'every click sent twice (a click and a link handler)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.click('r1', 'a', { at: 3000 }),
          p.click('r1', 'a', { at: 3010 }),
        ];
      },
      findings: [
        {
          messageId: 'repeated',
          message: '10 ms apart',
          fix: 'one handler only',
          events: [2, 3],
          responseId: 'r1',
        },
      ],
    },
    {
      name: 'one click posted twice by a retry (the same timestamp)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.click('r1', 'a', { at: 3000 }),
          p.click('r1', 'a', { at: 3000 }),
        ];
      },
      findings: [
        {
          messageId: 'resent',
          message: 'with the same timestamp',
          fix: 'do not retry beacon requests',
          events: [2, 3],
        },
      ],
    },
  ],
} satisfies RuleCases;
