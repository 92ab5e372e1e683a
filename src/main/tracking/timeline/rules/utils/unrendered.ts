// Impressions, clicks or carts of a response (kind + responseId + tag) the page never rendered, shared by
// `missing-render` (an error) and `missing-render-backfill` (info: infinite scroll restoring pages sends
// page 1's render only). Which message fits depends on what else the page rendered.
import { endpointOf, isWidgetKind } from '../../../../../shared/kinds';
import type { FindingData } from '../../../../../shared/timeline';
import { list, plural, quoted, duration, type ResponseOrigin, type RuleContext } from '../types';
import type { TimelineEvent } from '../../model';
import type { Response } from '../../response';
import { issuedFor } from './provenance';
import { fetchedBy } from './backfill';
import type { IssuedResponse } from '../../../../search/responses';
import { describePagelessSearch, queryOf, searchOf } from './search-params';
import { CACHE_MS } from './listing-renders';
import { renderLeftInQueue, type LeftInQueue } from './queued-render';

/** Only search and category pages backfill infinite scroll (one render for several responses). */
const BACKFILLS = new Set(['search', 'category']);

const WHAT =
  '{{count}} ({{kinds}}: {{ids}}) {{carry}} {{what}}, but this page sent no {{render}} with {{that}}. The spec expects a render of each {{kind}} response when its results are shown, before impressions and clicks on them.{{also}}';

/** The messages of the two rules, by id: which one fits is the page's other renders' business. */
/** The behaviours a response's render keeps: those `missing-render` and `missing-render-at-exit` guard. */
export const RENDER_BEHAVIOURS = [
  'search.render',
  'category.events',
  'autocomplete.render',
  'recommendations.widget',
  'bundles.widget',
];

export const UNRENDERED_MESSAGES = {
  unrendered: WHAT,
  backfill: `${WHAT} Reported apart, as info, because the page rendered other responses ({{others}}): the provider's client sends one render for several responses when infinite scroll backfills pages.`,
  newSearch: `${WHAT} The page rendered other responses ({{others}}) for another query, but these events were sent while the page showed "{{query}}": a new search on the same page (a single-page app) that sent no render of its own, or rendered the previous responseId.`,
  firstPage: `${WHAT} The page rendered other responses ({{others}}), but this one is page 1 of its search, which always gets its own render: a render sent before the response arrived (with the previous responseId) looks like this.`,
  scrolled: `${WHAT} The page rendered other responses ({{others}}), but this one is page {{page}} of its search, which this page load requested {{apart}} after its lower pages: infinite scroll fetched it, and each page fetched by scrolling gets its own render (only the pages restored together on load share page 1's).`,
  unissued: `${WHAT} The page rendered other responses ({{others}}), which this sandbox's search API issued, but it never issued this responseId, and {{cache}}: infinite scroll restores later pages on load by requesting them with page 1, from the same search API, so a restored page carries a responseId the sandbox issued. An id altered on its way, typed by hand or taken from another search service looks like this.`,
  onlyPage: `${WHAT} The page rendered other responses ({{others}}), but the sandbox issued each as the only page of its search (page 1, with fewer results than its page size), and never issued this responseId: infinite scroll has no later page to restore, so these events are no backfill. An id altered on its way, typed by hand or taken from another search service looks like this.`,
  atExit: `${WHAT} Reported apart, as info, because the render may have been lost with the page: {{clicked}} the page's last event, {{after}} after the sandbox issued the response, and the provider's client holds a render in its queue for 300 ms after the last queued event while it sends a click at once, with no flush when the page is left. A shopper who clicks a result that soon after it appears and goes to the product leaves with the render still queued; nothing is wrong if the shopper clicked that fast.`,
  carriedOver: `{{count}} ({{kinds}}: {{ids}}) {{carry}} responseId "{{responseId}}", an earlier search's: it was first seen on page {{originPage}} ({{originUrl}}, {{originEvent}}), while this page rendered {{others}}. The provider's client sends each tile's impressions, clicks and adds with the responseId of the response that delivered the tile, the one the page shows; the only way another page load's responseId reaches a page without a render of its own is infinite scroll restoring a later page from the client's cache, but {{notRestored}}. So these events carry a stale responseId, kept from the earlier search, and are counted for results this page never showed.{{also}}`,
  singleResult: `${WHAT} The sandbox issued this response with a single result, and {{clicks}} came as soon as it was answered, ending the page: the provider's client then queues the render and navigates to that product by itself (the single-result redirect), so no shopper clicks it first. A click sent for it is the storefront tracking the redirect as a click, which the provider counts as a click nobody made.`,
  otherLoad: `{{count}} ({{kinds}}: {{ids}}) {{carry}} responseId "{{responseId}}", rendered {{before}} earlier at the same URL on page load {{originPage}} ({{originEvent}}), in this session, but this page load sent no render of it. The provider's client makes one pageLoadId per page load and keeps it for every event of the page: a new document at the same URL within 10 s even reuses the stored one (B getPageLoadId). So these events are that page's, sent with a new pageLoadId (a tracker, or a pageLoadId, made per event or per call, or pageLoad() called while the page still shows this response): the service sees the render on one page and its events on others.{{also}}`,
  otherTag:
    "{{count}} ({{kinds}}: {{ids}}) {{carry}} tag \"{{tag}}\" with responseId \"{{responseId}}\", but that responseId is the {{ownTags}} widget's (this page rendered it with that tag: {{ownRender}}){{tagOwner}}: {{items}} the {{ownTags}} widget's, sent with another widget's tag. The provider's client runs one controller per widget, each sending its impressions, clicks and adds with its own tag and its own response's responseId, so these count for the wrong widget.{{also}}",
} as const;

