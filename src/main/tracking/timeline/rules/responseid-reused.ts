// `responseid-reused`: a responseId first seen on another page (another search or session): a stale id.
import { finding, list, plural, defineRule, type RuleMeta } from './types';
import { describeSearch, sameSearch } from './utils/search-params';

/**
 * How long the provider's client serves a search response from its cache (5 minutes in sessionStorage),
 * with a minute for clocks: a re-visit after longer is a new request with a new responseId.
 */
const CACHE_MS = 6 * 60_000;

const meta: RuleMeta<'response'> = {
  id: 'responseid-reused',
  judges: ['response'],
  title: 'responseId from another page',
  description:
    'A responseId first seen on another page load with a different path or session, or for the same search where the client’s cache could not serve it (development mode, or more than its 5 minutes later): a stale id reused.',
  expects: 'Every event on a page reuses the responseId of that page’s own search response.',
  appliesTo: ['search', 'category', 'autocomplete', 'recommendations', 'bundles'],
  guards: ['search.response-bound', 'search.render-cached', 'identity.page-load'],
  defaultSeverity: 'error',
  messages: {
    reused:
      "responseId \"{{responseId}}\" belongs to page {{originPage}} ({{originUrl}}, first seen in {{originEvent}}){{where}}, yet this page ({{pageUrl}}) sends it again in {{count}}: {{events}}. The spec expects every event on a page to reuse the responseId of that page's own search response; an id carried over from another page is stale. Only a re-visit of the same search (same path and search parameters, in the same session, in production mode, within the cache's 5 minutes) may re-render a cached response's id.",
  },
  fix: 'Take data.responseId from the search response shown on this page; never store and resend it elsewhere.',
  fixes: {
    reused:
      'take data.responseId from the search response shown on this page; do not store it and send it elsewhere.',
  },
  listens: ['render', 'redirect', 'impression', 'clickthrough', 'addtocart'],
  needs: { supersedes: true, origins: true },
};

export const responseIdReused = defineRule({
  meta,
  // a responseId of another page or kind explains everything else about it here: the cause alone
  response(r, ctx) {
    if (r.responseId === '') return [];
    const origin = ctx.origin(r.responseId);
    if (!origin || origin.pageKey === ctx.page.key) return [];
    // The provider's client caches search responses by their request parameters for the session: coming
    // back to the same search (back button, reload after 10 s, the same search with utm_* added) re-renders
    // the same responseId on a new pageLoadId. That is fine. Another path, or other search parameters
    // (another query, filter, sort or page), cannot be served that response: the id is stale.
    const here = r.events.filter((e) => e.accepted);
    if (here.length === 0) return [];
    // the cache is off in development mode, and keeps a response CACHE_MS: beyond either it is stale
    // (a cached response is rendered again: without a render here, no cache served it: missing-render's)
    const rendered = here[0]!.event === 'render';
    const cacheOff = rendered && origin.dev && here[0]!.dev;
    const expired = rendered && here[0]!.time - origin.time > CACHE_MS;
    const sameRequest = origin.sessionId === r.sessionId && sameSearch(origin.pageUrl, r.pageUrl);
    if (sameRequest && !cacheOff && !expired) return [];
    const where = !sameRequest
      ? origin.sessionId !== r.sessionId
        ? ` in another session ("${origin.sessionId}")`
        : ` (search: ${describeSearch(origin.pageUrl)}; this page: ${describeSearch(r.pageUrl)})`
      : cacheOff
        ? ` for the same search, but both pages run in development mode, where the provider's client does not cache search responses (every search is a new request with a new responseId)`
        : ` for the same search, ${Math.round((here[0]!.time - origin.time) / 60_000)} minutes earlier: the provider's client keeps a cached response 5 minutes, then searches again and gets a new responseId`;
    const data = {
      responseId: r.responseId,
      originPage: origin.pageLoadId,
      originUrl: origin.pageUrl,
      originEvent: origin.eventId,
      where,
      pageUrl: r.pageUrl,
      count: plural(here.length, 'event'),
      events: list(here.map((e) => e.id)),
    };
    return [
      finding(
        meta,
        r.responseId,
        { messageId: 'reused', data },
        [origin.eventId, ...here.map((e) => e.id)],
        { responseId: r.responseId },
      ),
    ];
  },
});
