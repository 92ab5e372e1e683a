import { PageBuilder, issued, product, type RuleCases } from '../kit';

/** a similar-products widget's response of two products */
const W1 = issued({
  responseId: 'w1',
  kind: 'recommendations',
  tag: 'similar',
  results: [
    { uid: 'P300', sku: 'P300', parentId: 'P300', children: [] },
    { uid: 'P301', sku: 'P301', parentId: 'P301', children: [] },
  ],
});

export default {
  valid: [
    {
      name: 'results and a variant of one',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.event(
            'impression',
            { responseId: 'r1', results: [product('P200'), product('2001', 'P200')], banners: [] },
            { at: 1200 },
          ),
        ];
      },
    },
    {
      name: 'an inline banner sent as a product is inline-banner-as-product’s',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.event(
            'impression',
            { responseId: 'r1', results: [product('rain-inline')], banners: [] },
            { at: 1200 },
          ),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'a uid the response did not return',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['P999'], { at: 1200 })];
      },
      findings: [
        {
          message: '"P999"',
          fix: 'take uid from the result',
          events: [1],
          responseId: 'r1',
          behaviour: 'search.items-served',
        },
      ],
    },
    {
      name: 'a widget’s item its response did not serve names the widget’s behaviour',
      provenance: { companion: true, responses: [W1] },
      events: () => {
        const w = new PageBuilder({ pageLoadId: 'pdp' }).as('recommendations', 'similar');
        return [w.render('w1', { at: 0 }), w.impression('w1', ['P300', 'P999'], { at: 1200 })];
      },
      findings: [
        {
          message: '"P999"',
          events: [1],
          responseId: 'w1',
          behaviour: 'recommendations.events',
        },
      ],
    },
  ],
} satisfies RuleCases;
