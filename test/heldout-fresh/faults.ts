// The fresh held-out set's faults: each is one flag of a clean journey (its twin) that turns the client's
// traffic into traffic it could never send, the way a storefront integration goes wrong when it wires the
// client by hand or around it (custom tiles, hand-called beacons, an SPA router, server-side rendering, a
// CDN or service worker answering searches, a headless checkout, a tag manager, a wrong field mapping,
// storage kept or cleared by other code). Each names the sentence of the client facts, or the client source,
// that its traffic contradicts.
import type { PagedFault } from '../helpers/heldout-set';
import type { Principle } from './principles';

export type Fault = PagedFault<Principle>;

function fault(
  id: string,
  principle: Principle,
  page: Fault['page'],
  twin: string,
  description: string,
  contradicts: string,
): Fault {
  return { id, principle, page, twin, flag: id, description, contradicts };
}

const RENDER_ALWAYS =
  'Search render: sent in search() (SC) right after the store is updated, with only {responseId}, after every completed search';
const ONCE_PER_UID =
  'Impressions: a tile or banner is impressed when 70% of it is visible for 1 s, once per uid per responseId; re-entering the viewport sends nothing';
const OWN_RESPONSE =
  "Infinite scroll: each result keeps the responseId of the response that delivered it (snap-client transforms/searchResponse.ts); page N's tiles are impressed with page N's responseId";
const ONE_ITEM =
  "Clickthrough: exactly one item: product results:[{type:'product', uid, parentId, sku}]; inline banner results:[{type:'banner', uid}]; slot banner {responseId, banners:[{uid}]} with no results key";
const AC_ONLY =
  "Autocomplete: ACC sends only autocomplete/* events, each with the autocomplete response's own responseId; no code path sends an autocomplete responseId on search/*";
const WIDGET =
  'Recommendations: one controller per widget (profile tag); one render {responseId, tag}; impressions, clickthroughs and addtocarts carry tag and the responseId of the result’s response';
const ONE_MODE =
  'dev and test: one mode drives both (Snap.tsx); in development mode beacons carry context.dev: true and the search client adds test=true to search, autocomplete and category requests; in production neither';
const CART_DIFF =
  'Cart (T constructor): new items or higher quantities → one cart/add with results = only the difference (qty = the increase) and cart = the whole current cart';
const SESSION =
  'Identity: userId lives 18 months, sessionId 30 minutes of inactivity (rolling), both in cookies and localStorage of the storefront’s domain';

