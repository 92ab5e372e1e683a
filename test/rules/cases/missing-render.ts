import { INFINITE, PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'pages 1 and 2 requested together on load by this page load: a backfill (missing-render-backfill’s)',
      provenance: { companion: true, responses: INFINITE.together },
      events: INFINITE.traffic,
    },
    {
      name: 'render, then impressions and a click',
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
      name: 'infinite scroll backfill: a later page’s events beside page 1’s render (missing-render-backfill’s)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 10 }),
          p.impression('r2', ['b'], { at: 20 }),
        ];
      },
    },
    {
      name: 'a redirect replaces the render',
      events: () => {
        const p = new PageBuilder();
        return [p.redirect('r1', '/sale', { at: 0 })];
      },
    },
  ],
  invalid: [
    {
      name: 'page 2 fetched by scrolling, 5 s after page 1, impressed without its render',
      provenance: { companion: true, responses: INFINITE.scrolled },
      events: INFINITE.traffic,
      findings: [
        {
          messageId: 'scrolled',
          data: { page: '2', apart: '5.0 s' },
          message: 'infinite scroll fetched it',
          events: [2],
          responseId: 'p2',
        },
      ],
    },
    {
      name: 'impressions and a click with no render at all',
      events: () => {
        const p = new PageBuilder();
        return [p.impression('r1', ['a'], { at: 1200 }), p.click('r1', 'a', { at: 3000 })];
      },
      findings: [
        {
          messageId: 'unrendered',
          data: { responseId: 'r1', render: 'search/render' },
          message: 'sent no search/render',
          fix: 'send search/render with data.responseId "r1"',
          events: [0, 1],
          responseId: 'r1',
        },
      ],
    },
    {
      name: 'a render fired before the response arrived (empty responseId): the message names it as the cause',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.click('r1', 'a', { at: 3000 }),
        ];
      },
      findings: [
        {
          messageId: 'unrendered',
          message:
            /This page sent search\/render ev_\S+ with an empty responseId: a render sent before the response arrived/,
          fix: 'send search/render with data.responseId "r1"',
          events: [1, 2],
          responseId: 'r1',
        },
      ],
    },
    {
      name: 'edge: a widget’s empty-responseId render is not named for another widget’s events',
      events: () => {
        const p = new PageBuilder().as('recommendations', 'similar');
        const q = new PageBuilder().as('recommendations', 'trending');
        return [q.render('', { at: 0 }), p.impression('w1', ['a'], { at: 1200 })];
      },
      findings: [
        {
          messageId: 'unrendered',
          message: /^(?![\s\S]*empty responseId)/,
          events: [1],
          responseId: 'w1',
        },
      ],
    },
    {
      name: 'a widget’s events without its render are an error however many other widgets rendered',
      events: () => {
        const p = new PageBuilder().as('recommendations', 'similar');
        const q = new PageBuilder().as('recommendations', 'trending');
        return [
          p.render('w1', { at: 0 }),
          p.impression('w1', ['a'], { at: 1200 }),
          q.impression('w2', ['b'], { at: 1300 }),
        ];
      },
      findings: [{ messageId: 'unrendered', message: 'tag "trending"', events: [2] }],
    },
    {
      name: 'a new search on the same page whose events carry a response it never rendered',
      events: () => {
        const p = new PageBuilder({ pageUrl: 'http://localhost:3000/search?q=jacket' });
        const boots = { context: { pageUrl: 'http://localhost:3000/search?q=boot' } };
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.impression('r2', ['b'], { at: 5000, ...boots }),
        ];
      },
      findings: [
        {
          messageId: 'newSearch',
          data: { query: 'boot', others: '"r1"' },
          message: 'for another query',
          fix: 'send search/render with data.responseId "r2"',
          events: [2],
        },
      ],
    },
    {
      name: 'page 1 of a search (the sandbox issued it) without its render beside another rendered response',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r2', { at: 0 }), p.impression('r1', ['P200'], { at: 1200 })];
      },
      findings: [
        { messageId: 'firstPage', message: 'this one is page 1 of its search', events: [1] },
      ],
    },
  ],
} satisfies RuleCases;
