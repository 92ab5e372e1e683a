import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'one session and user on every event of the page',
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['a'], { at: 1200 })];
      },
    },
  ],
  invalid: [
    {
      name: 'a sessionId that changes inside the page',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200, context: { sessionId: 'session-2' } }),
        ];
      },
      findings: [
        {
          message: 'session-2',
          fix: 'one Beacon per page load',
          behaviour: 'identity.ids-per-page-load',
        },
      ],
    },
    {
      name: 'another visitor’s events under the page’s pageLoadId',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200, context: { userId: 'user-2' } }),
        ];
      },
      // two visitors, one pageLoadId: two page loads sharing it
      findings: [{ message: 'user-2', behaviour: 'identity.page-load' }],
    },
  ],
} satisfies RuleCases;
