import { PageBuilder, R1, issued, product, type RuleCases } from '../kit';

const BOOTS = issued({
  responseId: 'r9',
  query: 'boots',
  issuedAt: R1.issuedAt + 4000,
  results: [{ uid: 'B1', sku: 'B1', parentId: 'B1', children: [] }],
});

export default {
  valid: [
    {
      name: 'an SPA re-search with its own responseId and render',
      provenance: { companion: true, responses: [R1, BOOTS] },
      events: () => {
        const p = new PageBuilder();
        const q = new PageBuilder({ pageUrl: 'http://localhost:3000/search?q=boots' });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P200'], { at: 1200 }),
          q.render('r9', { at: 5000 }),
          q.impression('r9', ['B1'], { at: 6200 }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'an SPA re-search whose events keep the first response’s id',
      provenance: { companion: true, responses: [R1, BOOTS] },
      events: () => {
        const p = new PageBuilder({ pageUrl: 'http://localhost:3000/search?q=shoes' });
        const q = new PageBuilder({ pageUrl: 'http://localhost:3000/search?q=boots' });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P200'], { at: 1200 }),
          q.render('r1', { at: 5000 }),
          q.event(
            'impression',
            { responseId: 'r1', results: [product('B1')], banners: [] },
            { at: 6200 },
          ),
        ];
      },
      findings: [{ responseId: 'r1' }],
    },
  ],
} satisfies RuleCases;
