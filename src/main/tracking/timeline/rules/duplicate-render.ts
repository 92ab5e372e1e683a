// `duplicate-render`: the same response rendered again before any impression of it (search, category,
// widgets), or, for autocomplete, rendered again while it was the response shown (a repeated search); for
// search and category, also a render again after impressions that the client's cache could not have served.
import { endpointOf } from '../../../../shared/kinds';
import { indexSorted, responseKey, type TimelineEvent } from '../model';
import { issuedKind, type IssuedResponse } from '../../../search/responses';
import { quotedQuery } from './utils/provenance';
import { CACHE_MS, nothingBetween } from './utils/listing-renders';
import { queryOf } from './utils/search-params';
import type { Response } from '../response';
import { PAGE_LOAD_ID_REUSE_MS } from '../../client-model';
import type { RuleContext } from './types';
import { duration, finding, list, defineRule, type RuleMeta } from './types';

/**
 * The autocomplete controller skips the render when a response has the responseId of the results shown
 * (a repeated search) and keeps its impression flags; it renders again after another response was shown.
 * So two renders of R with no other autocomplete render between them are a duplicate, with impressions
 * between them or not. Silent edge: a repeated search of a response with no results is rendered again by
 * the controller (no result holds the previous responseId), so a pair with no impression between counts
 * only when the companion issued R with results.
 */
function autocompletePairs(r: Response, ctx: RuleContext): Array<[string, string]> {
  const all = ctx.page.autocompleteRenders;
  const issued = ctx.provenance?.issued(ctx.page.siteId, r.responseId);
  const hadResults = issued !== undefined && issued.results.length > 0;
  const pairs: Array<[string, string]> = [];
  for (const render of r.facts.renders) {
    const i = indexSorted(all, render);
    const prev = i > 0 ? all[i - 1]! : undefined;
    if (!prev || prev.responseId !== r.responseId) continue;
    const impressed = r.facts.impressions.some((e) => e.time >= prev.time && e.time <= render.time);
    if (impressed || hadResults) pairs.push([prev.id, render.id]);
  }
  return pairs;
}

/** the reloaded page loads its scripts, searches (its cache answers) and renders within this */
const RELOAD_RENDER_MS = 5_000;
/**
 * A reload of the same href keeps the pageLoadId when the stored one is under 10 s old (B getPageLoadId):
 * the new document's controller searches with an empty store and renders the cached response again. Its
 * render comes within those 10 s plus the time the reloaded page takes to render.
 */
const RELOAD_MS = PAGE_LOAD_ID_REUSE_MS + RELOAD_RENDER_MS;

/**
 * Why a listing's render of a response it rendered before, after impressions of it, cannot be the
 * client's cached re-render, when it cannot. SC search() returns without a search (so without a render)
 * while its store is loaded with the same storable parameters (lastStringyParams, set after each render):
 * coming back to a response needs another response of the listing rendered between. The cache then serves
 * it (a render of the same responseId) only in production (NetworkCache is off in development) and for 5
 * minutes. A render again at another path whose URL does not ask for the query the earlier render's URL
 * asked for is no showing of the listing at all (awayFromListing). Silent edges: an SPA route elsewhere
 * between the two renders that comes back to a URL of the search (a controller made anew searches with an
 * empty store); a reload (the same href, within RELOAD_MS: the pageLoadId is kept); widgets (a
 * widget's controller may be made again with the page's content).
 */
function notFromCache(
  r: Response,
  ctx: RuleContext,
  first: TimelineEvent,
  prev: TimelineEvent,
  cur: TimelineEvent,
): { messageId: string; data: Record<string, string> } | undefined {
  const newer = unrenderedNewer(r, ctx, prev, cur);
  if (newer)
    return {
      messageId: 'staleRender',
      data: {
        newer: newer.responseId,
        query: quotedQuery(newer),
        answered: duration(cur.time - newer.issuedAt),
      },
    };
  // A listing shown again asks for its search in its URL (back to it, a reload): a render again at another
  // path whose URL no longer asks for the query the earlier render's URL asked for is no showing of the
  // listing, but its results component rendering on a route away from it (to a product page, say)
  const query = queryOf(prev);
  if (query !== undefined && pathOf(cur.pageUrl) !== pathOf(prev.pageUrl) && queryOf(cur) !== query)
    return {
      messageId: 'awayFromListing',
      data: { at: cur.pageUrl, query: JSON.stringify(query), before: prev.pageUrl },
    };
  if (cur.dev) return { messageId: 'cacheOff', data: {} };
  if (cur.time - first.time > CACHE_MS)
    return { messageId: 'cacheExpired', data: { after: duration(cur.time - first.time) } };
  if (pathOf(cur.pageUrl) !== pathOf(prev.pageUrl)) return undefined;
  if (cur.pageUrl === prev.pageUrl && cur.time - prev.time <= RELOAD_MS) return undefined;
  if (!nothingBetween(r, ctx.page, prev, cur, pathOf)) return undefined;
  return { messageId: 'storeLoaded', data: {} };
}

