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
    {
      name: 'production beacons on a response without test=true',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder({ dev: false });
        return [p.render('r4', { at: 0 }), p.impression('r4', ['P202'], { at: 1200 })];
      },
    },
  ],
  invalid: [
    {
      name: 'development beacons on a response requested without test=true',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r4', { at: 0 }), p.impression('r4', ['P202'], { at: 1200 })];
      },
      findings: [{ responseId: 'r4' }],
    },
  ],
} satisfies RuleCases;
