import { INFINITE, PageBuilder, R1, R2, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'page 2 fetched by scrolling, 5 s after page 1, is missing-render’s',
      provenance: { companion: true, responses: INFINITE.scrolled },
      events: INFINITE.traffic,
    },
    {
      name: 'every response rendered',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 10 }),
          p.render('r2', { at: 15 }),
          p.impression('r2', ['b'], { at: 20 }),
        ];
      },
    },
    {
      name: 'page 1 of a search (the sandbox issued it) is missing-render’s, never backfill',
      provenance: { companion: true, responses: [R1, { ...R2, page: 1 }] },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P200'], { at: 1200 }),
          p.impression('r2', ['P210'], { at: 1300 }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'pages 1 and 2 requested together on load by this page load (300 ms apart)',
      provenance: { companion: true, responses: INFINITE.together },
      events: INFINITE.traffic,
      findings: [{ events: [2], responseId: 'p2' }],
    },
    {
      name: 'a later page’s impressions beside page 1’s render (infinite scroll restored)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 10 }),
          p.impression('r2', ['b'], { at: 20 }),
        ];
      },
      findings: [{ message: 'Reported apart, as info', events: [2], responseId: 'r2' }],
    },
    {
      name: 'page 2 as the sandbox issued it',
      provenance: { companion: true, responses: [R1, R2] },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P200'], { at: 1200 }),
          p.impression('r2', ['P210'], { at: 1300 }),
        ];
      },
      findings: [{ events: [2] }],
    },
  ],
} satisfies RuleCases;