/**
 * The response of a newer search this page load asked for between the two renders (the companion knows
 * who asked), which no render of the page names: the render again is that search's, sent with the
 * previous responseId.
 */
function unrenderedNewer(
  r: Response,
  ctx: RuleContext,
  prev: TimelineEvent,
  cur: TimelineEvent,
): IssuedResponse | undefined {
  const asked = ctx.provenance?.issuedTo(ctx.page.siteId, ctx.page.pageLoadId);
  if (!asked) return undefined;
  for (let i = asked.length - 1; i >= 0; i--) {
    const a = asked[i]!;
    if (a.responseId === r.responseId || issuedKind(a) !== r.kind) continue;
    if (a.issuedAt <= prev.time || a.issuedAt > cur.time) continue;
    const shown = ctx.page.responses.get(responseKey(r.kind, r.tag, a.responseId));
    if (!shown || shown.facts.renders.length === 0) return a;
  }
  return undefined;
}

function pathOf(url: string): string {
  const hash = url.indexOf('#');
  const query = url.indexOf('?');
  const end = query >= 0 ? query : hash >= 0 ? hash : url.length;
  return url.slice(0, end);
}

const meta: RuleMeta<'response'> = {
  id: 'duplicate-render',
  judges: ['response'],
  title: 'Render sent twice',
  description:
    'A second render of the same responseId on the page before any impression of it; for search and category, also one after impressions that the client’s cache could not have served: with no other response of the listing rendered between (its store still held the search), in development mode (no cache), more than its 5 minutes later, or at another page whose URL does not ask for the search (a route away from the listing). Coming back to a cached response after another search is fine.',
  expects: 'One render per displayed search response.',
  appliesTo: ['search', 'category', 'autocomplete', 'recommendations', 'bundles'],
  guards: [
    'search.render',
    'search.render-cached',
    'category.events',
    'autocomplete.render',
    'recommendations.widget',
    'bundles.widget',
  ],
  // a listing's render again at the same URL past a reload's seconds is pageload-reused-late's first
  explainedBy: ['pageload-reused-late'],
  defaultSeverity: 'warning',
  messages: {
    renderedAgain:
      'responseId "{{responseId}}"{{tag}} was rendered again before any impression of it: {{pairs}}. The spec expects one render per displayed {{kind}} response.',
    autocompleteRenderedAgain:
      'responseId "{{responseId}}"{{tag}} was rendered again while it was the autocomplete response shown: {{pairs}}. The provider\'s autocomplete controller sends no render for a repeated search (the same responseId as the results shown) and keeps its impressions.',
    storeLoaded:
      'responseId "{{responseId}}" was rendered again after its impressions ({{pairs}}) with no other response of the {{kind}} listing rendered between. The provider\'s search controller does not search again while its results already hold the same search, so it sends no render then; only coming back to a cached response after another search renders the same responseId again.',
    staleRender:
      'responseId "{{responseId}}" was rendered again ({{pairs}}) {{answered}} after this page load\'s search {{query}} was answered with "{{newer}}", which no render names: the render of that search carries the previous response\'s id.',
    awayFromListing:
      'responseId "{{responseId}}" was rendered again after its impressions ({{pairs}}) at "{{at}}", a page that does not ask for its search ({{query}}, asked at "{{before}}"). The provider\'s client renders a response again only when a search of it completes: the listing shown again (back to it, a reload) asks for its search in its URL. A render at another page is the results component rendering on a route away from the listing, and the provider counts a showing of results the shopper did not see.',
    cacheOff:
      'responseId "{{responseId}}" was rendered again after its impressions ({{pairs}}) in development mode. The provider\'s client does not cache responses in development: coming back to a search is a new request with a new responseId, so a render of the old one did not come from it.',
    cacheExpired:
      'responseId "{{responseId}}" was rendered again {{after}} after its first render ({{pairs}}). The provider\'s client keeps a response in its cache 5 minutes: coming back to the search later is a new request with a new responseId.',
  },
  fix: 'Track render once per response (not on every component re-render).',
  fixes: {
    renderedAgain:
      'send {{render}} once per response, not on every re-render of the results component.',
    autocompleteRenderedAgain:
      'send {{render}} once per response shown, not again when the same response comes back for the same term.',
    storeLoaded:
      'send {{render}} once per search the listing runs, not when a component re-renders or a route comes back to the same results.',
    staleRender:
      'send {{render}} with the responseId of the response the last search returned ("{{newer}}"), not the one shown before it.',
    awayFromListing:
      'send {{render}} only when the listing’s search completes, not when its component renders again on a route change (to a product page, say).',
    cacheOff:
      'send {{render}} with the responseId of the response the last search returned, not one kept from an earlier search.',
    cacheExpired:
      'send {{render}} with the responseId of the response the last search returned, not one kept from an earlier search.',
  },
  listens: ['render', 'impression'],
  // a repeated autocomplete search counts only when the companion issued the response with results; a
  // listing's render again is a cached one only after another response of the listing was rendered
  needs: { provenance: true, pageResponses: true },
  kindNotes: {
    autocomplete:
      'a render of the responseId already shown (no other autocomplete render between): the controller skips the render of a repeated search, even after impressions',
    recommendations: 'per widget (tag + responseId)',
    bundles: 'per widget (tag + responseId)',
  },
};

