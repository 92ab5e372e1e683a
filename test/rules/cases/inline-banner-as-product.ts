import { PageBuilder, product, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'an inline banner reported as {type: "banner"}',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.event(
            'impression',
            { responseId: 'r1', results: [{ type: 'banner', uid: 'rain-inline' }], banners: [] },
            { at: 1200 },
          ),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'an inline banner reported as a product',
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
      findings: [{ message: 'inline banner at position 1', fix: 'type "banner"', events: [1] }],
    },
  ],
} satisfies RuleCases;
