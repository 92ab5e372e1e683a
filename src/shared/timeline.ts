// Timeline DTOs (admin API, SSE `timeline` messages, reports, `search-sandbox check --format json`) and the
// rule catalogue shown by the UI and docs. Stable: the UI and users' scripts read these shapes.
import type { ResponseKind } from './kinds';
import type { VisitEventDto, VisitPageKind } from './visits';

export type Verdict = 'pass' | 'warn' | 'fail';
export type Severity = 'error' | 'warning' | 'info';

export const TIMELINE_RULE_IDS = [
  'schema',
  'request-refused',
  'missing-render',
  'order',
  'after-redirect',
  'duplicate-render',
  'duplicate-impression',
  'click-not-impressed',
  'cart-not-impressed',
  'responseid-reused',
  'responseid-cross-kind',
  'responseid-stale',
  'context-drift',
  'timestamp-skew',
  'dev-flag',
  'no-impression',
  'responseid-unknown',
  'item-not-in-response',
  'banner-not-in-response',
  'inline-banner-in-banners',
  'redirect-mismatch',
  'parentid-mismatch',
  'item-not-in-catalog',
  'response-without-test',
  'test-without-dev',
  'impression-burst',
  'upstream-disagrees',
  // the whole visit (src/main/tracking/visits): product pages, cart, orders, identity
  'order-id-missing',
  'order-duplicate',
  'order-totals',
  'cart-inconsistent',
  'visit-user-changed',
  'visit-dev-mixed',
] as const;
export type TimelineRuleId = (typeof TIMELINE_RULE_IDS)[number];

/** One recorded search event as it sits on a page timeline. */
export interface TimelineEventDto {
  /** the recorded event's id (`ev_…`), or `line:N` / `entry:N` for offline input */
  id: string;
  /** arrival order across the sandbox (or the input) */
  seq: number;
  /** arrival order on this page, 1-based */
  arrival: number;
  /** `render` | `redirect` | `impression` | `clickthrough` | `addtocart` */
  event: string;
  /** the beacon v2 category it was sent to (`search`, `category`, `autocomplete`, `recommendations`, `bundles`) */
  kind: ResponseKind;
  /** `data.tag` (the recommendation profile) of recommendations and bundles events */
  tag?: string;
  accepted: boolean;
  status: number;
  /** sandbox receive time (ISO 8601); null when the input had none (NDJSON of bare bodies) */
  receivedAt: string | null;
  /** `context.timestamp` exactly as sent; null when absent */
  timestamp: string | null;
  /** true when an event that arrived earlier on this page carries a later timestamp (the client sent it late) */
  arrivedLate: boolean;
  responseId: string;
  /** `data.results[].uid` (impression, clickthrough, addtocart) */
  uids: string[];
  /** `data.banners[].uid` */
  bannerUids: string[];
  /** `data.redirect` of a redirect event */
  redirect?: string;
  sessionId: string;
  userId: string;
  pageUrl: string;
  /** validation messages of a rejected event */
  errors: string[];
}

export interface TimelineResponseDto {
  /** '' groups events that carried no readable responseId */
  responseId: string;
  /** what the response is: a page's responses are keyed by kind + responseId (+ tag) */
  kind: ResponseKind;
  /** the widget's profile tag (recommendations and bundles) */
  tag?: string;
  /** ordered by `context.timestamp`, ties by arrival */
  events: TimelineEventDto[];
}

export interface TimelineFindingDto {
  /** stable within a page, e.g. `missing-render:a907…` */
  id: string;
  rule: TimelineRuleId;
  severity: Severity;
  /** what happened (ids, uids), what the spec expects, how to fix it */
  message: string;
  /** the events involved (at most 50; see eventCount) */
  eventIds: string[];
  /** how many events are involved in all */
  eventCount: number;
  /** the search response the finding is about, when it is about one */
  responseId?: string;
  /** the kind (and tag) of that response */
  kind?: ResponseKind;
  tag?: string;
  /** the rule's own severity, when the user's `rules` set another (CONTRACT.md "Strictness") */
  defaultSeverity?: Severity;
  /** where the effective severity was set: `rules in ./search-sandbox.config.json`, `expectClean({rules})`, `--rule` */
  severityFrom?: string;
}

export interface TimelineCounts {
  events: number;
  accepted: number;
  rejected: number;
  responses: number;
  errors: number;
  warnings: number;
  infos: number;
}

