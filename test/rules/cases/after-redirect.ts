import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'a redirect and nothing after it',
      events: () => [new PageBuilder().redirect('r1', '/sale', { at: 0 })],
    },
  ],
  invalid: [
    {
      name: 'a render and an impression after the redirect',
      events: () => {
        const p = new PageBuilder();
        return [
          p.redirect('r1', '/sale', { at: 0 }),
          p.render('r1', { at: 500 }),
          p.impression('r1', ['a'], { at: 1700 }),
        ];
      },
      findings: [{ responseId: 'r1' }],
    },
  ],
} satisfies RuleCases;
