// `responseid-stale` (error): on a single-page storefront, a new search on the same page load (the page
// URL's query changed, say q=shirt → q=boots) whose render, impressions or clicks still carry the previous
// search's responseId. Every event looks valid alone; the page as a whole reports the wrong response.
//
// The query a response was for is the `q` of the page URL its first render (or first event) carried. Silent, because nothing can be told apart, for:
// events whose page URL has no query (category pages, a storefront that keeps the query out of the URL),
// autocomplete and widgets (the URL does not follow what is typed or recommended), and a cached response
// rendered again when the shopper goes back to its query (the URL carries that query again).
import { endpointOf } from '../../../../shared/kinds';
import { queryOf } from './utils/search-params';
import { describe, finding, list, plural, defineRule, type RuleMeta } from './types';

const meta: RuleMeta<'response'> = {
  id: 'responseid-stale',
  judges: ['response'],
  title: 'Previous search’s responseId after a new search',
  description:
    'A single-page storefront searched again on the same page load (the page URL’s query changed) but its render, impressions or clicks still carry the previous search’s responseId. Silent where the URL carries no query, for autocomplete and widgets, and for a cached response rendered again under its own query.',
  expects:
    'Every event of a search carries the responseId of the response whose results are on screen.',
  appliesTo: ['search'],
  guards: ['search.one-response-shown'],
  defaultSeverity: 'error',
  messages: {
    stale:
      '{{count}} of responseId "{{responseId}}" — the response for "{{query}}" (its {{anchorEvent}} {{anchorId}} was sent from a page showing that query) — {{was}} sent while the page showed {{shown}}: {{events}}. The storefront searched again on the same page (a single-page app) but kept the previous search\'s responseId, so the new results are reported as the old ones.',
  },
  fix: 'Take the responseId from the latest search response and send render with it after every search.',
  fixes: {
    stale:
      'Take the responseId from the search response that delivered the results on screen, and send {{render}} with it after every search.',
  },
  listens: ['render', 'redirect', 'impression', 'clickthrough', 'addtocart'],
  needs: { provenance: true },
  notJudged: {
    category: 'a category page’s URL carries no search query to compare with',
    autocomplete: 'the page URL does not follow what the shopper types',
    recommendations: 'the page URL says nothing about which widget response is shown',
    bundles: 'the page URL says nothing about which widget response is shown',
  },
};

export const responseIdStale = defineRule({
  meta,
  response(r) {
    // search only (RULE_KIND_EXEMPTIONS says why not the other kinds)
    if (r.responseId === '') return [];
    const accepted = r.events.filter((e) => e.accepted);
    if (accepted.length === 0) return [];
    // URL against URL: the query a search was issued for may be spelled otherwise than the page's (a
    // corrected or rewritten query), the page URL of its first render is what the shopper saw
    const anchor = r.facts.renders[0] ?? accepted[0]!;
    const own = queryOf(anchor);
    if (own === undefined || own === '') return [];
    const stale = accepted.filter((e) => {
      const q = queryOf(e);
      return q !== undefined && q !== own;
    });
    if (stale.length === 0) return [];
    const shown = [...new Set(stale.map((e) => queryOf(e)!))];
    const data = {
      count: plural(stale.length, 'event'),
      responseId: r.responseId,
      query: own,
      anchorEvent: anchor.event,
      anchorId: anchor.id,
      was: stale.length === 1 ? 'was' : 'were',
      shown: list(
        shown.map((q) => `"${q}"`),
        3,
      ),
      events: list(stale.map(describe), 3),
      render: endpointOf(r.kind, 'render'),
    };
    return [
      finding(
        meta,
        r.responseId,
        { messageId: 'stale', data },
        stale.map((e) => e.id),
        { responseId: r.responseId },
      ),
    ];
  },
});
