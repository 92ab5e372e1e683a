// The fault corpus: clean shopper journeys (which must give 0 errors and 0 warnings) and fault switches
// (one plausible storefront bug each, with the rule that must name it). Recorded by `npm run corpus:record`
// into fixtures/corpus/<id>.json; judged offline by `npm run corpus` and test/unit/corpus.test.ts.
import type { TimelineRuleId } from '../../src/shared/timeline';

export interface Expectation {
  rule: TimelineRuleId;
  severity: 'error' | 'warning';
  /** the message names the cause: it must match this */
  cause: RegExp;
}

/** An order line of a clean visit and the credit it must get: the kind of the interaction, or none. */
export interface ExpectedCredit {
  uid: string;
  credit: 'search' | 'category' | 'autocomplete' | 'recommendations' | 'bundles' | null;
}

/** A class of bug (issue #22's list, the whole visit): the report prints recall and false alarms per class. */
export type JourneyClass =
  | 'spa-research'
  | 'timing'
  | 'banners'
  | 'unfinished'
  | 'visit'
  | 'rhythm'
  | 'values'
  | 'paging'
  | 'identity';

export interface CleanJourney {
  id: string;
  kind: 'clean';
  title: string;
  cls?: JourneyClass;
  /** a journey of the whole visit (product pages, cart, order): counted in the visit figures */
  visit?: boolean;
  /** clean visits: the credit each order line must get */
  credits?: ExpectedCredit[];
  /** what a rule gives up so this journey stays clean (a fault it can no longer see) */
  tradeoff?: string;
  /** the client's own traffic that still deserves a word: the info finding that must name it */
  named?: { rule: TimelineRuleId; cause: RegExp };
}

export interface FaultJourney {
  id: string;
  kind: 'fault';
  title: string;
  cls?: JourneyClass;
  /** a fault of the whole visit: counted in the visit figures */
  visit?: boolean;
  /** what the rule leaves undetected to stay silent on correct traffic */
  tradeoff?: string;
  /** where the fault comes from: the issue's list, or the Snap client's own fix that suggests it */
  source: string;
  /** observable on the wire: the finding that must name it */
  expect?: Expectation;
  /** not observable in beacon traffic: why (does not count against recall) */
  unobservable?: string;
  /** covered elsewhere, not recorded here */
  coveredBy?: string;
}

export type CorpusEntry = CleanJourney | FaultJourney;

const clean = (id: string, title: string, tradeoff?: string): CleanJourney => ({
  id,
  kind: 'clean',
  title,
  ...(tradeoff !== undefined && { tradeoff }),
});
const fault = (
  id: string,
  title: string,
  source: string,
  expect: Expectation | { unobservable: string } | { coveredBy: string },
): FaultJourney => ({
  id,
  kind: 'fault',
  title,
  source,
  ...('rule' in expect ? { expect } : expect),
});
const cleanVisit = (id: string, title: string, credits: ExpectedCredit[]): CleanJourney => ({
  ...clean(id, title),
  visit: true,
  cls: 'visit',
  credits,
});
const visitFault = (...args: Parameters<typeof fault>): FaultJourney => ({
  ...fault(...args),
  visit: true,
  cls: 'visit',
});
const inClass = <T extends CorpusEntry>(cls: JourneyClass, entry: T): T => ({ ...entry, cls });
const e = (rule: TimelineRuleId, severity: 'error' | 'warning', cause: RegExp): Expectation => ({
  rule,
  severity,
  cause,
});

