import { visitPage, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'two different orders',
      events: () => [
        visitPage('t1').order('o-1', [{ uid: 'a' }], { at: 0 }),
        visitPage('t2').order('o-2', [{ uid: 'b' }], { at: 60_000 }),
      ],
    },
  ],
  invalid: [
    {
      name: 'the thank-you page reloaded within 10 s',
      events: () => {
        const t = visitPage('thanks');
        return [
          t.order('o-1', [{ uid: 'a' }], { at: 0 }),
          t.order('o-1', [{ uid: 'a' }], { at: 3000 }),
        ];
      },
      findings: [{ message: 'within 10 s', fix: 'first view', events: [0, 1] }],
    },
  ],
} satisfies RuleCases;
