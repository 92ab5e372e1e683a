import { PageBuilder, visitPage, type RuleCases } from '../kit';

const EMAIL = [{ type: 'email', id: 'camp-42' }];
const attributed = (at: number) => ({ at, context: { attribution: EMAIL } });
const search = (pageLoadId: string) =>
  new PageBuilder({ pageLoadId, pageUrl: `http://localhost:3000/search?q=${pageLoadId}` });

export default {
  valid: [
    {
      name: 'landing from an e-mail link: every later event of the session carries the attribution',
      events: () => [
        visitPage('landing').product('a', attributed(0)),
        search('s1').render('r1', attributed(20_000)),
        visitPage('cart').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], attributed(40_000)),
      ],
    },
    {
      name: 'a session that never landed from such a link',
      events: () => [
        visitPage('pdp').product('a', { at: 0 }),
        search('s1').render('r1', { at: 20_000 }),
      ],
    },
    {
      name: 'edge: events created before the attributed one, or within a second of it',
      events: () => [
        search('s0').render('r0', { at: 0 }),
        visitPage('landing').product('a', attributed(10_000)),
        search('s1').render('r1', { at: 11_000 }),
      ],
    },
    {
      name: 'a new session without it (the client forgets it with the session)',
      events: () => [
        visitPage('landing').product('a', attributed(0)),
        new PageBuilder({ pageLoadId: 'later', sessionId: 'session-2' }).render('r2', {
          at: 40 * 60_000,
        }),
      ],
    },
  ],
  invalid: [
    {
      name: 'the attribution is dropped on the next pages of the session',
      events: () => [
        visitPage('landing').product('a', attributed(0)),
        search('s1').render('r1', { at: 20_000 }),
        visitPage('pdp').product('b', { at: 40_000 }),
      ],
      findings: [
        { message: 'carried [email:camp-42]', pageLoadId: 's1', events: [0, 1] },
        { message: 'carried [email:camp-42]', pageLoadId: 'pdp', events: [0, 2] },
      ],
    },
    {
      name: 'edge: created just over a second after the attributed one',
      events: () => [
        visitPage('landing').product('a', attributed(10_000)),
        search('s1').render('r1', { at: 11_001 }),
      ],
      findings: [{ pageLoadId: 's1', events: [0, 1] }],
    },
  ],
} satisfies RuleCases;
