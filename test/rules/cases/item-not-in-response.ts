import { PageBuilder, product, type RuleCases } from '../kit';

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
        { message: '"P999"', fix: 'take uid from the result', events: [1], responseId: 'r1' },
      ],
    },
  ],
} satisfies RuleCases;
