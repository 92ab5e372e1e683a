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
      findings: [
        {
          messageId: 'otherRedirect',
          data: { returned: '/pages/gift-cards' },
          message: '/pages/gift-cards',
          events: [0],
        },
      ],
    },
    {
      name: 'a redirect of a response that carried none',
      provenance: { companion: true },
      events: () => [new PageBuilder().redirect('r1', '/pages/sale', { at: 0 })],
      findings: [
        {
          messageId: 'noRedirect',
          message: 'returned no redirect',
          fix: 'only when the response has a redirect',
          events: [0],
        },
      ],
    },
  ],
} satisfies RuleCases;
