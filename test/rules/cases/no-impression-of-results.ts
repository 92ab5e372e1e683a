import { PageBuilder, R0, R1, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'the no-results page: rendered, nothing to impress',
      provenance: { companion: true, responses: [R0] },
      events: () => [new PageBuilder().render('r0', { at: 0 })],
    },
    {
      name: 'results impressed',
      provenance: { companion: true, responses: [R1] },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['P200'], { at: 1200 })];
      },
    },
  ],
  invalid: [
    {
      name: 'results shown and never impressed',
      provenance: { companion: true, responses: [R1] },
      events: () => [new PageBuilder().render('r1', { at: 0 })],
      findings: [{ message: 'so impressions were due', events: [0], responseId: 'r1' }],
    },
  ],
} satisfies RuleCases;
