import { issued, PageBuilder, R0, R1, R4, type RuleCases } from '../kit';

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
    {
      name: 'a single result: the client may navigate to its product before any impression',
      provenance: { companion: true, responses: [R4] },
      events: () => [new PageBuilder().render('r4', { at: 0 })],
    },
    {
      name: 'a tile clicked within a second of the render, the page left with the click',
      provenance: { companion: true, responses: [R1] },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.click('r1', 'P201', { at: 800 })];
      },
    },
    {
      name: 'infinite scroll restored page 2 (impressed without a render): page 1 never in view',
      provenance: {
        companion: true,
        responses: [R1, issued({ responseId: 'r2', page: 2, results: [] })],
      },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r2', ['P210'], { at: 1200 })];
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