/** the fix of each of those messages */
export const UNRENDERED_FIX =
  'send {{render}} with data.responseId "{{responseId}}"{{andTag}} when those results are displayed.';

/** the fix of clicks that left the page while the render may still have been queued */
export const AT_EXIT_FIX =
  'nothing if the shopper clicked that fast; in a test, wait until {{render}} with data.responseId "{{responseId}}" has been sent (the client sends it 300 ms after the results appear) before clicking, so the page is judged with its render.';

/** the fix of a click sent for the single-result redirect */
export const SINGLE_RESULT_FIX =
  'send no clickthrough when the page redirects to the only result by itself; send {{render}} with data.responseId "{{responseId}}" before navigating, as the provider\'s controller queues it.';

/**
 * the fix of events sent under a new pageLoadId by the document that rendered their response (said on the
 * render's page too: no-impression-of-results' perEvent)
 */
export const OTHER_LOAD_FIX =
  'make one tracker per page load and let it keep its pageLoadId for every event of the page (do not create a Beacon, or pass a new pageLoadId, per event); where a route calls pageLoad(), send the render of the results it shows after it.';

/** the fix of a widget's events sent with another widget's tag */
export const OTHER_TAG_FIX =
  'send the "{{ownTag}}" widget\'s {{endpoints}} with data.tag "{{ownTag}}", the tag of its own render, not "{{tag}}": take tag and responseId from the same widget\'s controller.';

/** the fix of events that carry an earlier page load's responseId beside the page's own rendered responses */
export const CARRIED_OVER_FIX =
  "send each impression, click and add with the responseId of the response whose results the page shows (this page rendered {{others}}), taken from the tile's own result; do not keep an earlier search's responseId for a later page.";

/** the fix of a responseId the sandbox never issued beside rendered responses it issued */
export const UNISSUED_FIX =
  "send data.responseId exactly as the response that delivered the results gave it (this page rendered {{others}}); a page infinite scroll restores carries its own response's id, which the search API issued.";

