import { PageBuilder, visitPage, type RuleCases } from '../kit';

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
          messageId: 'drift',
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
      findings: [{ messageId: 'drift', message: 'user-2', behaviour: 'identity.page-load' }],
    },
    {
      name: 'a pageLoadId rendered into a cached page: another shopper (userId and sessionId both) two hours later, said once with its cause',
      events: () => {
        // a product page served from a CDN with its pageLoadId in the HTML
        const p = visitPage('pdp-cached');
        const other = { context: { userId: 'user-2', sessionId: 'session-2' } };
        return [
          p.product('P1', { at: 0 }),
          p.product('P1', { at: 2 * 3_600_000, ...other }),
          p.as('recommendations', 'similar').render('w1', { at: 2 * 3_600_000 + 500, ...other }),
        ];
      },
      findings: [
        {
          messageId: 'otherShopper',
          message:
            '2 events of pageLoadId "pdp-cached" carried another shopper\'s ids: userId "user-2" and sessionId "session-2"',
          fix: 'do not render it into the page’s HTML',
          events: [1, 2],
          behaviour: 'identity.page-load',
        },
      ],
    },
    {
      name: 'edge: another userId on some events and another sessionId on others: each said on its own',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200, context: { userId: 'user-2' } }),
          p.impression('r1', ['b'], { at: 2400, context: { sessionId: 'session-2' } }),
        ];
      },
      findings: [
        { messageId: 'drift', message: 'session-2', events: [2] },
        { messageId: 'drift', message: 'user-2', events: [1] },
      ],
    },
  ],
} satisfies RuleCases;
