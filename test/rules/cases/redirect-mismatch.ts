import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'the redirect the response carried',
      provenance: { companion: true },
      events: () => [new PageBuilder().redirect('r3', '/pages/gift-cards', { at: 0 })],
    },
  ],
  invalid: [
    {
      name: 'another URL than the response’s redirect',
      provenance: { companion: true },
      events: () => [new PageBuilder().redirect('r3', '/pages/other', { at: 0 })],
      findings: [{ message: '/pages/gift-cards', events: [0] }],
    },
  ],
} satisfies RuleCases;