/** What both views of a page say about it: the full page and its list summary. */
export interface PageTimelineHeaderDto {
  siteId: string;
  /** what the page is in its visit: the kind of its weightiest event (CONTRACT.md, "The whole visit") */
  pageKind: VisitPageKind;
  /** the page's first sessionId (a change is a `context-drift` finding) */
  sessionId: string;
  userId: string;
  /** '' collects rejected events that carried no readable pageLoadId */
  pageLoadId: string;
  /** pageUrl of the page's first event */
  pageUrl: string;
  verdict: Verdict;
  /** earliest and latest receive time (ISO 8601), null for offline input without receive times */
  firstSeen: string | null;
  lastSeen: string | null;
  counts: TimelineCounts;
}

/** A page (one `context.pageLoadId` of one site) with its events and findings. */
export interface PageTimelineDto extends PageTimelineHeaderDto {
  /**
   * The page was still pending (waiting for impressions) and was judged as if it has ended: reports,
   * expectClean and check do so (CONTRACT.md "Strictness"); the live timeline may show it pending.
   */
  judgedAsFinished?: true;
  responses: TimelineResponseDto[];
  /** the page's product, cart, order and login events in timestamp order (absent when it has none) */
  visitEvents?: VisitEventDto[];
  findings: TimelineFindingDto[];
}

/** What lists and the SSE `timeline` message carry: a page without its events. */
export interface PageTimelineSummaryDto extends PageTimelineHeaderDto {
  /** responseIds on the page, in order of first appearance */
  responseIds: string[];
  /** the kinds of response on the page, in order of first appearance */
  kinds: ResponseKind[];
  /** rule ids with at least one finding on the page */
  rules: TimelineRuleId[];
}

/** A page as `GET /_sandbox/timelines?view=keys` lists it: which page, nothing of what it holds. */
export interface PageKeyDto {
  siteId: string;
  pageLoadId: string;
}

/**
 * `GET /_sandbox/timelines`: its pages are full pages, or with `view=summary` summaries, or with
 * `view=keys` only which pages they are.
 */
export interface TimelineListDto<P = PageTimelineDto> {
  /** oldest first (by first receive time); `limit` keeps the newest */
  pages: P[];
  /** pages matching the filters before `limit` */
  total: number;
  verdicts: Record<Verdict, number>;
}

/** `GET /_sandbox/report?format=json` and `search-sandbox check --format json` */
export interface TimelineReportDto {
  generatedAt: string;
  /** where the events came from: `sandbox` or the input file names */
  source: string;
  verdicts: Record<Verdict, number>;
  pages: PageTimelineDto[];
}

export interface TimelineRuleInfo {
  id: TimelineRuleId;
  severity: Severity;
  title: string;
  /** what the rule catches */
  catches: string;
  /** what the beacon v2 spec (or the provider's client) expects */
  expects: string;
  fix: string;
}

