import { PageBuilder, rejectedImpression, visitPage, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'every body valid',
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['a'], { at: 1200 })];
      },
    },
  ],
  invalid: [
    {
      name: 'a click sent without its responseId (a client of its own that searched without beacon=true)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.click('r1', 'a', {
            at: 1200,
            accepted: false,
            errors: ['missing required key-value: data.responseId'],
          }),
        ];
      },
      findings: [
        {
          messageId: 'noResponseId',
          message: 'which the search API gives only when the request asks with beacon=true',
          fix: 'asks the search, autocomplete and recommend APIs with beacon=true',
          events: [1],
          behaviour: 'search.clickthrough',
        },
      ],
    },
    {
      name: 'impressions batched by hand into a JSON array of payloads: named as such, on the page of its first payload',
      events: () => {
        const p = new PageBuilder({ pageLoadId: 'batched' });
        const payload = (uid: string, at: number) => p.impression('r1', [uid], { at }).body;
        return [
          p.render('r1', { at: 0 }),
          p.event(
            'impression',
            {},
            {
              at: 1200,
              accepted: false,
              errors: ['invalid data type passed for key: request body'],
              body: [payload('a', 1200), payload('b', 1210), payload('c', 1220)],
            },
          ),
        ];
      },
      findings: [
        {
          messageId: 'array',
          message: 'The body was a JSON array of 3 payloads',
          fix: 'send one payload per request',
          pageLoadId: 'batched',
          events: [1],
        },
      ],
    },
    {
      name: 'a render whose body is no JSON (cut off on its way): no field to name, so the fix is the body’s',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0, accepted: false, errors: ['invalid JSON POST body'] }),
          p.impression('r1', ['a'], { at: 1200 }),
        ];
      },
      findings: [
        {
          messageId: 'notJson',
          message: 'its body was no JSON document, so no field of it was read',
          fix: 'send the body as one JSON document',
          events: [0],
          behaviour: 'search.render',
        },
      ],
    },
    {
      name: 'an impression the service rejected (400)',
      events: () => rejectedImpression('data.results must be an array'),
      findings: [
        {
          messageId: 'rejected',
          message: 'data.results must be an array',
          fix: 'fields named above',
          events: [1],
          // the impression is lost: the impression's behaviour, not the context's
          behaviour: 'search.impression',
        },
      ],
    },
    {
      name: 'a cart/add rejected over an item without a uid (T sends cart items as the globals give them)',
      events: () => [
        visitPage('cart').cartAdd([{ uid: '' }], [{ uid: '' }], {
          at: 0,
          accepted: false,
          errors: ['missing required key-value: data.results[0].uid'],
        }),
      ],
      findings: [
        {
          messageId: 'rejected',
          message: 'data.results[0].uid',
          events: [0],
          behaviour: 'cart.items',
        },
      ],
    },
    {
      name: 'a cart/add rejected over its context: the request, not its items',
      events: () => [
        visitPage('cart').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], {
          at: 0,
          accepted: false,
          errors: ['missing required key-value: context.userId'],
        }),
      ],
      findings: [
        {
          messageId: 'rejected',
          message: 'context.userId',
          events: [0],
          behaviour: 'identity.context',
        },
      ],
    },
    {
      name: 'a clickthrough whose uid is a number: the click is lost, so it is the click’s behaviour, not the context’s',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.click('r1', 'a', {
            at: 3000,
            accepted: false,
            errors: ['invalid data type passed for key: data.results[0].uid'],
          }),
        ];
      },
      findings: [
        {
          messageId: 'rejected',
          message: 'data.results[0].uid',
          events: [2],
          behaviour: 'search.clickthrough',
        },
      ],
    },
    {
      name: 'a widget’s clickthrough rejected over its item: the widget’s events',
      events: () => {
        const p = new PageBuilder().as('recommendations', 'similar');
        return [
          p.render('w1', { at: 0 }),
          p.impression('w1', ['a'], { at: 1200 }),
          p.click('w1', 'a', {
            at: 3000,
            accepted: false,
            errors: ['invalid data type passed for key: data.results[0].uid'],
          }),
        ];
      },
      findings: [
        {
          messageId: 'rejected',
          message: 'data.results[0].uid',
          events: [2],
          behaviour: 'recommendations.events',
        },
      ],
    },
    {
      name: 'a clickthrough rejected over its context: the context’s',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.click('r1', 'a', {
            at: 3000,
            accepted: false,
            errors: ['missing required key-value: context.userId'],
          }),
        ];
      },
      findings: [
        {
          messageId: 'rejected',
          message: 'context.userId',
          events: [1],
          behaviour: 'identity.context',
        },
      ],
    },
  ],
} satisfies RuleCases;