/** Why a response's events had no render of their own, as the page's other renders of its kind say it. */
interface OtherRenders {
  /** the page's other rendered responses of the kind */
  others: Response[];
  /** the responseIds those renders carried (search and category: the kinds that backfill) */
  otherRendered: string[];
  /** infinite scroll's backfill: one render for several pages of the same search */
  backfill: boolean;
  /** a new search on the same page (the URL showed another query) that sent no render of its own */
  newSearch: string | undefined;
  /** a page the page load fetched by scrolling, not with page 1 on load: how long after its lower pages */
  scrolled: { page: number; apart: string } | undefined;
  /** why an id the sandbox never issued cannot be a page restored with the page's rendered responses */
  unissued: NotRestored | undefined;
  /** an earlier page load's responseId that infinite scroll could not have restored here */
  carried: CarriedOver | undefined;
}

/** Where an earlier page load's responseId was first seen, and why no restored page can carry it here. */
interface CarriedOver {
  origin: ResponseOrigin;
  notRestored: string;
}

/** An unissued response beside rendered ones the sandbox issued: the only pages of their searches, or not. */
type NotRestored = { why: 'onlyPage' } | { why: 'unissued'; cache: string };

/**
 * A response's accepted events that no render of it on the page precedes, with the message that explains
 * them, and whether they look like infinite scroll's backfill (which `missing-render-backfill` reports).
 */
export function unrenderedEvents(
  r: Response,
  ctx: RuleContext,
):
  | {
      messageId: keyof typeof UNRENDERED_MESSAGES;
      data: FindingData;
      ids: string[];
      backfill: boolean;
      /** the clicks that left the page while its render may still have been queued (not the backfill's) */
      atExit: LeftInQueue | undefined;
    }
  | undefined {
  const orphans = orphansOf(r);
  if (!orphans) return undefined;
  const widget = isWidgetKind(r.kind);
  const why = otherRenders(r, ctx, orphans);
  const owner = widget ? ownerWidget(r, why.others) : undefined;
  if (owner) return otherTag(r, ctx, orphans, why.others, owner);
  const data: Record<string, string> = {
    count: plural(orphans.length, 'event'),
    carry: orphans.length === 1 ? 'carries' : 'carry',
    kinds: list([...new Set(orphans.map((e) => e.event))]),
    ids: list(orphans.map((e) => e.id)),
    what: widget
      ? `responseId "${r.responseId}" and tag "${r.tag}"`
      : `responseId "${r.responseId}"`,
    render: endpointOf(r.kind, 'render'),
    that: widget ? 'that tag and responseId' : 'that responseId',
    kind: r.kind,
    also: alsoSaid(r, ctx, why.others),
    responseId: r.responseId,
    andTag: widget ? ` and data.tag "${r.tag}"` : '',
  };
  let messageId: keyof typeof UNRENDERED_MESSAGES = 'unrendered';
  // the message names where the responseId was first seen, and why that is not this page load
  if (why.carried)
    return carriedOver(
      orphans,
      { ...data, also: alsoSaid(r, ctx, why.others, false) },
      why.otherRendered,
      why.carried,
    );
  // The engine tells a response its render on another page load of the session (`renderedOn`): at this
  // URL, at most the client's 10 s before, with no page load elsewhere between them (engine.ts
  // continuedFrom). The same document gave its events a new pageLoadId, said so when the page rendered
  // nothing of the kind itself (otherwise the page's own renders explain better what happened).
  const load = why.others.length === 0 ? r.renderedOn : undefined;
  if (load)
    return {
      messageId: 'otherLoad',
      data: {
        ...data,
        // the message names the render's page itself
        also: alsoSaid(r, ctx, why.others, false),
        before: duration(Math.min(...orphans.map((e) => e.time)) - load.time),
        originPage: load.pageLoadId,
        originEvent: load.eventId,
      },
      ids: orphans.map((e) => e.id),
      backfill: false,
      atExit: undefined,
    };
  if (why.backfill || why.newSearch !== undefined || why.otherRendered.length > 0) {
    data.others = quoted(why.otherRendered, 3);
    messageId = why.backfill
      ? 'backfill'
      : why.newSearch !== undefined
        ? 'newSearch'
        : why.scrolled
          ? 'scrolled'
          : why.unissued
            ? why.unissued.why
            : 'firstPage';
    if (why.newSearch !== undefined) data.query = why.newSearch;
    if (why.unissued?.why === 'unissued') data.cache = why.unissued.cache;
    if (why.scrolled) {
      data.page = String(why.scrolled.page);
      data.apart = why.scrolled.apart;
    }
  }
  // The render may have left with the page in the client's queue (what the provider's client sends:
  // "Impressions", B queues render behind its 300 ms debounce; "Clickthrough and addtocart", a click is sent
  // at once and B has no unload flush; "Redirect", the single-result redirect loses its queued render the
  // same way). Timed by the sandbox's answer, `missing-render-at-exit` reports it instead, as info; untimed,
  // the error stays and says so, because a storefront that never renders sends the same traffic.
  const left = why.backfill ? undefined : renderLeftInQueue(r, ctx, orphans);
  // only a shopper's click may have left the render behind: the single result's is the storefront's own
  const atExit = left && !('singleResult' in left) ? left : undefined;
  if (atExit && !atExit.timed) data.also += untimedExit(orphans.length);
  if (left && 'singleResult' in left) {
    messageId = 'singleResult';
    data.clicks = orphans.length === 1 ? 'the click' : `the ${orphans.length} clicks`;
  }
  if (atExit && 'after' in atExit) {
    data.after = atExit.after;
    data.clicked = orphans.length === 1 ? 'the click was' : 'each click was';
  }
  return { messageId, data, ids: orphans.map((e) => e.id), backfill: why.backfill, atExit };
}