export const duplicateRender = defineRule({
  meta,
  response(r, ctx) {
    if (r.facts.renders.length < 2) return [];
    if (r.kind === 'autocomplete') return report(r, autocompletePairs(r, ctx));
    // A render after impressions starts a new view of the response: the provider's client re-renders a
    // cached response (same responseId) when the shopper comes back to a search. Back-to-back renders
    // with no impression between them are duplicates; for a listing, so is a render again the cache
    // could not have served.
    const pairs: Array<[string, string]> = [];
    const uncached: Array<[string, string]> = [];
    let why: ReturnType<typeof notFromCache>;
    let first: TimelineEvent | null = null;
    let lastRender: TimelineEvent | null = null;
    let impressedSince = false;
    const listing = r.kind === 'search' || r.kind === 'category';
    for (const e of r.events) {
      if (!e.accepted) continue;
      if (e.event === 'render') {
        if (lastRender !== null && !impressedSince) pairs.push([lastRender.id, e.id]);
        else if (lastRender !== null && listing) {
          const w = notFromCache(r, ctx, first!, lastRender, e);
          if (w) {
            uncached.push([lastRender.id, e.id]);
            why ??= w;
          }
        }
        first ??= e;
        lastRender = e;
        impressedSince = false;
      } else if (e.event === 'impression') impressedSince = true;
    }
    if (pairs.length > 0 || !why) return report(r, pairs);
    return report(r, uncached, why);
  },
});

function report(
  r: Response,
  pairs: Array<[string, string]>,
  why?: { messageId: string; data: Record<string, string> },
) {
  if (pairs.length === 0) return [];
  const ids = pairs.flat();
  const ac = r.kind === 'autocomplete';
  const data = {
    responseId: r.responseId,
    tag: r.tag ? ` (tag "${r.tag}")` : '',
    pairs: list(
      pairs.map(([a, b]) => `${b} repeats ${a}`),
      3,
    ),
    kind: r.kind,
    render: endpointOf(r.kind, 'render'),
    ...why?.data,
  };
  const messageId = why?.messageId ?? (ac ? 'autocompleteRenderedAgain' : 'renderedAgain');
  return [
    finding(meta, r.responseId, { messageId, data }, ids, {
      responseId: r.responseId,
      // a render again after impressions is the cache's to explain (it could not have served it); one
      // before any impression is the render's own (the judge names the widget's or dropdown's for theirs)
      ...(why && { behaviour: 'search.render-cached' }),
    }),
  ];
}