export const CORPUS: readonly CorpusEntry[] = [
  clean('scroll-impressions', 'search, tiles impressed as they scroll into view'),
  clean('search-scroll-click', 'search with banners, scroll, click a tile to its product page'),
  clean(
    'infinite-scroll',
    'infinite scroll: one render per loaded page, new tiles with their own responseId',
  ),
  clean('pagination', 'SPA pagination: next page is a new search on the same page load'),
  clean('filter-change', 'a filter (Snap hash #/filter:color:Blue): a new search on the same path'),
  clean('sort-change', 'a sort change: a new search on the same path'),
  clean(
    'back-cached-spa',
    'production: next page, then back (popstate): the cached response rendered and impressed again',
  ),
  clean(
    'back-cached-pdp',
    'production: product page, then back: a new page load renders the cached responseId',
  ),
  clean('reload', 'production: reload of a search page: the cached responseId rendered again'),
  clean('spa-two-searches', 'an SPA with two searches on one pageLoadId'),
  clean('quick-add', 'quick add to cart from a tile, without a click'),
  clean('variant-add', 'quick add of a variant of an impressed result'),
  clean('redirect', 'a merchandising redirect: redirect sent, no render, the page navigates'),
  clean('banners', 'inline and slot banners impressed; a slot and an inline banner clicked'),
  clean(
    'click-right-away',
    'a click right after a tile appears (its impression never created)',
    'click-not-impressed is info when the click ends the page, so a storefront that skips only the clicked tiles’ impressions is not caught on such a click',
  ),
  clean('hidden-tab', 'a search opened in a background tab, looked at later'),
  clean('slow-network', 'a slow search API (800 ms per request)'),
  clean('two-tabs', 'two tabs in one session searching at once'),
  clean('no-results', 'a search with no results: render, no impressions'),
  clean('production-mode', 'a production build: no dev flag, no test=true'),
  clean(
    'tracking-params-revisit',
    'production: the same search again with utm_source and gclid added',
  ),
  clean('dense-grid', 'a dense grid: 24 tiles visible at once, impressed after 1 s'),
  clean(
    'category-page',
    'a category page (category.json, category/* events as on search): scroll, quick add, click a tile',
  ),
  clean(
    'autocomplete-click',
    'production: typing in the search box; the dropdown rendered and impressed, focused again (the cached response: no render), a product clicked',
  ),
  clean(
    'recommendations-widgets',
    'a product page with two recommendation widgets (render {responseId, tag} each, impressions with the tag), a recommended product clicked to its page (served by this sandbox)',
  ),
  clean(
    'autocomplete-submit',
    'typing in the search box (autocomplete/* events), then Enter: the search (search/* events) with its own responseId',
  ),

  fault(
    'stale-spa',
    'the responseId of the first search kept for the next search (SPA)',
    'issue #11',
    e('item-not-in-response', 'error', /stale responseId/),
  ),
  fault(
    'stale-multipage',
    'the responseId of the first search kept for the next search page (multi-page)',
    'issue #11 (the reported bug)',
    e('responseid-reused', 'error', /belongs to page .*search: q=jacket; this page: q=sock/),
  ),
  fault(
    'autocomplete-id',
    "the autocomplete response's responseId used for search events",
    'issue #11',
    e('responseid-cross-kind', 'error', /an autocomplete response's/),
  ),
  fault(
    'render-early-empty',
    'render fired before the response arrived (empty responseId)',
    'issue #11',
    e('missing-render', 'error', /sent no search\/render with that responseId/),
  ),
  fault(
    'render-early-previous',
    'render fired before the response arrived (the previous responseId)',
    'issue #11',
    e('missing-render', 'error', /sent no search\/render with that responseId/),
  ),
  fault(
    'render-twice',
    'render fired twice (React strict-mode double effect)',
    'issue #11',
    e('duplicate-render', 'warning', /rendered again before any impression/),
  ),
  {
    ...fault(
      'impress-all-at-load',
      'impressions for every result at load instead of the visible ones',
      'issue #11',
      e('impression-burst', 'warning', /at load, not as the shopper saw them/),
    ),
    tradeoff:
      'needs 20 tiles within 500 ms of the render, so a short page (under 20 results) impressed at load is not caught: a first screen of tiles impressed at once is correct',
  },
  fault(
    'impression-never',
    'impressions never sent',
    'issue #11; Snap b8e8c31 (inline banners never impressed)',
    e('no-impression-of-results', 'warning', /no impression of it arrived/),
  ),
  fault(
    'impress-every-scroll',
    'the same tile impressed every time it scrolls into view',
    'issue #11',
    e('duplicate-impression', 'warning', /more than one impression/),
  ),
  fault(
    'sku-as-uid',
    'the sku sent as uid',
    'issue #11',
    e('item-not-in-response', 'error', /that is the sku of result/),
  ),
  fault(
    'inline-in-banners',
    'an inline banner put in data.banners',
    'issue #11',
    e('inline-banner-in-banners', 'error', /inline banner/),
  ),
  fault(
    'slot-as-result',
    'a slot banner sent as a result',
    'issue #11',
    e('banner-not-in-response', 'error', /banner sent in data\.results/),
  ),
  fault(
    'click-results-and-banners',
    'clickthrough with both results and banners (beacon.js then sends only the banners)',
    'issue #11',
    e(
      'banner-not-in-response',
      'error',
      /a product of this response: products go in data\.results/,
    ),
  ),
  fault(
    'cart-price-string',
    'addtocart price as a string',
    'issue #11',
    e('schema', 'error', /data\.results\[0\]\.price/),
  ),
  fault(
    'cart-no-qty',
    'addtocart without qty',
    'issue #11',
    e('schema', 'error', /data\.results\[0\]\.qty/),
  ),
  fault(
    'cart-other-page-id',
    "addtocart on the product page with the search page's responseId",
    'issue #11',
    e('responseid-reused', 'error', /belongs to page/),
  ),
  fault('redirect-not-sent', 'redirect not sent (the page just navigates)', 'issue #11', {
    unobservable:
      'nothing reaches the beacon service: the response with the redirect is never named by any event',
  }),
  fault(
    'redirect-wrong-url',
    'redirect sent with a different URL',
    'issue #11',
    e('redirect-mismatch', 'error', /redirect/),
  ),
  fault(
    'events-after-redirect',
    'render and impressions sent after the redirect',
    'issue #11',
    e('after-redirect', 'warning', /timestamped after it/),
  ),
  fault(
    'session-per-event',
    'sessionId regenerated per event (cookies blocked)',
    'issue #11',
    e('context-drift', 'error', /sessionId/),
  ),
  fault(
    'pageloadid-per-event',
    'pageLoadId regenerated per event',
    'issue #11',
    e('missing-render', 'error', /pageLoadId/),
  ),
  fault(
    'timestamp-no-offset',
    'timestamps without an offset',
    'issue #11',
    e('schema', 'error', /context\.timestamp format/),
  ),
  fault(
    'timestamp-epoch',
    'timestamps as epoch numbers',
    'issue #11',
    e('schema', 'error', /context\.timestamp/),
  ),
  fault(
    'timestamp-local-clock',
    'local wall-clock time labelled as UTC (wrong clock)',
    'issue #11',
    e('timestamp-skew', 'warning', /away from the time/),
  ),
  fault(
    'dev-without-flag',
    'a development build (search with test=true) whose beacons lack dev: true',
    'issue #11',
    e('test-without-dev', 'warning', /test=true/),
  ),
  fault(
    'search-without-test',
    'development beacons (dev: true) for searches without test=true',
    'issue #11',
    e('response-without-test', 'warning', /without test=true/),
  ),
  fault(
    'json-content-type',
    'beacons sent as application/json from the browser (CORS preflight)',
    'issue #11',
    e('request-refused', 'error', /CORS preflight \(OPTIONS/),
  ),
  fault(
    'infinite-page1-id',
    "infinite-scroll results reported with page 1's responseId",
    'issue #11; Snap 25c13f2',
    e('item-not-in-response', 'error', /later response/),
  ),
  fault(
    'infinite-reset-impressions',
    'infinite scroll resets the impression map: page-1 tiles impressed again',
    'Snap 6a63aa5 (#1279)',
    e('duplicate-impression', 'warning', /more than one impression/),
  ),
  fault(
    'cached-no-render',
    'no render for a response served from the cache (back button)',
    'Snap cca9a83 (#1331), reverted by 348ff75',
    e('missing-render', 'error', /sent no search\/render/),
  ),
  fault(
    'unknown-responseid',
    'a responseId the storefront made up',
    'Snap 3e911f3/e0a28aa (#204): events for an unknown responseId',
    e('responseid-unknown', 'error', /was not issued/),
  ),
  fault(
    'render-after-impressions',
    'render sent late, after the impressions',
    'issue #11 (event order)',
    e('order', 'error', /timestamped before its render/),
  ),
  fault(
    'rec-wrong-tag',
    "a product page's second widget impressed with the first widget's tag",
    'issue #16 (several widgets on one page)',
    e(
      'missing-render',
      'error',
      /carries tag "similar" with responseId "[^"]+", but that responseId is the "more-like-this" widget's/,
    ),
  ),
  fault(
    'rec-tile-not-served',
    'a widget padded with a tile its response never served (the page’s own product)',
    'issue #46',
    e(
      'item-not-in-response',
      'error',
      /not in that response \(recommendations widget "more-like-this"\)/,
    ),
  ),
  fault(
    'category-no-render',
    'a category page that sends impressions, a cart and a click but no render',
    'issue #16 (category pages run the search controller)',
    e('missing-render', 'error', /sent no category\/render with that responseId/),
  ),
  fault(
    'ac-render-twice',
    'autocomplete renders again when the same response is shown again (focus, cached)',
    'Snap ad0d632 (#232)',
    e('duplicate-render', 'warning', /rendered again while it was the autocomplete response shown/),
  ),
  fault('shadow-dom-click', 'clicks inside shadow DOM never tracked', 'Snap ec59ec0 (#1445)', {
    unobservable:
      'no clickthrough is sent at all; nothing on the wire tells a missed click from no click',
  }),
  // the whole visit (test/corpus/visit-journeys.ts: the provider's beacon library in Node)
  cleanVisit(
    'visit-search-order',
    'search → click → product page of a variant → cart → thank-you page (cart emptied, order)',
    [{ uid: '1030', credit: 'search' }],
  ),
  cleanVisit(
    'visit-quick-add-variant',
    'quick add of a tile, then the cart page adds the variant and removes the parent',
    [{ uid: '1030', credit: 'search' }],
  ),
  cleanVisit('visit-login-discount', 'a login mid-visit, then an order with a 10% discount', [
    { uid: '1030', credit: 'search' },
  ]),
  cleanVisit(
    'visit-recommendation-order',
    'a recommendation clicked on a product page, then bought',
    [{ uid: '3003', credit: 'recommendations' }],
  ),
  cleanVisit('visit-cart-change', 'the quantity raised, then lowered again, then ordered', [
    { uid: '1030', credit: 'search' },
  ]),
  visitFault(
    'order-no-id',
    'a thank-you page that never sets order.id',
    'issue #21 (orderId "")',
    e('order-id-missing', 'error', /has orderId ""/),
  ),
  {
    ...clean(
      'order-reload',
      'the thank-you page reloaded within 10 s: the order sent again on the same page (the client does, and it counts twice)',
    ),
    visit: true,
    cls: 'visit',
    named: { rule: 'order-reloaded', cause: /on the same pageLoadId/ },
  },
  {
    ...clean(
      'order-revisit',
      'the thank-you page opened again later: the order sent from a new page (the client does, and it counts twice)',
    ),
    visit: true,
    cls: 'visit',
    named: { rule: 'order-reloaded', cause: /on a new page load/ },
  },
  visitFault(
    'order-total-cents',
    'order totals in cents, line prices in units',
    'issue #21 (a total in cents)',
    e('order-totals', 'error', /in cents against prices in units/),
  ),
  visitFault(
    'order-total-missing',
    'order totals never set (sent as 0)',
    'issue #21 (transactionTotal: 0)',
    e('order-totals', 'error', /transactionTotal is 0 while its lines add up/),
  ),
  visitFault(
    'checkout-new-user',
    'a checkout tracker given the sessionId but not the userId',
    'issue #21 (identity changing inside the visit)',
    e('visit-user-changed', 'warning', /carries userId .* but the visit began with userId/),
  ),
  visitFault(
    'thankyou-production',
    'a thank-you page tracking in production mode inside a development visit',
    'issue #21 (the dev flag differing inside a visit)',
    e(
      'visit-dev-mixed',
      'error',
      /lacks? context\.dev: true, but the visit began in development mode/,
    ),
  ),
  visitFault(
    'cart-stale',
    'cart/add sent before the cart state updated: its cart lacks the added item',
    'issue #21 (a cart event whose cart contradicts its results)',
    e('cart-inconsistent', 'warning', /adds 2 of "SOCK" but its cart holds none/),
  ),
  visitFault(
    'order-unknown-ids',
    'order lines with ids the indexed catalog does not know',
    'issue #21 (ids the catalog does not know)',
    {
      coveredBy:
        'test/unit/visits.test.ts and test/api/visits.test.ts (the corpus records on a site without catalog checks)',
    },
  ),
  // the classes the checks missed (issue #41), test/corpus/visit-journeys.ts
  inClass(
    'rhythm',
    fault(
      'click-sent-twice',
      'each click sent twice (a handler on the tile and one on its link), 0 ms apart',
      'issue #41 (interactions the real client never repeats)',
      e('click-repeated', 'warning', /sent twice on responseId "rhythm-r1"/),
    ),
  ),
  inClass(
    'rhythm',
    clean('click-again-later', 'the same tile clicked again 1.2 s later (the shopper came back)'),
  ),
  inClass(
    'identity',
    clean(
      'checkout-passed-ids',
      'a checkout on another domain given both the userId and the sessionId',
    ),
  ),
  inClass(
    'identity',
    fault(
      'checkout-empty-user',
      'a checkout that passes its own identity and has none: an empty userId',
      'issue #41 (identity that does not hold across a visit)',
      e('identity-missing', 'error', /empty context\.userId/),
    ),
  ),
  inClass(
    'values',
    clean(
      'order-sale-and-gift',
      'an order with the jacket 20% off at checkout, a free gift (price 0) and vat as a rate (0.2)',
    ),
  ),
  inClass(
    'values',
    fault(
      'order-vat-percent',
      'an order sent with vat 20 (a percentage) by a direct beacon call',
      'issue #41 (vat as percent instead of a rate)',
      e('vat-as-percent', 'warning', /has vat 20/),
    ),
  ),
  inClass(
    'values',
    fault(
      'order-qty-zero',
      'an order line of 0 units',
      'issue #41 (impossible quantities)',
      e('line-values-impossible', 'error', /qty 0/),
    ),
  ),
  inClass(
    'values',
    fault(
      'order-line-cents',
      'order line prices in cents, the cart’s in units',
      'issue #41 (prices disagreeing across cart and order)',
      e('price-unit-mismatch', 'error', /at 8000 where/),
    ),
  ),
  inClass(
    'paging',
    clean(
      'paged-click-own-id',
      'two pages of a list, page 2’s tile clicked with page 2’s responseId',
    ),
  ),
  inClass(
    'paging',
    fault(
      'paged-click-first-id',
      'page 2’s tile clicked with page 1’s responseId',
      'issue #41 (clicks carrying page 1’s responseId for page 2’s tiles; Snap 25c13f2)',
      e('click-under-other-response', 'warning', /impressed with responseId "paging-r4"/),
    ),
  ),
  // whole pages (issue #22), test/corpus/visit-journeys.ts: the provider's beacon library in Node, companion search
  inClass(
    'spa-research',
    clean('spa-research-done-right', 'an SPA re-search with a new responseId and its own render'),
  ),
  inClass(
    'spa-research',
    clean(
      'spa-back-to-cached',
      'an SPA re-search, then back to the first query: its cached response rendered again',
    ),
  ),
  inClass(
    'spa-research',
    fault(
      'spa-research-stale-id',
      'an SPA re-search whose render, impressions and click keep the first response’s id',
      'issue #22 (SPA re-search, the first responseId kept)',
      e(
        'responseid-stale',
        'error',
        /the response for "jacket" .* sent while the page showed "boot"/,
      ),
    ),
  ),
  inClass(
    'spa-research',
    fault(
      'spa-research-stale-render',
      'an SPA re-search rendered with the previous responseId, the new one only impressed and clicked',
      'issue #22 (a stale render after a new response)',
      e(
        'missing-render',
        'error',
        /for another query, but these events were sent while the page showed "boot"/,
      ),
    ),
  ),
  inClass(
    'timing',
    clean(
      'click-within-timer',
      'a tile clicked within 1 s of appearing on an SPA page: its impression follows the click',
    ),
  ),
  inClass(
    'banners',
    clean('banner-impressed-then-clicked', 'a header banner impressed, clicked 2 s later'),
  ),
  inClass(
    'timing',
    fault(
      'impression-after-click',
      'a tile impressed only after it was clicked (2.5 s later)',
      'issue #22 (a click timestamped before its impression)',
      e('click-not-impressed', 'warning', /timestamped more than 1\.0 s after the click/),
    ),
  ),
  inClass(
    'timing',
    fault(
      'impression-before-render',
      'impressions sent 100 ms before the render (under the 1 s tolerance)',
      'issue #22 (gaps under the tolerance)',
      e('order', 'error', /also arrived before the render/),
    ),
  ),
  inClass(
    'banners',
    fault(
      'banner-click-unimpressed',
      'a header banner clicked after 2 s, never impressed',
      'issue #22 (a banner clicked but never impressed)',
      e('click-not-impressed', 'warning', /never reported in an impression/),
    ),
  ),
  inClass(
    'unfinished',
    fault(
      'rendered-never-impressed',
      'results rendered and never impressed (the report judges the page as finished)',
      'issue #22 (pages rendered and never impressed pass the report)',
      e('no-impression-of-results', 'warning', /no impression/i),
    ),
  ),
];
