import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'development beacons on a test=true response',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['P200'], { at: 1200 })];
      },
    },
  ],
  invalid: [
    {
      name: 'production beacons on a test=true response',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder({ dev: false });
        return [p.render('r1', { at: 0 }), p.impression('r1', ['P200'], { at: 1200 })];
      },
      findings: [{ responseId: 'r1' }],
    },
  ],
} satisfies RuleCases;
