import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'the inline banner among the results',
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
      name: 'the inline banner in data.banners',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', [], { at: 1200 }, ['rain-inline'])];
      },
      findings: [{ message: 'rain-inline', events: [1] }],
    },
  ],
} satisfies RuleCases;