/**
 * said of the clicks (`clicks` of them) that ended the page when the sandbox cannot time them against the
 * response's answer
 */
function untimedExit(clicks: number): string {
  const [were, came] =
    clicks === 1
      ? ["The click was the page's last event", 'the click came']
      : [`The ${clicks} clicks were the page's last events`, 'the clicks came'];
  return ` ${were}, and the provider's client holds a render in its queue for 300 ms while it sends a click at once, with no flush when the page is left: a click within about 0.3 s of the results appearing leaves with the render still queued. The sandbox did not issue this response, so it cannot tell how soon ${came}: in a test, wait for the render before clicking, or search through the sandbox's search API, which times the click against its answer.`;
}

/**
 * The page's rendered widget of the same kind whose render carried this response's responseId with another
 * tag: the widget these events are of (one controller per widget: its responseId is its own).
 */
function ownerWidget(r: Response, others: readonly Response[]): Response | undefined {
  return others.find((o) => o.responseId === r.responseId && o.tag !== r.tag);
}

/**
 * A widget's events sent with another widget's tag: the responseId is `owner`'s, rendered on this page with
 * its own tag. Said as the bug it is, naming both tags and whose items these are.
 */
function otherTag(
  r: Response,
  ctx: RuleContext,
  orphans: readonly TimelineEvent[],
  others: readonly Response[],
  owner: Response,
): {
  messageId: 'otherTag';
  data: FindingData;
  ids: string[];
  backfill: false;
  atExit: undefined;
} {
  const ownTags = [
    ...new Set(others.filter((o) => o.responseId === r.responseId).map((o) => o.tag)),
  ];
  // the tag sent may be the page's other widget's: say whose, when the page rendered it
  const tagOwner = others.find((o) => o.tag === r.tag && o.responseId !== '');
  const uids = [...new Set(orphans.flatMap((e) => [...e.results, ...e.banners].map((i) => i.uid)))];
  const data: Record<string, string> = {
    count: plural(orphans.length, 'event'),
    carry: orphans.length === 1 ? 'carries' : 'carry',
    kinds: list([...new Set(orphans.map((e) => e.event))]),
    ids: list(orphans.map((e) => e.id)),
    tag: r.tag,
    responseId: r.responseId,
    ownTags: quoted(ownTags, 3),
    ownTag: owner.tag,
    ownRender: `${endpointOf(r.kind, 'render')} ${owner.facts.renders[0]!.id}`,
    tagOwner: tagOwner
      ? `, and "${r.tag}" is the page's other widget's (responseId "${tagOwner.responseId}")`
      : '',
    items: uids.length > 0 ? `its items (uids ${quoted(uids, 5)}) are` : 'they are',
    endpoints: list([...new Set(orphans.map((e) => endpointOf(r.kind, e.event)))]),
    also: alsoSaid(r, ctx, others),
  };
  return {
    messageId: 'otherTag',
    data,
    ids: orphans.map((e) => e.id),
    backfill: false,
    atExit: undefined,
  };
}

