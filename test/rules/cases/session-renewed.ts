import { visitPage, type RuleCases } from '../kit';

const MIN = 60_000;

export default {
  valid: [
    {
      name: 'a new session after more than 30 minutes without an event',
      events: () => [
        visitPage('pdp1').product('a', { at: 0 }),
        visitPage('pdp2', { sessionId: 'session-2' }).product('b', { at: 45 * MIN }),
      ],
    },
    {
      name: 'two tabs opened together on a fresh browser',
      events: () => [
        visitPage('tab1').product('a', { at: 0 }),
        visitPage('tab2', { sessionId: 'session-2' }).product('b', { at: 900 }),
      ],
    },
    {
      name: 'edge: three tabs opened together, the last 2.0 s after the first',
      events: () => [
        visitPage('tab1').product('a', { at: 0 }),
        visitPage('tab2', { sessionId: 'session-2' }).product('b', { at: 1_000 }),
        visitPage('tab3', { sessionId: 'session-3' }).product('c', { at: 2_000 }),
      ],
    },
    {
      name: 'a page used 35 minutes (an event every 5), then a new page load: the client rolled the session at that page’s load only',
      events: () => [
        ...[0, 5, 10, 15, 20, 25, 30, 35].map((m) =>
          visitPage('spa').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: m * MIN }),
        ),
        visitPage('pdp2', { sessionId: 'session-2' }).product('b', { at: 36 * MIN }),
      ],
    },
  ],
  invalid: [
    {
      name: 'edge: a sessionId per page, clicked through quickly: pages 1.05 s apart, the third 2.1 s after the first',
      events: () => [
        visitPage('p1').product('a', { at: 0 }),
        visitPage('p2', { sessionId: 'session-2' }).product('b', { at: 1_050 }),
        visitPage('p3', { sessionId: 'session-3' }).product('c', { at: 2_100 }),
      ],
      findings: [{ pageLoadId: 'p3', message: 'visit (sessionId) "session-3"' }],
    },
    {
      name: 'edge: the same, with a page load 10 minutes in that rolled the session again',
      events: () => [
        visitPage('spa').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 0 }),
        visitPage('pdp1').product('a', { at: 10 * MIN }),
        visitPage('spa').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 35 * MIN }),
        visitPage('pdp2', { sessionId: 'session-2' }).product('b', { at: 36 * MIN }),
      ],
      findings: [{ message: '60 s after that userId', pageLoadId: 'pdp2', events: [3] }],
    },
    {
      name: 'a new sessionId on the next page load (the storefront makes one per page)',
      events: () => [
        visitPage('pdp1').product('a', { at: 0 }),
        visitPage('pdp2', { sessionId: 'session-2' }).product('b', { at: 20_000 }),
      ],
      findings: [
        {
          // the visit before is named with the event that began it, apart from when it had its last
          message:
            /began visit \(sessionId\) "session-2" of userId "[^"]+" 20 s after that userId's visit "[^"]+" \(begun by [^)]+\) had its last event\./,
          fix: 'keep the sessionId',
          pageLoadId: 'pdp2',
          events: [1],
          // 20 s after the visit's last event: a sessionId the client would have kept
          behaviour: 'identity.session',
        },
      ],
    },
    {
      name: 'a new sessionId while the userId’s visit still sends events (two sessions at once)',
      // the other visit's later page arrives first: a visit judged before it would read it as ended
      events: () => [
        visitPage('pdp1').product('a', { at: 0 }),
        visitPage('pdp3').product('c', { at: 40_000 }),
        visitPage('pdp2', { sessionId: 'session-2' }).product('b', { at: 20_000 }),
      ],
      findings: [
        {
          message: 'was still sending events',
          pageLoadId: 'pdp2',
          events: [2],
          behaviour: 'identity.user-per-browser',
        },
      ],
    },
    {
      name: 'a checkout on another domain given the userId without the sessionId',
      events: () => [
        visitPage('pdp1').product('a', { at: 0 }),
        visitPage('thanks', {
          sessionId: 'session-2',
          pageUrl: 'https://checkout.example/thanks',
        }).order('o-1', [{ uid: 'a' }], { at: 20_000 }),
      ],
      findings: [{ pageLoadId: 'thanks', events: [1], behaviour: 'identity.cross-domain' }],
    },
  ],
} satisfies RuleCases;
