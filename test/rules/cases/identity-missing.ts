import { PageBuilder, visitPage, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'every id set (the provider’s client)',
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['a'], { at: 1200 })];
      },
    },
    {
      name: 'a rejected event without ids does not make the page’s identity',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0, accepted: false, context: { userId: '' } }),
          p.render('r1', { at: 100 }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'a checkout page sent with an empty userId',
      events: () => [
        visitPage('checkout', { userId: '' }).cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 0 }),
      ],
      findings: [{ message: 'empty context.userId', fix: 'never pass an empty one' }],
    },
    {
      name: 'a search page with empty sessionId and pageLoadId',
      events: () => {
        const p = new PageBuilder({ sessionId: '', pageLoadId: '' });
        return [p.render('r1', { at: 0 }), p.impression('r1', ['a'], { at: 1200 })];
      },
      findings: [{ message: 'context.sessionId, context.pageLoadId' }],
    },
  ],
} satisfies RuleCases;
