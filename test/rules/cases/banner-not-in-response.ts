import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'the header banner the response returned',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', [], { at: 1200 }, ['rain-header'])];
      },
    },
  ],
  invalid: [
    {
      name: 'a banner uid the response never returned',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', [], { at: 1200 }, ['old-banner'])];
      },
      findings: [{ message: '"old-banner"', events: [1] }],
    },
  ],
} satisfies RuleCases;
