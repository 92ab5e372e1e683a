import { PageBuilder, visitPage, type RuleCases } from '../kit';

const as = (shopperId: string, at: number) => ({ at, context: { shopperId } });
const search = (pageLoadId: string) =>
  new PageBuilder({ pageLoadId, pageUrl: `http://localhost:3000/search?q=${pageLoadId}` });

export default {
  valid: [
    {
      name: 'a login, then every later event (search ones too) carries its shopperId',
      events: () => [
        search('s1').render('r1', { at: 0 }),
        visitPage('account').login('s-9', { at: 10_000 }),
        search('s2').render('r2', as('s-9', 20_000)),
        visitPage('pdp').product('a', as('s-9', 30_000)),
      ],
    },
    {
      name: 'the login page: events created before the login carry none',
      events: () => [
        visitPage('account').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 10_000 }),
        visitPage('account').login('s-9', { at: 10_005 }),
        visitPage('account').product('a', as('s-9', 10_010)),
      ],
    },
    {
      name: 'edge: an event without one created within a second of the first that carried it',
      events: () => [
        visitPage('account').login('s-9', { at: 10_000 }),
        search('s2').render('r2', { at: 11_000 }),
      ],
    },
    {
      name: 'another visit (another sessionId) without the shopperId',
      events: () => [
        visitPage('account').login('s-9', { at: 0 }),
        new PageBuilder({ pageLoadId: 'other', sessionId: 'session-2' }).render('r3', {
          at: 60_000,
        }),
      ],
    },
  ],
  invalid: [
    {
      name: 'the shopperId goes back to "" on a later page of the visit',
      events: () => [
        visitPage('account').login('s-9', { at: 0 }),
        visitPage('pdp').product('a', as('s-9', 10_000)),
        visitPage('pdp2').product('b', { at: 20_000 }),
      ],
      findings: [
        {
          message: 'carried shopperId "s-9"',
          pageLoadId: 'pdp2',
          events: [0, 2],
          behaviour: 'login.shopper',
        },
      ],
    },
    {
      name: 'a checkout on another domain given the userId and sessionId but not the shopperId',
      events: () => [
        visitPage('account').login('s-9', { at: 0 }),
        visitPage('pdp').product('a', as('s-9', 10_000)),
        visitPage('thanks', { pageUrl: 'https://checkout.example/thanks' }).order(
          'o-1',
          [{ uid: 'a' }],
          { at: 20_000 },
        ),
      ],
      findings: [{ pageLoadId: 'thanks', events: [0, 2], behaviour: 'identity.cross-domain' }],
    },
    {
      name: 'edge: a search event created just over a second after the login, without it',
      events: () => [
        visitPage('account').login('s-9', { at: 10_000 }),
        search('s2').render('r2', { at: 11_001 }),
      ],
      findings: [{ message: 'ev_', pageLoadId: 's2', events: [0, 1] }],
    },
  ],
} satisfies RuleCases;