/** The accepted impressions, clicks and adds of a response with no render, or undefined when none lack one. */
function orphansOf(r: Response): TimelineEvent[] | undefined {
  const f = r.facts;
  if (r.responseId === '') return undefined;
  // A redirect replaces the results page: the provider's client sends no render for it.
  if (f.renders.length > 0 || f.redirects.length > 0) return undefined;
  // A render the service rejected is reported by `schema`; fixing it fixes this too.
  if (f.rejectedRender) return undefined;
  if (f.impressions.length + f.clicks.length + f.carts.length === 0) return undefined;
  return r.events.filter(
    (e) =>
      e.accepted &&
      (e.event === 'impression' || e.event === 'clickthrough' || e.event === 'addtocart'),
  );
}

function otherRenders(
  r: Response,
  ctx: RuleContext,
  orphans: readonly TimelineEvent[],
): OtherRenders {
  const others = [...ctx.page.responses.values()].filter(
    (o) => o !== r && o.rendered && o.kind === r.kind,
  );
  // a render with an empty responseId (sent before the response arrived) renders nothing
  const otherRendered = BACKFILLS.has(r.kind)
    ? others.filter((o) => o.responseId !== '').map((o) => o.responseId)
    : [];
  // The provider's client renders once, with page 1's responseId, when infinite scroll restores several
  // pages: later pages' tiles then carry their own responseIds with no render. When the sandbox issued
  // the response it knows its page; page 1 of a search always gets its own render.
  const issued = issuedFor(r, ctx);
  // Backfill restores pages of the same search: events sent while the page URL showed another query
  // than every rendered response's are a new search (an SPA re-search) whose render is missing.
  const orphanQuery = orphans.map((e) => queryOf(e)).find((q) => q !== undefined);
  const renderedQueries = others
    .filter((o) => o.responseId !== '')
    .map((o) => queryOf(o.facts.renders[0] ?? o))
    .filter((q): q is string => q !== undefined);
  const newQuery =
    orphanQuery !== undefined &&
    renderedQueries.length > 0 &&
    !renderedQueries.includes(orphanQuery)
      ? orphanQuery
      : undefined;
  // The same query with other filters, sort or page size (an SPA's filter in the hash, `#/filter:color:Blue`)
  // is another search too: backfill restores pages of the search the page loaded with, whose events carry
  // its URL (its page aside: the restored pages are asked for by it). An anchor or a utm parameter is no
  // search parameter of the client's (search-params.ts), so it changes nothing here.
  const newSearch = newQuery ?? (BACKFILLS.has(r.kind) ? otherSearch(orphans, others) : undefined);
  // The sandbox knows which pages this page load asked for, and when: pages restored together on load are a
  // backfill, a page requested later was fetched by scrolling and has a render of its own.
  const scrolled = issued ? scrolledPage(issued, ctx) : undefined;
  const unissued = issued ? undefined : notRestored(otherRendered, ctx, orphans);
  const restorable =
    otherRendered.length > 0 &&
    (!issued || issued.page > 1) &&
    newSearch === undefined &&
    scrolled === undefined &&
    unissued === undefined;
  const carried = restorable ? carriedFrom(r, ctx, orphans) : undefined;
  const backfill = restorable && carried === undefined;
  return { others, otherRendered, backfill, newSearch, scrolled, unissued, carried };
}

/**
 * What the orphans' page URL asks for when it is another search than every rendered response's (filters,
 * sort or page size aside from the query), for the message; undefined when it is one of theirs.
 */
