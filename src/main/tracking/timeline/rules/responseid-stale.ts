// `responseid-stale` (error): on a single-page storefront, a new search on the same page load (the page
// URL's query changed, say q=shirt → q=boots) whose render, impressions or clicks still carry the previous
// search's responseId. Every event looks valid alone; the page as a whole reports the wrong response.
//
// The query a response was for is the `q` of the page URL its first render (or first event) carried. Silent, because nothing can be told apart, for:
// events whose page URL has no query (category pages, a storefront that keeps the query out of the URL),
// autocomplete and widgets (the URL does not follow what is typed or recommended), and a cached response
// rendered again when the shopper goes back to its query (the URL carries that query again).
import { endpointOf } from '../../../../shared/kinds';
import type { TimelineEvent } from '../model';
import { describe, finding, list, plural, type ResponseRule, type RuleMeta } from './types';

/** The search query of a page URL (`q`, or `query`), normalised; undefined when it has none. */
export function urlQuery(pageUrl: string): string | undefined {
  // no `?`, no query: the answer new URL would give, without parsing
  if (!pageUrl.includes('?')) return undefined;
  let u: URL;
  try {
    u = new URL(pageUrl);
  } catch {
    return undefined;
  }
  const q = u.searchParams.get('q') ?? u.searchParams.get('query');
  return q === null ? undefined : normalise(q);
}

function normalise(q: string): string {
  return q.trim().replace(/\s+/g, ' ').toLowerCase();
}

// parsing a URL per event is the cost of this rule: the events of a page repeat a few URLs, so the
// queries of the last URLs seen are kept (by text, URLs up to 2,048 characters; a bounded map, emptied
// when full)
const MAX_URLS = 4_096;
const MAX_CACHED_URL = 2_048;
const queries = new Map<string, string | null>();
function queryOf(e: TimelineEvent): string | undefined {
  if (e.pageUrl.length > MAX_CACHED_URL) return urlQuery(e.pageUrl);
  let q = queries.get(e.pageUrl);
  if (q === undefined) {
    if (queries.size >= MAX_URLS) queries.clear();
    queries.set(e.pageUrl, (q = urlQuery(e.pageUrl) ?? null));
  }
  return q ?? undefined;
}

const meta: RuleMeta = {
  id: 'responseid-stale',
  title: 'Previous search’s responseId after a new search',
  description:
    'A single-page storefront searched again on the same page load (the page URL’s query changed) but its render, impressions or clicks still carry the previous search’s responseId. Silent where the URL carries no query, for autocomplete and widgets, and for a cached response rendered again under its own query.',
  expects:
    'Every event of a search carries the responseId of the response whose results are on screen.',
  appliesTo: ['search'],
  guards: ['search.one-response-shown'],
  defaultSeverity: 'error',
  fix: 'Take the responseId from the latest search response and send render with it after every search.',
  listens: ['render', 'redirect', 'impression', 'clickthrough', 'addtocart'],
  needs: { provenance: true },
  notJudged: {
    category: 'a category page’s URL carries no search query to compare with',
    autocomplete: 'the page URL does not follow what the shopper types',
    recommendations: 'the page URL says nothing about which widget response is shown',
    bundles: 'the page URL says nothing about which widget response is shown',
  },
};

export const responseIdStale: ResponseRule = {
  meta,
  judges: 'response',
  check(r) {
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
    const message =
      `${plural(stale.length, 'event')} of responseId "${r.responseId}" — the response for "${own}" (its ${anchor.event} ${anchor.id} was sent from a page showing that query) — ` +
      `${stale.length === 1 ? 'was' : 'were'} sent while the page showed ${list(
        shown.map((q) => `"${q}"`),
        3,
      )}: ${list(stale.map(describe), 3)}. ` +
      `The storefront searched again on the same page (a single-page app) but kept the previous search's responseId, so the new results are reported as the old ones. ` +
      `Fix: take the responseId from the search response that delivered the results on screen, and send ${endpointOf(r.kind, 'render')} with it after every search.`;
    return [
      finding(
        meta,
        r.responseId,
        message,
        stale.map((e) => e.id),
        {
          responseId: r.responseId,
        },
      ),
    ];
  },
};