export const FAULTS: readonly Fault[] = [
  // search render and cache
  fault(
    'render-dropped',
    'render',
    'search',
    'serp-browse',
    'a custom results template never calls the render: tiles impressed and clicked, the response never rendered',
    RENDER_ALWAYS,
  ),
  fault(
    'ssr-foreign-user',
    'render',
    'search',
    'serp-browse',
    "server-side rendering: the search was fetched by the server with its own userId and sessionId, the browser renders it as the shopper's",
    'Search render: cache key = path + request params (query, …, siteId, userId, sessionId, …); the controllers render only responses fetched (or cached) for the same userId and sessionId',
  ),
  fault(
    'stale-cache',
    'render',
    'search',
    'serp-filter-back',
    'a service worker keeps search answers: back to the first results after 6 minutes renders the response issued then',
    'Search render: the cache lives 5 minutes in sessionStorage (snap-client NetworkCache.ts); after that the search goes to the network and gets a new responseId',
  ),
  fault(
    'category-on-search',
    'render',
    'category',
    'category-sort',
    "a category grid wired to the search tracker: category responses' render, impressions, add and click go to search/*",
    'Category pages run the same controller with page type category: render, impression, clickthrough and addtocart go to category/* (SC: this.tracker.events[this.page.type])',
  ),

  // pageLoadId and pageUrl
  fault(
    'spa-pageload-reset',
    'page-load',
    'search',
    'serp-browse',
    'an SPA router starts a new pageLoadId on every route change; back on the still-loaded results a tile is clicked under a page load that never rendered them',
    'pageLoadId: a new pageLoadId per full page load (B getPageLoadId); Snap never starts a new pageLoadId inside an SPA',
  ),
  fault(
    'fixed-href-config',
    'page-load',
    'search',
    'serp-filter-back',
    'the beacon is built with a fixed href: after an SPA filter change every beacon still names the landing URL, while the search request names the filtered one',
    'pageUrl: context.pageUrl is window.location.href at the moment the event is created (B getContext)',
  ),
  fault(
    'canonical-pageurl',
    'page-load',
    'search',
    'serp-reload',
    "the integration sets pageUrl to the page's canonical URL (no query): the beacons name /search while the request was made from /search?q=scarf",
    'pageUrl: context.pageUrl is window.location.href at the moment the event is created (B getContext)',
  ),

  // infinite scroll, pagination, filters
  fault(
    'sort-bypass-render',
    'paging',
    'category',
    'category-sort',
    "a custom sort menu calls the search client directly: the sorted response's tiles are impressed and clicked, its render never sent",
    'Pagination, filter or sort change in an SPA: a new search, a new responseId, a render, same pageLoadId',
  ),
  fault(
    'stale-sort-id',
    'paging',
    'category',
    'category-sort',
    "after the sort change, tiles are impressed under the first response's responseId, kept in a closure",
    OWN_RESPONSE,
  ),
  fault(
    'scroll-render-page1',
    'paging',
    'category',
    'category-infinite',
    "a hand-made infinite scroll renders page 2 under page 1's responseId: page 1 rendered twice, page 2 never",
    "Infinite scroll: page N fetched by infinite scroll: one render with page N's responseId",
  ),
  fault(
    'scroll-tiles-page1-id',
    'paging',
    'category',
    'category-infinite',
    "page-2 tiles appended to the page-1 store and impressed under page 1's responseId",
    OWN_RESPONSE,
  ),
  fault(
    'scroll-reimpress-page1',
    'paging',
    'category',
    'category-infinite',
    'when page 2 arrives the impression map is reset, so page-1 tiles still in view are impressed again',
    'Infinite scroll: the new tiles are impressed with page N’s responseId; page-1 tiles are not re-sent (fix 6a63aa5)',
  ),
  fault(
    'backfill-render-last',
    'paging',
    'search',
    'serp-backfill',
    "a custom backfill loader renders the last page it fetched: one render, with page 3's responseId",
    "Infinite-scroll backfill on load: one render only, with page 1's responseId; tiles of later pages are impressed with their own responseIds",
  ),

  // impressions and the queue
  fault(
    'banner-slot-name',
    'impressions',
    'search',
    'serp-browse',
    'the header banner has no data-banner-id, so the integration impresses it under the slot name "header"',
    'Merchandising banner impression: uid from data-banner-id="<digits>" in the banner HTML; without that attribute nothing is sent',
  ),
  fault(
    'impression-reentry',
    'impressions',
    'search',
    'serp-filter-back',
    "the integration's own IntersectionObserver impresses a tile again when it scrolls back into view",
    ONCE_PER_UID,
  ),
  fault(
    'queue-bypass',
    'impressions',
    'search',
    'serp-pagination',
    "a tag manager sends each tile's impression at once, one request each, instead of through the beacon's queue",
    'Impressions: B queues render, impression and addtocart behind a 300 ms debounce; impressions with the same site, endpoint, pageLoadId, sessionId and responseId merge into one request',
  ),
  fault(
    'inline-as-product',
    'impressions',
    'search',
    'serp-banners',
    'a custom grid renders the inline banner as a product tile and impresses it as type product',
    "Inline banner: in results as {type:'banner', uid}, uid = data-banner-id or ss-ib-<index>",
  ),
  fault(
    'impress-on-mount',
    'impressions',
    'search',
    'serp-quick-click',
    'custom tiles impress themselves when they mount, not when seen: the impressions leave with the render',
    'Impressions: a tile is impressed when 70% of it is visible for 1 s (IntersectionObserver threshold 0.7, createImpressionObserver.ts)',
  ),

  // clickthrough and addtocart
  fault(
    'click-as-banner',
    'clicks',
    'search',
    'serp-browse',
    "custom tiles take the click's type from a CSS class: a product tile's click is sent as a banner",
    ONE_ITEM,
  ),
  fault(
    'double-click',
    'clicks',
    'search',
    'serp-browse',
    'the click handler is bound twice (component and tag manager): two clickthroughs of one tile 250 ms apart',
    'Clickthrough: repeat clicks on one item within 1 s are dropped',
  ),
  fault(
    'stale-tile-click',
    'clicks',
    'search',
    'serp-filter-back',
    "after the filter, a tile kept from the previous results is clicked and sent under the filtered response's responseId",
    'Clickthrough and addtocart: the responseId is that of the response that delivered the product (each result keeps its own responseId)',
  ),
  fault(
    'page2-click-page1-id',
    'clicks',
    'search',
    'serp-pagination',
    "SPA pagination keeps page 1's responseId in a data attribute: a page-2 tile's click names page 1's response",
    'Clickthrough and addtocart: the responseId is that of the response that delivered the product (each result keeps its own responseId)',
  ),
  fault(
    'slot-click-as-inline',
    'clicks',
    'search',
    'serp-banners',
    'a click on the header (slot) banner is sent as an inline banner in results',
    ONE_ITEM,
  ),
  fault(
    'addtocart-qty-zero',
    'clicks',
    'category',
    'category-sort',
    'a custom quantity picker passes its empty default: the quick add is sent with qty 0',
    'Addtocart (SC track.product.addToCart): results:[{parentId, uid, sku, qty || 1, price: Number(price) || 0}]',
  ),

  // redirect
  fault(
    'single-as-merch',
    'redirect',
    'search',
    'serp-single-result',
    'the integration sends search/redirect for the single-result jump to the product, though the response has no redirect',
    'Merchandising redirect (SC afterSearch): sent when the response has a redirect URL; single-result redirect (afterStore): render is queued first, then the page navigates',
  ),
  fault(
    'redirect-rewritten',
    'redirect',
    'search',
    'serp-merch-redirect',
    "the redirect beacon carries the storefront router's rewritten URL, not the response's redirect",
    'Merchandising redirect (SC afterSearch): track.redirect({redirectURL: response.merchandising.redirect}), then window.location.replace(url)',
  ),
  fault(
    'filtered-redirect',
    'redirect',
    'search',
    'serp-merch-redirect',
    'a custom redirect handler follows the merchandising redirect of a filtered search',
    'Merchandising redirect: when the response has a redirect URL, merchandising redirects are on, the request has no filters and the store is not loaded yet',
  ),
  fault(
    'redirect-with-render',
    'redirect',
    'search',
    'serp-merch-redirect',
    'a custom afterSearch shows the redirect response (render and impression) and redirects afterwards',
    'Merchandising redirect: the search is cancelled before the store update, so no render is sent',
  ),
  fault(
    'ac-redirect-wrong-url',
    'redirect',
    'autocomplete',
    'ac-redirect',
    "the dropdown's redirect beacon names the search page the form would have opened, not the response's redirect",
    'Autocomplete (ACC): redirectURL = store.merchandising.redirect; track.redirect({redirectURL, responseId}), then location.href = redirectURL',
  ),

  // autocomplete
  fault(
    'ac-render-repeat',
    'autocomplete',
    'autocomplete',
    'ac-dropdown',
    'the dropdown re-sends its render when it is closed and focused again, for the response already shown',
    'Autocomplete: render is sent after each autocomplete response except a repeated search (same responseId as the results shown) (fix ad0d632)',
  ),
  fault(
    'ac-id-on-search',
    'autocomplete',
    'search',
    'ac-dropdown',
    "the SPA shows the dropdown's response as the results page: search/render, impressions and click under the autocomplete responseId",
    AC_ONLY,
  ),
  fault(
    'ac-click-on-search',
    'autocomplete',
    'autocomplete',
    'ac-dropdown',
    "dropdown tiles share the results page's click handler: a product clicked in the dropdown goes to search/clickthrough",
    AC_ONLY,
  ),
  fault(
    'trending-on-ac',
    'autocomplete',
    'autocomplete',
    'ac-dropdown',
    "the dropdown's trending products come from a search request of the integration's own and are impressed on autocomplete/*",
    AC_ONLY,
  ),
  fault(
    'ac-redirect-on-search',
    'autocomplete',
    'autocomplete',
    'ac-redirect',
    "the dropdown's redirect is tracked with the search page's redirect call: search/redirect with the autocomplete responseId",
    AC_ONLY,
  ),

  // recommendations and bundles
  fault(
    'widget-tag-swap',
    'recommendations',
    'recommendations',
    'pdp-widgets',
    "a shared tile component reads the tag of the page's first widget: the second widget's impressions carry the first's tag",
    WIDGET,
  ),
  fault(
    'widget-one-render',
    'recommendations',
    'recommendations',
    'pdp-widgets',
    "the second widget's render names the first widget's responseId (one variable for both)",
    WIDGET,
  ),
  fault(
    'widget-on-search',
    'recommendations',
    'recommendations',
    'pdp-widgets',
    "the widget's tiles reuse the search grid's click handler: a recommendation click goes to search/clickthrough",
    'Recommendations: impressions, clickthroughs and addtocarts go to recommendations/* with tag and the responseId of the result’s response (RecommendationController)',
  ),
  fault(
    'bundle-on-recs',
    'recommendations',
    'recommendations',
    'bundle-pdp',
    'a bundle widget tracked as a plain recommendations widget: every event goes to recommendations/*',
    'Recommendations and bundles: one render {responseId, tag} to recommendations/render (or bundles/render when the profile type is bundle)',
  ),

  // dev and test
  fault(
    'dev-prod-search',
    'dev-test',
    'search',
    'dev-search',
    "the beacon is put in development mode by hand, the search client's config left in production: dev beacons, searches without test=true",
    ONE_MODE,
  ),
  fault(
    'dev-click-without-dev',
    'dev-test',
    'search',
    'dev-search',
    'a hand-built clickthrough in development mode leaves context.dev out',
    ONE_MODE,
  ),
  fault(
    'dev-cached-rerender',
    'dev-test',
    'search',
    'dev-search',
    "in development a service worker answers the repeated search from its cache: the first response's responseId is rendered again",
    'Search render: the cache lives 5 minutes in sessionStorage and is off in development mode',
  ),
  fault(
    'prod-test-search',
    'dev-test',
    'category',
    'prod-category',
    'a staging flag left in the production search config: test=true category searches under production beacons',
    ONE_MODE,
  ),

  // product page
  fault(
    'pdp-parent-empty',
    'product',
    'product',
    'pdp-widgets',
    'the product page beacon is built server-side without the tracker’s mapping: parentId left empty',
    'Product page (T track.product.view): parentId = parentId || uid || ""',
  ),
  fault(
    'pdp-variant-swapped',
    'product',
    'product',
    'quickadd-variant',
    'the product template swaps the ids: parentId is the chosen variant (1031), uid the product it belongs to (P103)',
    'Product page: with a variant (childUid or childSku): uid = childUid || uid, parentId = parentId || uid || childUid, sku = childSku || sku',
  ),

  fault(
    'pdp-uid-empty',
    'product',
    'product',
    'cart-changes',
    'the product page beacon is filled by a template that knows only the parent field: uid left empty',
    'Product page (T track.product.view): uid = uid || parentId || sku || ""',
  ),

  // cart
  fault(
    'cart-results-whole-cart',
    'cart',
    'cart',
    'cart-changes',
    'a tag manager maps the whole cart into results on every increase, not only what was added',
    CART_DIFF,
  ),
  fault(
    'cart-add-stale-cart',
    'cart',
    'cart',
    'cart-changes',
    "cart/add's cart is read before the platform applied the change: the items just added are missing from it",
    CART_DIFF,
  ),
  fault(
    'cart-remove-kept',
    'cart',
    'cart',
    'cart-changes',
    "cart/remove's cart still lists what was removed, at its old quantity",
    'Cart: lower quantities or removed items → one cart/remove with results = what left and cart = the whole current cart',
  ),
  fault(
    'cart-resend-unchanged',
    'cart',
    'product',
    'cart-changes',
    'a tag manager sends cart/add with the whole cart on every page load, though nothing changed',
    'Cart (T constructor): the globals are compared with the cart that B stored; new items or higher quantities → one cart/add',
  ),
  fault(
    'cart-parent-empty',
    'cart',
    'cart',
    'quickadd-variant',
    "a tag manager builds cart/add from the platform's cart JSON, which has no parent field: parentId left empty",
    'Cart: cart items are mapped parentId: parentId || uid, uid: uid',
  ),
  fault(
    'cart-remove-after-order',
    'cart',
    'order',
    'checkout-order',
    'a headless thank-you page empties the cart by hand after the order: cart/remove of the ordered items follows the order',
    'Cart: the comparison runs synchronously in T’s constructor, before the page’s athos/track/* scripts; Order: sent at once; B then clears its stored cart',
  ),

  // order
  fault(
    'order-cents',
    'order',
    'order',
    'checkout-order',
    'a headless checkout maps its totals in cents: transactionTotal 10400 and total 11830 for lines summing to 104',
    'Order: only gross mismatches (0 with priced lines, a factor of about 100) are certain bugs; transactionTotal is the amount before discounts, taxes and shipping',
  ),
  fault(
    'order-vat-percent',
    'order',
    'order',
    'checkout-order',
    'the order beacon is called directly with vat as a percentage (20)',
    'Order (T track.order.transaction): never vat, which the OAS allows as a rate such as 0.20, so only a direct beacon call sends it',
  ),
  fault(
    'order-parent-empty',
    'order',
    'order',
    'checkout-order',
    "the confirmation's line items are mapped by hand with parentId left empty",
    "Order: results mapped parentId: parentId || uid || '', uid: uid || parentId || sku || ''",
  ),
  fault(
    'order-refire',
    'order',
    'order',
    'checkout-order',
    'the confirmation component mounts again 15 s later and sends the same order on the same page load',
    'Order: a reload of the thank-you page sends the order again: on the same pageLoadId within 10 s (B reuses it for the same href), on a new one after',
  ),

  fault(
    'order-total-zero',
    'order',
    'order',
    'hosted-checkout',
    "the hosted checkout's confirmation maps no totals: transactionTotal and total 0 for a priced line",
    'Order: transactionTotal is the amount before discounts, taxes and shipping, total after them (OAS); only gross mismatches (0 with priced lines, a factor of about 100) are certain bugs',
  ),

  // login
  // login-every-page was a fault here until the client's source was read again: Snap.tsx logs the context's
  // shopper in on every page load and B queues the login even when the id is stored, so the clean journey
  // sends it on each page of the logged-in shopper, as the client does.
  fault(
    'login-context-empty',
    'login',
    'login',
    'login-visit',
    'shopper/login fired before the shopper id is set on the tracker: its context has no shopperId',
    'Login: shopper/login with context.shopperId (B setShopperId stores the id, then events.shopper.login)',
  ),
  fault(
    'shopper-dropped',
    'login',
    'search',
    'login-visit',
    "after the login, the pages' beacons are built by other code without the shopper: no shopperId on them",
    'Login: every later event carries context.shopperId',
  ),

  // identity
  fault(
    'attribution-hardcoded',
    'identity',
    'search',
    'serp-browse',
    'a tag manager puts a campaign attribution on every beacon, with no attribution parameter on any page',
    'Identity: context.attribution ([{type, id}]) comes from the athos_attribution / ss_attribution URL parameter (e-mail recommendations) and is kept for the session',
  ),
  fault(
    'attribution-lost',
    'identity',
    'search',
    'email-attribution',
    'the attribution is read from the landing URL only: the pages after it have none',
    'Identity: context.attribution comes from the athos_attribution URL parameter and is kept for the session',
  ),
  fault(
    'session-kept-after-idle',
    'identity',
    'search',
    'idle-session',
    'the integration keeps the sessionId in its own cookie: after 40 idle minutes the old session goes on',
    SESSION,
  ),
  fault(
    'session-reset-midvisit',
    'identity',
    'product',
    'idle-session',
    "a consent tool deletes the session's keys and keeps the user's: a new sessionId one minute into the visit",
    SESSION,
  ),
  fault(
    'session-without-user',
    'identity',
    'order',
    'hosted-checkout',
    'the hosted checkout is passed the sessionId but not the userId: one session under two users',
    'Identity: a checkout on another domain starts a new userId and sessionId unless the integration passes them on',
  ),

  // empty responses
  fault(
    'no-results-popular',
    'empty',
    'search',
    'serp-no-results',
    'the popular products under the no-results message are impressed under the empty response’s responseId',
    'Search render: no-results page: render is still sent; no product impressions follow (there are no tiles)',
  ),
  fault(
    'empty-render-skipped',
    'empty',
    'category',
    'category-empty',
    'the category template skips the render when the collection is empty',
    'Search render: no-results page: render is still sent (fix 1925c5f: no-results render built from the request)',
  ),
];
