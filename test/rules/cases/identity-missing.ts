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
    {
      name: 'edge: ids of the storefront’s own that are no words of a template (a legacy or a hand-made id)',
      events: () => [
        visitPage('pdp', { userId: 'guest-7f3a', sessionId: '0a' }).product('a', { at: 0 }),
      ],
    },
  ],
  invalid: [
    {
      name: 'a checkout page sent with an empty userId',
      events: () => [
        visitPage('checkout', { userId: '' }).cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 0 }),
      ],
      findings: [
        { messageId: 'empty', message: 'empty context.userId', fix: 'never pass an empty one' },
      ],
    },
    {
      name: 'a search page with empty sessionId and pageLoadId',
      events: () => {
        const p = new PageBuilder({ sessionId: '', pageLoadId: '' });
        return [p.render('r1', { at: 0 }), p.impression('r1', ['a'], { at: 1200 })];
      },
      findings: [{ messageId: 'empty', message: 'context.sessionId, context.pageLoadId' }],
    },
    {
      name: 'a storefront without consent passing the words it prints for a shopper it has no id for',
      events: () => [
        visitPage('pdp', { userId: 'anonymous', sessionId: 'Undefined' }).product('a', { at: 0 }),
      ],
      findings: [
        {
          messageId: 'placeholder',
          message:
            'context.userId "anonymous" and context.sessionId "Undefined": a placeholder, not an id',
          fix: 'never pass a word your template prints',
        },
      ],
    },
  ],
} satisfies RuleCases;
