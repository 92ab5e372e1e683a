import { PageBuilder, visitPage, type RuleCases } from '../kit';

const SHOP = 'http://localhost:3000/search?q=boots';
const at = (query: string) => new PageBuilder({ pageUrl: `${SHOP}&${query}` });
const EMAIL = { attribution: [{ type: 'email', id: 'rec-42' }] };

export default {
  valid: [
    {
      name: 'the landing URL’s attribution on its events (the provider’s client)',
      events: () => {
        const p = at('athos_attribution=email%3Arec-42');
        return [
          p.render('r1', { at: 0, context: EMAIL }),
          p.impression('r1', ['a'], { at: 1_200, context: EMAIL }),
        ];
      },
    },
    {
      name: 'edge: a URL naming another attribution while the client keeps the one it read first',
      events: () => [at('athos_attribution=sms:7').render('r1', { at: 0, context: EMAIL })],
    },
    {
      name: 'edge: parameters the client ignores (no ":", no id, undecodable), none sent',
      events: () => [
        at('athos_attribution=rec-42').render('r1', { at: 0 }),
        new PageBuilder({ pageLoadId: 'p2', pageUrl: `${SHOP}&athos_attribution=email:` }).render(
          'r2',
          { at: 100 },
        ),
        new PageBuilder({
          pageLoadId: 'p3',
          pageUrl: `${SHOP}&athos_attribution=email%3A%25ZZ`,
        }).render('r3', { at: 200 }),
      ],
    },
    {
      name: 'edge: the parameter in the fragment is no search parameter',
      events: () => [
        new PageBuilder({ pageUrl: `${SHOP}#athos_attribution=email:rec-42` }).render('r1', {
          at: 0,
        }),
      ],
    },
    {
      name: 'edge: an event the service rejected',
      events: () => [at('athos_attribution=email:rec-42').render('r1', { at: 0, accepted: false })],
    },
  ],
  invalid: [
    {
      name: 'a landing page from an e-mail whose events carry no attribution',
      events: () => {
        const p = at('athos_attribution=email%3Arec-42');
        return [p.render('r1', { at: 0 }), p.impression('r1', ['a'], { at: 1_200 })];
      },
      findings: [
        {
          data: { param: 'athos_attribution', value: 'email:rec-42', type: 'email', id: 'rec-42' },
          message: 'yet it carries no context.attribution',
          fix: 'Let the provider’s client build the event’s context',
          events: [0],
          behaviour: 'identity.attribution',
        },
      ],
    },
    {
      name: 'edge: an empty athos_attribution, so the client reads ss_attribution; an empty list sent',
      events: () => [
        visitPage('pdp', {
          pageUrl: 'http://localhost:3000/p/boots?athos_attribution=&ss_attribution=email:9',
        }).product('P1', { at: 0, context: { attribution: [] } }),
      ],
      findings: [
        { data: { param: 'ss_attribution', type: 'email', id: '9' }, events: [0], causedBy: null },
      ],
    },
    {
      name: 'an event after an attributed one of the page, without it: follows from attribution-lost',
      events: () => {
        const p = at('athos_attribution=email:rec-42');
        return [
          p.render('r1', { at: 0, context: EMAIL }),
          p.impression('r1', ['a'], { at: 1_200 }),
        ];
      },
      findings: [{ events: [1], causedBy: 'attribution-lost' }],
    },
  ],
} satisfies RuleCases;
