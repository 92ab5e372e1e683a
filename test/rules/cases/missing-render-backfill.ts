import { PageBuilder, R1, R2, T0, issued, type RuleCases } from '../kit';

// page 1 and page 2 of one search as page-1 asked for them: together on load (a backfill) or 5 s apart (a scroll)
const asked = { userId: 'user-1', sessionId: 'session-1', pageLoadId: 'page-1' };
const P1 = issued({
  responseId: 'p1',
  query: 'shirt',
  issuedAt: T0 - 6000,
  results: [{ uid: 'P200', sku: 'P200', parentId: 'P200', children: [] }],
  requester: asked,
});
const pageTwo = (issuedAt: number) =>
  issued({
    responseId: 'p2',
    query: 'shirt',
    page: 2,
    issuedAt,
    results: [{ uid: 'P210', sku: 'P210', parentId: 'P210', children: [] }],
    requester: asked,
  });
const TOGETHER = [P1, pageTwo(T0 - 5700)];
const SCROLLED = [P1, pageTwo(T0 - 1000)];
const scrolledTraffic = () => {
  const p = new PageBuilder();
  return [
    p.render('p1', { at: -5500 }),
    p.impression('p1', ['P200'], { at: -4300 }),
    p.impression('p2', ['P210'], { at: 200 }),
  ];
};

export default {
  valid: [
    {
      name: 'page 2 fetched by scrolling, 5 s after page 1, is missing-render’s',
      provenance: { companion: true, responses: SCROLLED },
      events: scrolledTraffic,
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
      provenance: { companion: true, responses: TOGETHER },
      events: scrolledTraffic,
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