function otherSearch(
  orphans: readonly TimelineEvent[],
  others: readonly Response[],
): string | undefined {
  const rendered = others
    .filter((o) => o.responseId !== '')
    .map((o) => searchOf((o.facts.renders[0] ?? o).pageUrl));
  if (rendered.length === 0) return undefined;
  const url = orphans[0]!.pageUrl;
  return rendered.includes(searchOf(url)) ? undefined : describePagelessSearch(url);
}

/**
 * Why a responseId first seen on an earlier page load cannot be a later page that infinite scroll restored
 * on this one, when something says so. SearchController restores pages 1…N on load by requesting them
 * again; a page's responseId from an earlier page load comes back only from the client's cache
 * (NetworkCache: sessionStorage, 5 minutes, off in development mode), and a restored page's tiles are
 * impressed with its own responseId (snap-client transforms/searchResponse.ts). So it is no restored page:
 * - in another session (another sessionStorage), in development mode (no cache), or past the cache's
 *   minutes;
 * - most likely, when the page sent clicks or adds with it and impressed nothing under it: the one backfill
 *   that looks so is a page the cache restored whose tile was clicked within the second before its
 *   impression (a click does not wait for it), far rarer than a responseId kept from the earlier search.
 * Undefined (left as a possible backfill): a responseId first seen on this page load, or one whose tiles
 * this page impressed in production within the cache's minutes.
 */
function carriedFrom(
  r: Response,
  ctx: RuleContext,
  orphans: readonly TimelineEvent[],
): CarriedOver | undefined {
  const origin = ctx.origin(r.responseId);
  if (!origin || origin.pageKey === ctx.page.key) return undefined;
  const first = Math.min(...orphans.map((e) => e.time));
  const notRestored =
    origin.sessionId !== ctx.page.sessionId
      ? `that page was of another session ("${origin.sessionId}"), and the client's cache keeps a session's responses only`
      : origin.dev && orphans.every((e) => e.dev)
        ? 'both pages run in development mode, where the client caches no response: a restored page is requested again and gets a new responseId'
        : first - origin.time > CACHE_MS
          ? `these events came ${duration(first - origin.time)} after it, longer than the client's cache keeps a response (5 minutes)`
          : orphans.every((e) => e.event !== 'impression')
            ? "this page impressed nothing under it, while a restored page's tiles are impressed with its responseId: only a tile of a page restored from the cache and clicked within a second of appearing, before its impression, would look like this"
            : undefined;
  return notRestored === undefined ? undefined : { origin, notRestored };
}

/** Events of an earlier page load's responseId that no restored page can carry here: a stale responseId. */
function carriedOver(
  orphans: readonly TimelineEvent[],
  data: Record<string, string>,
  otherRendered: readonly string[],
  carried: CarriedOver,
) {
  const { origin, notRestored } = carried;
  return {
    messageId: 'carriedOver' as const,
    data: {
      ...data,
      others: quoted(otherRendered, 3),
      originPage: origin.pageLoadId,
      originUrl: origin.pageUrl,
      originEvent: origin.eventId,
      notRestored,
    },
    ids: orphans.map((e) => e.id),
    backfill: false,
    atExit: undefined,
  };
}

/**
 * Why a responseId the sandbox never issued cannot be a later page that infinite scroll restored beside the
 * page's rendered responses (`rendered`), when the sandbox knows. SearchController restores pages 1…N on load
 * by requesting them together, through the same client, and renders page 1's responseId only; each page's
 * tiles carry their own response's id (snap-client transforms/searchResponse.ts). So when the sandbox issued
 * every rendered response, a restored page came from it too, and its id is one it issued:
 *
 * - `onlyPage`: each rendered response is page 1 of a search the sandbox answered itself with fewer results
 *   than its page size, so its search has no later page to restore at all. It asks nothing of the cache: a
 *   restored page 2 would have to be a cached answer of the same search from before the sandbox's memory,
 *   when the catalog still held more than one page of it, shrunk since within the cache's 5 minutes.
 * - `unissued`: the sandbox issued each rendered response and remembers every response issued since before
 *   these events were received, and the client's cache (sessionStorage, 5 minutes) could not have served a
 *   restored page the sandbox issued before its memory began: those searches were made in development mode
 *   (test=true, when the client caches nothing), or the memory reaches back further than the cache keeps.
 *
 * Left as a possible backfill (undefined): no provenance (offline NDJSON or HAR), a rendered response the
 * sandbox did not issue (the page searches elsewhere, or its page 1 came from a cache older than the
 * sandbox's memory), events received before the memory is complete, and production searches whose restored
 * pages the cache could have kept from before the memory began. A page that restored its later pages from
 * the real service (pass-through) is judged as the sandbox's own: their answers are remembered alike; only
 * `onlyPage` needs the sandbox's own answer, whose results it counted itself.
 */
