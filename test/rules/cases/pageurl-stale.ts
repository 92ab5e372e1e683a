import { PageBuilder, T0, issued, type RuleCases } from '../kit';

const FIRST = 'http://localhost:3000/search?q=shirt';
const BLUE = 'http://localhost:3000/search?q=shirt&filter.color=blue';
const RED = 'http://localhost:3000/search?q=shirt&filter.color=red';
const ids = { userId: 'user-1', sessionId: 'session-1', pageLoadId: 'page-1' };
/** the blue filter's search, requested from its URL 1 s before the page's first event */
const BLUE_SEARCH = issued({ responseId: 'blue', requester: { ...ids, pageUrl: BLUE } });
/** the red filter's search, chosen while the blue one was in flight */
const RED_SOON = issued({
  responseId: 'red',
  issuedAt: T0 - 900,
  requester: { ...ids, pageUrl: RED },
});
const RED_LATE = issued({
  responseId: 'red',
  issuedAt: T0 + 500,
  requester: { ...ids, pageUrl: RED },
});
const NO_DOMAIN = issued({ responseId: 'no-domain', requester: ids });
/** a hand-built search request whose domain is the site's origin */
const ORIGIN_DOMAIN = issued({
  responseId: 'origin',
  query: 'shirt',
  requester: { ...ids, pageUrl: 'http://localhost:3000' },
});

export default {
  valid: [
    {
      name: 'the render carries the URL that searched',
      provenance: { companion: true, responses: [BLUE_SEARCH] },
      events: () => [new PageBuilder({ pageUrl: BLUE }).render('blue', { at: 0 })],
    },
    {
      name: 'a URL that differs only in its fragment',
      provenance: { companion: true, responses: [BLUE_SEARCH] },
      events: () => [new PageBuilder({ pageUrl: `${BLUE}#results` }).render('blue', { at: 0 })],
    },
    {
      name: 'the response rendered on another page load (the client cache served it there)',
      provenance: { companion: true, responses: [BLUE_SEARCH] },
      events: () => [
        new PageBuilder({ pageLoadId: 'page-2', pageUrl: FIRST }).render('blue', { at: 0 }),
      ],
    },
    {
      name: 'a render that arrived over 10 s after the answer was not the one made right after it',
      provenance: { companion: true, responses: [BLUE_SEARCH] },
      events: () => [new PageBuilder({ pageUrl: FIRST }).render('blue', { at: 9001 })],
    },
    {
      name: 'the shopper chose another filter while the search was in flight',
      provenance: { companion: true, responses: [BLUE_SEARCH, RED_SOON] },
      events: () => [new PageBuilder({ pageUrl: RED }).render('blue', { at: 0 })],
    },
    {
      name: 'a request that carried no domain',
      provenance: { companion: true, responses: [NO_DOMAIN] },
      events: () => [new PageBuilder({ pageUrl: FIRST }).render('no-domain', { at: 0 })],
    },
  ],
  invalid: [
    {
      name: 'the search request built with the site’s origin as domain: the request is wrong, not the beacon',
      provenance: { companion: true, responses: [ORIGIN_DOMAIN] },
      events: () => [new PageBuilder({ pageUrl: FIRST }).render('origin', { at: 0 })],
      findings: [
        {
          messageId: 'domainNotHref',
          message: 'which asks for its search ("shirt"), but the search was requested with domain',
          fix: 'not the site’s origin',
          behaviour: 'search.request-context',
        },
      ],
    },
    {
      name: 'a fixed href in an SPA: the filtered search’s render carries the first URL',
      provenance: { companion: true, responses: [BLUE_SEARCH] },
      events: () => [new PageBuilder({ pageUrl: FIRST }).render('blue', { at: 0 })],
      findings: [
        {
          messageId: 'stale',
          data: { carried: FIRST, requested: BLUE },
          events: [0],
          responseId: 'blue',
          // the beacon's pageUrl is stale, not the search's request (its domain was right)
          behaviour: 'identity.page-url',
        },
      ],
    },
    {
      name: 'a render 9 s after the answer is still judged',
      provenance: { companion: true, responses: [BLUE_SEARCH] },
      events: () => [new PageBuilder({ pageUrl: FIRST }).render('blue', { at: 8959 })],
      findings: [{ messageId: 'stale', responseId: 'blue' }],
    },
    {
      name: 'a search from the render’s URL answered only after the render arrived does not explain it',
      provenance: { companion: true, responses: [BLUE_SEARCH, RED_LATE] },
      events: () => [new PageBuilder({ pageUrl: RED }).render('blue', { at: 0 })],
      findings: [{ messageId: 'stale', responseId: 'blue', data: { carried: RED } }],
    },
  ],
} satisfies RuleCases;
