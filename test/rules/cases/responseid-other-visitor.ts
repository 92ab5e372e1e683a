import { PageBuilder, issued, type RuleCases } from '../kit';

// the search of user-1's page load page-1, session-1, answered just before the page's render
const asked = (over: Parameters<typeof issued>[0]) =>
  issued({
    results: [{ uid: 'P200', sku: 'P200', parentId: 'P200', children: [] }],
    requester: {
      userId: 'user-1',
      sessionId: 'session-1',
      pageLoadId: 'page-1',
      pageUrl: 'http://localhost:3000/search?q=shoes',
    },
    ...over,
  });
const MINE = asked({ responseId: 'mine' });
const NO_IDS = issued({
  responseId: 'no-ids',
  results: [{ uid: 'P200', sku: 'P200', parentId: 'P200', children: [] }],
});
const ONLY_SESSION = asked({ responseId: 'only-session', requester: { sessionId: 'session-1' } });
const responses = [MINE, NO_IDS, ONLY_SESSION];

export default {
  valid: [
    {
      name: 'the beacons carry the ids the search request carried',
      provenance: { companion: true, responses },
      events: () => {
        const p = new PageBuilder();
        return [p.render('mine', { at: 0 }), p.impression('mine', ['P200'], { at: 1200 })];
      },
    },
    {
      name: 'a request that carried no ids (a server’s search): nothing binds it',
      provenance: { companion: true, responses },
      events: () => {
        const p = new PageBuilder({ userId: 'someone-else', sessionId: 'other-session' });
        return [p.render('no-ids', { at: 0 }), p.impression('no-ids', ['P200'], { at: 1200 })];
      },
    },
    {
      name: 'a request that carried only a sessionId: another userId with that session is not judged by the user',
      provenance: { companion: true, responses },
      events: () => {
        const p = new PageBuilder({ userId: 'someone-else' });
        return [p.render('only-session', { at: 0 })];
      },
    },
    {
      name: 'the page load that asked switches to another sessionId midway (context-drift names it): its responseId is its own',
      provenance: { companion: true, responses },
      events: () => {
        const p = new PageBuilder();
        const drifted = new PageBuilder({ sessionId: 'session-other' });
        return [
          p.render('mine', { at: 0 }),
          drifted.impression('mine', ['P200'], { at: 1200 }),
          drifted.click('mine', 'P200', { at: 3000 }),
        ];
      },
    },
    {
      name: 'the page load that asked reads a new sessionId for every call, its search’s among them (context-drift names it): its responseId is its own',
      provenance: { companion: true, responses },
      events: () => {
        const at = (sessionId: string) => new PageBuilder({ sessionId });
        return [
          at('session-a').render('mine', { at: 0 }),
          at('session-b').impression('mine', ['P200'], { at: 1200 }),
          at('session-c').click('mine', 'P200', { at: 3000 }),
        ];
      },
    },
    {
      name: 'the same, a click 40 min later with a new sessionId: the page’s drift, context-drift’s',
      provenance: { companion: true, responses },
      events: () => {
        const p = new PageBuilder();
        const later = new PageBuilder({ sessionId: 'session-2' });
        return [p.render('mine', { at: 0 }), later.click('mine', 'P200', { at: 40 * 60_000 })];
      },
    },
  ],
  invalid: [
    {
      name: 'another visitor’s responseId: a page cached with someone else’s search',
      provenance: { companion: true, responses },
      events: () => {
        const p = new PageBuilder({ userId: 'user-2', sessionId: 'session-9' });
        return [p.render('mine', { at: 0 }), p.impression('mine', ['P200'], { at: 1200 })];
      },
      findings: [
        {
          messageId: 'otherUser',
          data: { carried: 'user-2', requested: 'user-1', responseId: 'mine' },
          events: [0],
          responseId: 'mine',
          behaviour: 'search.response-bound',
        },
      ],
    },
    {
      name: 'the same userId, another session within minutes of the search',
      provenance: { companion: true, responses },
      events: () => {
        const p = new PageBuilder({ sessionId: 'session-9' });
        return [p.render('mine', { at: 0 })];
      },
      findings: [
        {
          messageId: 'otherSession',
          data: { carried: 'session-9', requested: 'session-1' },
          message: /keeps its sessionId for the page’s life/,
          // the page load that asked is this one: it searched and tracked with two sessions
          behaviour: 'identity.ids-per-page-load',
        },
      ],
    },
    {
      name: 'edge: the page load that asked switches to another sessionId midway, its other userId too (another visitor sharing the pageLoadId)',
      provenance: { companion: true, responses },
      events: () => {
        const p = new PageBuilder();
        const other = new PageBuilder({ userId: 'user-2', sessionId: 'session-other' });
        return [p.render('mine', { at: 0 }), other.impression('mine', ['P200'], { at: 1200 })];
      },
      findings: [
        {
          messageId: 'otherUser',
          data: { carried: 'user-2', requested: 'user-1' },
          events: [1],
        },
      ],
    },
    {
      name: 'a responseId copied from another page load of another session',
      provenance: { companion: true, responses },
      events: () => {
        const p = new PageBuilder({ pageLoadId: 'page-2', sessionId: 'session-9' });
        return [p.render('mine', { at: 0 }), p.impression('mine', ['P200'], { at: 1200 })];
      },
      findings: [
        {
          messageId: 'otherSession',
          data: { carried: 'session-9', requested: 'session-1' },
          message: /copied from another session’s page/,
          events: [0],
          behaviour: 'search.response-bound',
        },
      ],
    },
    {
      name: 'edge: a responseId copied from a page of another session onto another page load that began in the request’s session and drifted',
      provenance: { companion: true, responses },
      events: () => {
        // page-2 is not the page load that asked (page-1): its drift does not explain the id
        const p = new PageBuilder({ pageLoadId: 'page-2' });
        const drifted = new PageBuilder({ pageLoadId: 'page-2', sessionId: 'session-other' });
        return [
          p.render('r-own', { at: 0 }),
          drifted.render('mine', { at: 600 }),
          drifted.impression('mine', ['P200'], { at: 1800 }),
        ];
      },
      findings: [
        {
          messageId: 'otherSession',
          data: { carried: 'session-other', requested: 'session-1' },
          events: [1],
          behaviour: 'search.response-bound',
        },
      ],
    },
  ],
} satisfies RuleCases;