/** The catalogue: one entry per rule, in the order the UI and docs list them. */
export const TIMELINE_RULES: Record<TimelineRuleId, TimelineRuleInfo> = {
  schema: {
    id: 'schema',
    severity: 'error',
    title: 'Rejected by validation',
    catches:
      'An event whose body the real service answers with 400 ValidationError: the event is lost. (Requests refused before their body is read are request-refused.)',
    expects:
      'Every body matches the beacon v2 schema of its endpoint (context and data, no unknown fields).',
    fix: 'Fix the fields named in the messages; the provider’s client (@athoscommerce/beacon) builds valid bodies.',
  },
  'request-refused': {
    id: 'request-refused',
    severity: 'error',
    title: 'Request refused',
    catches:
      'A request the real service refuses before it reads the body: a path that is not a beacon v2 endpoint or a bad siteId (404), a method other than POST (405; OPTIONS is a browser’s CORS preflight), a body over 1 MB (413), a Content-Type other than text/plain or application/json (415).',
    expects:
      'POST /beacon/v2/{siteId}/{category}/{event}, Content-Type text/plain, a JSON body under 1 MB.',
    fix: 'The message names what was wrong and how to send it; the provider’s client (@athoscommerce/beacon) sends every beacon this way.',
  },
  'missing-render': {
    id: 'missing-render',
    severity: 'error',
    title: 'Events without a render',
    catches:
      'Impressions, clickthroughs or addtocarts for a responseId that was never rendered on the page (info only when the page rendered other responses, as infinite-scroll backfill does).',
    expects: 'search/render with the responseId as soon as the results of that response are shown.',
    fix: 'Send search/render with data.responseId = the search response’s responseId when the results are displayed.',
  },
  order: {
    id: 'order',
    severity: 'error',
    title: 'Event before its render',
    catches:
      'An impression, clickthrough or addtocart timestamped before the render of its responseId (beyond the tolerance).',
    expects: 'render → redirect → impression → clickthrough | addtocart, by context.timestamp.',
    fix: 'Call render when results are displayed, before tracking impressions or clicks on them.',
  },
  'after-redirect': {
    id: 'after-redirect',
    severity: 'warning',
    title: 'Events after a redirect',
    catches:
      'Render, impression, clickthrough or addtocart of a responseId timestamped after its redirect.',
    expects:
      'A redirect ends the results page: the shopper is sent to the redirect URL and nothing else is tracked for that response.',
    fix: 'When the search response carries merchandising.redirect, send search/redirect and navigate; do not render or track its results.',
  },
  'duplicate-render': {
    id: 'duplicate-render',
    severity: 'warning',
    title: 'Render sent twice',
    catches:
      'A second render of the same responseId on the page before any impression of it (a re-visit of a cached response, after impressions, is fine).',
    expects: 'One render per displayed search response.',
    fix: 'Track render once per response (not on every component re-render).',
  },
  'duplicate-impression': {
    id: 'duplicate-impression',
    severity: 'warning',
    title: 'Item impressed twice',
    catches:
      'The same uid reported in more than one impression of one responseId while it stayed on screen.',
    expects: 'Send items as they scroll into view, once per response.',
    fix: 'Remember which uids of a response were already impressed and skip them.',
  },
  'click-not-impressed': {
    id: 'click-not-impressed',
    severity: 'warning',
    title: 'Click on an item never impressed',
    catches:
      'A clickthrough of a uid that no impression of that responseId reported (a click that navigates away can also lose an impression the client still held: the message says when the click ended the page).',
    expects: 'An impression when the tile scrolls into view, before the shopper can click it.',
    fix: 'Send search/impression for each tile when it becomes visible (IntersectionObserver), with the same uid the click uses.',
  },
  'cart-not-impressed': {
    id: 'cart-not-impressed',
    severity: 'warning',
    title: 'Add-to-cart of an item never impressed',
    catches:
      'A quick-add addtocart of a uid (or parentId) that no impression of that responseId reported.',
    expects: 'Quick add happens on a visible tile, which was impressed first.',
    fix: 'Impress tiles when they become visible; send the same uid (or its parentId) in addtocart.',
  },
  'responseid-reused': {
    id: 'responseid-reused',
    severity: 'error',
    title: 'responseId from another page',
    catches:
      'A responseId first seen on another page load with a different path or session: a stale id reused.',
    expects: 'Every event on a page reuses the responseId of that page’s own search response.',
    fix: 'Take data.responseId from the search response shown on this page; never store and resend it elsewhere.',
  },
  'responseid-cross-kind': {
    id: 'responseid-cross-kind',
    severity: 'error',
    title: 'responseId of another kind',
    catches:
      'A responseId used by events of two kinds (an autocomplete responseId on search events, a recommendations responseId on category events), or one the companion issued for another endpoint. A category page’s redirect on search/redirect is not one.',
    expects:
      'Each controller sends the responseId of its own response: autocomplete events the autocomplete response’s, search events the search response’s, each widget its recommend response’s.',
    fix: 'Take data.responseId from the response of the same controller (the one whose results the event is about).',
  },
  'responseid-stale': {
    id: 'responseid-stale',
    severity: 'error',
    title: 'Previous search’s responseId after a new search',
    catches:
      'A single-page storefront searched again on the same page load (the page URL’s query changed) but its render, impressions or clicks still carry the previous search’s responseId. Silent where the URL carries no query, for autocomplete and widgets, and for a cached response rendered again under its own query.',
    expects:
      'Every event of a search carries the responseId of the response whose results are on screen.',
    fix: 'Take the responseId from the latest search response and send render with it after every search.',
  },
  'context-drift': {
    id: 'context-drift',
    severity: 'error',
    title: 'sessionId or userId changed inside a page',
    catches: 'Events of one pageLoadId with different context.sessionId or context.userId.',
    expects: 'One page load has one shopper: the same userId and sessionId on all its events.',
    fix: 'Create one Beacon per page load and let it manage ids; do not pass your own per call.',
  },
  'timestamp-skew': {
    id: 'timestamp-skew',
    severity: 'warning',
    title: 'Timestamp wrong or far from receive time',
    catches:
      'context.timestamp that is not RFC 3339, or further from the receive time than the configured skew.',
    expects: 'context.timestamp = the time of the event, RFC 3339 (e.g. new Date().toISOString()).',
    fix: 'Set the timestamp when the event happens, from the browser clock, with new Date().toISOString().',
  },
  'dev-flag': {
    id: 'dev-flag',
    severity: 'info',
    title: 'Production-mode traffic',
    catches: 'Events without context.dev: true (the client ran in production mode).',
    expects:
      'Development storefronts send dev: true so the real service keeps them out of reports.',
    fix: "Create the client with { mode: 'development' } while developing; leave it off in production.",
  },
  'no-impression': {
    id: 'no-impression',
    severity: 'info',
    title: 'Render without any impression',
    catches:
      'A rendered responseId (not redirected) with no impression once the page has been idle for timelines.noImpressionIdleMs; a warning when the sandbox issued that response and it had results or banners.',
    expects:
      'Impressions of the tiles on screen after a render (a search with zero results legitimately sends none).',
    fix: 'Send search/impression for tiles as they scroll into view.',
  },
  'responseid-unknown': {
    id: 'responseid-unknown',
    severity: 'error',
    title: 'responseId not issued by the sandbox',
    catches:
      'For a site configured with search.companion: true, events carrying a responseId that the companion search API never issued.',
    expects: 'Every event carries data.responseId exactly as the search response returned it.',
    fix: 'Point the search client at the sandbox (Snap client origin) and send the responseId of the response shown.',
  },
  'item-not-in-response': {
    id: 'item-not-in-response',
    severity: 'error',
    title: 'Item not in its search response',
    catches:
      'An impression, clickthrough or addtocart reporting a product uid that the response it names did not return (nor a variant of one); a stale responseId after a new search shows up here.',
    expects:
      'Items are results (or variants of results) of the response whose responseId the event carries.',
    fix: 'Take uid from the result as returned and the responseId from the same response.',
  },
  'banner-not-in-response': {
    id: 'banner-not-in-response',
    severity: 'error',
    title: 'Banner not in its search response',
    catches:
      'A banner uid in data.banners (or a {type: "banner"} result) that the response did not return there.',
    expects:
      'data.banners holds the merchandising banners (header, banner, footer, left) of the response; inline banners are results.',
    fix: 'Read the uid from the banner’s data-banner-id and report it in the array of its kind.',
  },
  'inline-banner-in-banners': {
    id: 'inline-banner-in-banners',
    severity: 'error',
    title: 'Inline banner reported in banners',
    catches:
      'An inline banner (merchandising.content.inline) reported in data.banners instead of data.results.',
    expects: 'Inline banners sit among the results: data.results with {type: "banner", uid}.',
    fix: 'Move inline banners to data.results with type "banner".',
  },
  'redirect-mismatch': {
    id: 'redirect-mismatch',
    severity: 'error',
    title: 'Redirect differs from the response',
    catches:
      'A redirect event whose data.redirect is not the merchandising.redirect of its response (or the response had none).',
    expects: 'data.redirect is the URL the search response redirected to.',
    fix: 'Send merchandising.redirect exactly as returned, and only when there is one.',
  },
  'parentid-mismatch': {
    id: 'parentid-mismatch',
    severity: 'error',
    title: 'parentId does not match the result',
    catches:
      'A product whose parentId is another product of the response (error), or an empty, swapped or variant-own parentId (warning). parentId = uid = the result’s uid, as the Snap client sends it, is fine.',
    expects: 'parentId is the uid of the result the item belongs to.',
    fix: 'Set parentId to the uid of the result as returned.',
  },
  'item-not-in-catalog': {
    id: 'item-not-in-catalog',
    severity: 'warning',
    title: 'Item not in the indexed catalog',
    catches:
      'For a site with an indexed catalog that does not use the companion search API, a uid or parentId the catalog does not hold.',
    expects: 'uid and parentId are ids of the site’s products (its feed).',
    fix: 'Send product ids as the feed has them; re-index if the products are new (search.catalogCheck: false turns it off).',
  },
  'response-without-test': {
    id: 'response-without-test',
    severity: 'warning',
    title: 'Development search without test=true',
    catches:
      'Development beacons (context.dev: true) whose search response was requested without test=true.',
    expects: 'Development searches carry test=true so they stay out of the site’s reports.',
    fix: "Create the search client with { mode: 'development' } (it adds test=true).",
  },
  'test-without-dev': {
    id: 'test-without-dev',
    severity: 'warning',
    title: 'Development search, production beacons',
    catches:
      'A search response requested with test=true (a development build) whose beacons lack context.dev: true.',
    expects:
      'One mode drives both: development builds send test=true on searches and dev: true on beacons.',
    fix: "Create the beacon client with { mode: 'development' } too, or the search client without it in production.",
  },
  'impression-burst': {
    id: 'impression-burst',
    severity: 'warning',
    title: 'Every tile impressed at once',
    catches:
      'At least 20 tiles of one response impressed within 500 ms of its render: tiles impressed at load, not as they become visible.',
    expects:
      'An impression when a tile has been visible (the provider’s client: 70% of it for 1 s), as it scrolls into view.',
    fix: 'Observe each tile (IntersectionObserver) and send its impression once it has been visible.',
  },
  'upstream-disagrees': {
    id: 'upstream-disagrees',
    severity: 'error',
    title: 'The real service disagrees',
    catches:
      'With tracking.forward on, a forwarded event that one side accepted and the other rejected (the real service’s 2xx against the sandbox’s 4xx, or the other way round). 408, 429, 5xx and unanswered requests are not verdicts and never compared.',
    expects: 'The sandbox judges every event exactly as the real service does.',
    fix: 'A gap in the sandbox’s fidelity, not in your storefront: copy the finding (both answers and the request) into a bug report for the sandbox. Until it is fixed, trust the real service’s verdict.',
  },
  'order-id-missing': {
    id: 'order-id-missing',
    severity: 'error',
    title: 'Order without an id',
    catches:
      'An order/transaction whose orderId is empty (the provider’s client sends String(order.id || ""), so a thank-you page that never set order.id sends "").',
    expects: 'data.orderId is the merchant’s order number, unique per order.',
    fix: 'Set order.id in the thank-you page’s athos/track/order/transaction script (or orderId in a direct beacon call) to the order number.',
  },
  'order-duplicate': {
    id: 'order-duplicate',
    severity: 'error',
    title: 'The same order counted twice',
    catches:
      'An order/transaction whose orderId the site already received: a reload of the thank-you page (same pageLoadId within 10 s, or a new page later) or a re-render sends the order again, and revenue is counted twice.',
    expects: 'One order/transaction per order.',
    fix: 'Render the order script only on the first view of the thank-you page (mark the order as tracked, server-side or in sessionStorage), and never send it from a component that re-renders.',
  },
  'order-totals': {
    id: 'order-totals',
    severity: 'error',
    title: 'Order totals missing or wrong',
    catches:
      'An order with priced lines whose transactionTotal or total is 0 or missing (the client sends a missing total as 0), or off from the lines by a factor of about 100 (cents against units). A discount, tax or shipping difference is not a finding: only gross mismatches are certain bugs.',
    expects:
      'transactionTotal is the amount before discounts, taxes and shipping, total after them, both in the currency unit the prices use.',
    fix: 'Pass order.transactionTotal and order.total as numbers in the same unit as the line prices (12.5, not 1250).',
  },
  'cart-inconsistent': {
    id: 'cart-inconsistent',
    severity: 'warning',
    title: 'Cart event contradicts itself',
    catches:
      'A cart/add whose results are missing from (or larger than) its own cart, or a cart/remove whose removed item is still in the cart in the same or a larger quantity than the cart before it held. Quick adds, variants replacing their parent and an emptied cart before the order are normal.',
    expects:
      'results holds what changed (the added or removed quantity), cart the whole cart after the change.',
    fix: 'Send cart/add and cart/remove from the cart’s state after the change (the provider’s client does this from the page’s cart globals), with results = the difference only.',
  },
  'visit-user-changed': {
    id: 'visit-user-changed',
    severity: 'warning',
    title: 'Shopper identity changed inside the visit',
    catches:
      'A page of a visit (one sessionId) carrying another userId than the visit’s first page: the order is no longer linked to the clicks that earned the search its credit, and personalization starts over. A login is not a finding (it sets shopperId, the userId stays).',
    expects:
      'One userId for the whole visit (18 months, in a cookie and localStorage of the storefront’s domain).',
    fix: 'Keep the tracker’s userId across pages (a checkout on another domain must be given the userId and sessionId); never create a new Beacon identity per page.',
  },
  'visit-dev-mixed': {
    id: 'visit-dev-mixed',
    severity: 'error',
    title: 'Development and production traffic in one visit',
    catches:
      'A visit whose pages disagree on context.dev: some of its events (an order, say) count in production reports while the rest are kept out as development traffic.',
    expects:
      'Every page of a storefront built for development sends dev: true, every page of a live one none.',
    fix: 'Create the tracker with the same mode on every page (the thank-you page and checkout included).',
  },
};

/** A rule's level in the user's `rules` config (ESLint style, CONTRACT.md "Strictness"); `off` removes it. */
export const RULE_LEVELS = ['off', 'info', 'warning', 'error'] as const;
export type RuleLevel = (typeof RULE_LEVELS)[number];
/** `{"no-impression": "off", "timestamp-skew": "info"}`: rule id → level. */
export type RulesConfig = Partial<Record<string, RuleLevel>>;