function notRestored(
  rendered: readonly string[],
  ctx: RuleContext,
  orphans: readonly TimelineEvent[],
): NotRestored | undefined {
  const p = ctx.provenance;
  if (!p || rendered.length === 0) return undefined;
  const issued: IssuedResponse[] = [];
  for (const id of rendered) {
    const o = p.issued(ctx.page.siteId, id);
    if (!o) return undefined;
    issued.push(o);
  }
  const since = p.rememberedSince();
  const received = orphans.map((e) => e.receivedMs);
  if (received.some((ms) => ms === null || ms < since)) return undefined;
  const onlyPage = (o: IssuedResponse) =>
    o.upstream === undefined && o.page === 1 && o.perPage > 0 && o.results.length < o.perPage;
  if (issued.every(onlyPage)) return { why: 'onlyPage' };
  if (issued.every((o) => o.test))
    return {
      why: 'unissued',
      cache:
        'those searches were made in development mode (test=true), when the client caches no response',
    };
  const earliest = Math.min(...(received as number[]));
  if (earliest - since >= CACHE_MS)
    return {
      why: 'unissued',
      cache: `the sandbox remembers every response it issued since ${duration(earliest - since)} before these events, longer than the client caches one`,
    };
  return undefined;
}

/** `issued` as a page fetched by scrolling: a later page its page load requested apart from its lower pages. */
function scrolledPage(
  issued: IssuedResponse,
  ctx: RuleContext,
): { page: number; apart: string } | undefined {
  const pageLoadId = issued.requester?.pageLoadId;
  if (pageLoadId === undefined || !ctx.provenance) return undefined;
  // without the lower pages in memory nothing says how this page was fetched
  const how = fetchedBy(issued, ctx.provenance.issuedTo(ctx.page.siteId, pageLoadId));
  return how?.how === 'scroll' ? { page: issued.page, apart: duration(how.afterMs) } : undefined;
}

/**
 * What else the page shows about the missing render: a render sent before the response arrived, or another
 * page first.
 */
function alsoSaid(
  r: Response,
  ctx: RuleContext,
  others: readonly Response[],
  /** say where else the responseId was first seen (the message says it itself when false) */
  firstSeen = true,
): string {
  let also = '';
  // a render sent before the response arrived carries an empty responseId: the likeliest cause, said
  // before the other page's note (`others`: the page's other rendered responses of this kind)
  const early = others.find((o) => o.tag === r.tag && o.responseId === '');
  const earlyId = early?.facts.renders[0]?.id;
  if (earlyId !== undefined)
    also += ` This page sent ${endpointOf(r.kind, 'render')} ${earlyId} with an empty responseId: a render sent before the response arrived, so it names no response; send the render once the response is shown, with its responseId.`;
  const origin = firstSeen ? ctx.origin(r.responseId) : undefined;
  if (origin && origin.pageKey !== ctx.page.key && origin.sessionId === ctx.page.sessionId) {
    also +=
      ` This responseId was first seen on page ${origin.pageLoadId} (${origin.eventId}) of this session: either the events of one page load ` +
      `carry a new pageLoadId each (keep one pageLoadId per page load: one Beacon per page, its ids never regenerated per event), ` +
      `or this page shows a response from the client's cache without rendering it (the provider's client renders a cached response again).`;
  }
  return also;
}
