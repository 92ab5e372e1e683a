// The unseen set's faults: each one storefront bug class (a hand-written beacon call, a misuse of the
// client, a wrong id mapping, wrong timing or identity...) played as one flag of a clean journey (its
// twin), with the client-facts sentence (or the client source line) the traffic contradicts. The real
// client, given the same page, could not have sent it.
import type { PagedFault } from '../helpers/heldout-set';
import type { Principle } from './journeys';

export type Fault = PagedFault<Principle>;

type Entry = Omit<Fault, 'flag'> & { flag?: string };

// a fault's flag is its id unless it says otherwise
const entries: Entry[] = [
  // ----- search render -----
  {
    id: 'render-missing',
    principle: 'search-render',
    page: 'search',
    twin: 'search-to-product',
    description: 'the integration disables the render beacon but keeps impressions and clicks',
    contradicts:
      'Search render: "Sent in search() (SC) right after the store is updated, with only {responseId}, after every completed search"',
  },
  {
    id: 'render-with-results',
    principle: 'search-render',
    page: 'search',
    twin: 'search-to-product',
    description: 'a hand-written render that lists the first tiles along with the responseId',
    contradicts: 'Search render: "Sent in search() ... with only {responseId}"',
  },
  {
    id: 'cache-no-render',
    principle: 'search-render',
    page: 'search',
    twin: 'search-cache-back',
    description:
      'a response served from the cache is shown and impressed again without being rendered again (the old _cached suppression)',
    contradicts:
      'Search render: "including a response served from the client\'s cache: then the same responseId is rendered again (commit 348ff75 removed the earlier _cached suppression)"',
  },
  {
    id: 'cache-no-reimpression',
    principle: 'search-render',
    page: 'search',
    twin: 'search-cache-back',
    description:
      "a cached response is rendered again but its tiles' impression flags are not reset",
    contradicts:
      'Search render: "For a non-infinite request the controller also resets its per-response impression flags, so a cached response\'s tiles are impressed again."',
  },
  {
    id: 'cache-after-5min',
    principle: 'search-render',
    page: 'search',
    twin: 'search-cache-back',
    description:
      'a storefront cache of its own replays a six-minute-old response (same responseId) on back',
    contradicts: 'Search render: "The cache lives 5 minutes in sessionStorage"',
  },
  {
    id: 'cache-ignores-cart',
    principle: 'search-render',
    page: 'search',
    twin: 'quick-add-then-back',
    description:
      'a storefront cache keyed without the cart replays page 1 (same responseId) after a quick add',
    contradicts:
      'Search render: "Cache key ...: path + request params (query, filters, sort, page, page size, siteId, userId, sessionId, cart, test, …)"',
  },
  {
    id: 'empty-impressions',
    principle: 'search-render',
    page: 'search',
    twin: 'empty-search',
    description:
      'fallback "you may also like" tiles on a no-results page impressed with the empty search\'s responseId',
    contradicts:
      'Search render: "No-results page: render is still sent; no product impressions follow (there are no tiles)."',
  },
  {
    id: 'category-on-search',
    principle: 'search-render',
    page: 'category',
    twin: 'category-quick-add',
    description: "a category page's render, impressions, click and quick add sent to search/*",
    contradicts:
      'Search render: "Category pages run the same controller with page type category: render, impression, clickthrough and addtocart go to category/*"',
  },
  // ----- pageLoadId and pageUrl -----
  {
    id: 'spa-new-pageload',
    principle: 'page-load',
    page: 'search',
    twin: 'spa-filters',
    description:
      'the SPA router calls pageLoad() on every filter or sort change: a new pageLoadId in one page',
    contradicts: 'pageLoadId and pageUrl: "Snap never starts a new pageLoadId inside an SPA."',
  },
  {
    id: 'spa-stale-pageurl',
    principle: 'page-load',
    page: 'search',
    twin: 'spa-filters',
    description:
      'the beacon is configured with the href of the first load, so SPA pages keep the first URL',
    contradicts:
      'pageLoadId and pageUrl: "context.pageUrl is window.location.href at the moment the event is created (B getContext)."',
  },
  {
    id: 'new-href-same-pageload',
    principle: 'page-load',
    page: 'search',
    twin: 'reload-within-10s',
    description: 'a full load of another URL within 10 s keeps the previous pageLoadId',
    contradicts:
      'pageLoadId and pageUrl: "A new pageLoadId per full page load (B getPageLoadId), except that the stored one is reused when the href is the same and under 10 s old."',
  },
  {
    id: 'reload-late-same-pageload',
    principle: 'page-load',
    page: 'search',
    twin: 'reload-within-10s',
    description: 'a reload 20 s later keeps the stored pageLoadId',
    contradicts:
      'pageLoadId and pageUrl: "the stored one is reused when the href is the same and under 10 s old"',
  },
  {
    id: 'tabs-shared-pageload',
    principle: 'page-load',
    page: 'product',
    twin: 'two-tabs',
    description:
      "a pageLoadId kept in localStorage: the second tab's product page sends the first tab's pageLoadId",
    contradicts: 'pageLoadId and pageUrl: "A new pageLoadId per full page load (B getPageLoadId)"',
  },
  // ----- infinite scroll, pagination, filters -----
  {
    id: 'infinite-page1-id',
    principle: 'infinite-scroll',
    page: 'search',
    twin: 'infinite-scroll',
    description:
      "page-2 tiles impressed and clicked with page 1's responseId (tracking data from the current params)",
    contradicts:
      'Infinite scroll: "the new tiles are impressed with page N\'s responseId (each result keeps the responseId of the response that delivered it)"',
  },
  {
    id: 'infinite-reimpress',
    principle: 'infinite-scroll',
    page: 'search',
    twin: 'infinite-scroll',
    description: 'the impression map reset on each infinite page: page-1 tiles impressed again',
    contradicts: 'Infinite scroll: "page-1 tiles are not re-sent; same pageLoadId."',
  },
  {
    id: 'infinite-new-pageload',
    principle: 'infinite-scroll',
    page: 'search',
    twin: 'infinite-scroll',
    description: 'the infinite page with its own pageLoadId',
    contradicts:
      'Infinite scroll: "Page N fetched by infinite scroll: one render with page N\'s responseId; ... same pageLoadId."',
  },
  {
    id: 'backfill-render-each',
    principle: 'infinite-scroll',
    page: 'search',
    twin: 'backfill',
    description: 'a restored infinite list renders every restored page',
    contradicts:
      'Infinite scroll: "Infinite-scroll backfill on load (several pages restored): one render only, with page 1\'s responseId"',
  },
  {
    id: 'page2-no-new-search',
    principle: 'infinite-scroll',
    page: 'search',
    twin: 'search-cache-back',
    description:
      "a storefront pager shows page 2 from its own data and tracks its tiles with page 1's responseId",
    contradicts:
      'Infinite scroll: "Pagination, filter or sort change in an SPA: a new search, a new responseId, a render, same pageLoadId."',
  },
  {
    id: 'filter-render-late',
    principle: 'infinite-scroll',
    page: 'search',
    twin: 'spa-filters',
    description:
      "after a filter change the render goes out 2.5 s late, after the new response's impressions",
    contradicts: 'Search render: "Sent in search() (SC) right after the store is updated"',
  },
  {
    id: 'impressions-not-reset',
    principle: 'infinite-scroll',
    page: 'search',
    twin: 'spa-filters',
    description:
      'impression flags kept across a filter change: tiles seen before are not impressed for the new response',
    contradicts:
      'Impressions: "once per uid per responseId" (b092b31: impressions not reset on a new query, page, sort or filter)',
  },
  // ----- impressions -----
  {
    id: 'impressions-at-render',
    principle: 'impressions',
    page: 'search',
    twin: 'search-to-product',
    description: 'every tile impressed when rendered, including those never scrolled into view',
    contradicts:
      'Impressions: "A tile or banner is impressed when 70% of it is visible for 1 s (IntersectionObserver threshold 0.7)"',
  },
  {
    id: 'impression-repeat',
    principle: 'impressions',
    page: 'search',
    twin: 'search-to-product',
    description: 'tiles impressed again when scrolled back into view',
    contradicts:
      'Impressions: "once per uid per responseId; re-entering the viewport sends nothing."',
  },
  {
    id: 'no-debounce',
    principle: 'impressions',
    page: 'search',
    twin: 'search-to-product',
    description: 'a home-made queue: every impression and the render in its own request at once',
    contradicts:
      'Impressions: "B queues render, impression and addtocart behind a 300 ms debounce ... impressions and addtocarts with the same ... responseId merge into one request"',
  },
  {
    id: 'impressions-held',
    principle: 'impressions',
    page: 'search',
    twin: 'search-to-product',
    description: 'impressions held in a batch flushed 6 s later, after the click they preceded',
    contradicts:
      'Impressions: "B queues render, impression and addtocart behind a 300 ms debounce restarted by every queued event"',
  },
  {
    id: 'banner-name-uid',
    principle: 'impressions',
    page: 'search',
    twin: 'banners',
    description: 'a header banner tracked by its name instead of its data-banner-id',
    contradicts:
      'Impressions: "Merchandising (slot) banner impression: {responseId, banners:[{uid}], results:[]}, uid from data-banner-id="<digits>" in the banner HTML"',
  },
  {
    id: 'banner-not-served',
    principle: 'impressions',
    page: 'search',
    twin: 'banners',
    description:
      'an impression of a site banner the response never served, with the search responseId',
    contradicts:
      'Impressions: "uid from data-banner-id="<digits>" in the banner HTML; without that attribute nothing is sent."',
  },
  {
    id: 'inline-never-impressed',
    principle: 'impressions',
    page: 'search',
    twin: 'banners',
    description: 'an inline banner in view for seconds is never impressed, then clicked',
    contradicts:
      'Impressions: "A tile or banner is impressed when 70% of it is visible for 1 s" (b8e8c31: inline banners never impressed)',
  },
  {
    id: 'inline-as-product',
    principle: 'impressions',
    page: 'search',
    twin: 'banners',
    description: 'an inline banner tracked as a product tile',
    contradicts: 'Impressions: "Inline banner: in results as {type:\'banner\', uid}"',
  },
  // ----- clickthrough and addtocart -----
  {
    id: 'click-two-items',
    principle: 'click-addtocart',
    page: 'search',
    twin: 'search-to-product',
    description: 'a clickthrough listing the clicked tile and its neighbour',
    contradicts: 'Clickthrough: "Exactly one item"',
  },
  {
    id: 'click-parentid-uid',
    principle: 'click-addtocart',
    page: 'search',
    twin: 'search-to-product',
    description: "a hand-written click mapping a product's own uid into parentId",
    contradicts:
      "Clickthrough: \"product results:[{type:'product', uid, parentId ('' when the product has none), sku}]\"",
  },
  {
    id: 'click-double',
    principle: 'click-addtocart',
    page: 'search',
    twin: 'search-to-product',
    description: 'a double click sends two clickthroughs 180 ms apart',
    contradicts: 'Clickthrough: "Repeat clicks on one item within 1 s are dropped."',
  },
  {
    id: 'banner-click-results-key',
    principle: 'click-addtocart',
    page: 'search',
    twin: 'banners',
    description: 'a slot banner click that also carries an empty results list',
    contradicts: 'Clickthrough: "slot banner {responseId, banners:[{uid}]} with no results key"',
  },
  {
    id: 'addtocart-qty-zero',
    principle: 'click-addtocart',
    page: 'category',
    twin: 'category-quick-add',
    description: 'a quick add sent with qty 0 (the button has no quantity field)',
    contradicts:
      'Addtocart: "results:[{parentId || \'\', uid, sku, qty || 1, price: Number(price) || 0}]"',
  },
  {
    id: 'addtocart-cents',
    principle: 'click-addtocart',
    page: 'category',
    twin: 'category-quick-add',
    description: 'a quick add priced in cents (the storefront passes its minor-unit price)',
    contradicts:
      'Addtocart: "price: Number(price) || 0" of the product\'s price, the same unit as the catalog and the order lines',
  },
  {
    id: 'addtocart-other-response',
    principle: 'click-addtocart',
    page: 'recommendations',
    twin: 'product-recs',
    description: "a bundle's add sent with the responseId of another widget on the page",
    contradicts:
      'Addtocart: "{responseId of the response that delivered the product, results:[...]}, queued and merged"',
  },
  {
    id: 'addtocart-also-cart-add',
    principle: 'click-addtocart',
    page: 'category',
    twin: 'category-quick-add',
    description: 'the quick-add handler also calls cart.add by hand',
    contradicts:
      'Cart: "Every */addtocart ... also adds its results to B\'s stored cart, but sends no cart/add of its own."',
  },
  // ----- redirects -----
  {
    id: 'redirect-with-render',
    principle: 'redirect',
    page: 'search',
    twin: 'merch-redirect',
    description: 'the redirecting response is rendered before the redirect',
    contradicts:
      'Redirect: "The search is cancelled before the store update, so no render is sent."',
  },
  {
    id: 'redirect-wrong-url',
    principle: 'redirect',
    page: 'search',
    twin: 'merch-redirect',
    description:
      "search/redirect sent with the search page's URL instead of the response's redirect",
    contradicts:
      'Redirect: "when the response has a redirect URL ... search/redirect is sent at once ..., then window.location.replace(url)"',
  },
  {
    id: 'redirect-store-loaded',
    principle: 'redirect',
    page: 'search',
    twin: 'merch-redirect',
    description:
      'a merchandising redirect followed in an SPA search, after the results page was already shown',
    contradicts:
      'Redirect: "Merchandising redirect (SC afterSearch), when the response has a redirect URL, merchandising redirects are on, the request has no filters and the store is not loaded yet"',
  },
  {
    id: 'redirect-stays',
    principle: 'redirect',
    page: 'search',
    twin: 'merch-redirect',
    description:
      'search/redirect sent, but the page stays and goes on searching in the same page load',
    contradicts:
      'Redirect: "search/redirect is sent at once ..., then window.location.replace(url)."',
  },
  {
    id: 'category-redirect-silent',
    principle: 'redirect',
    page: 'category',
    twin: 'category-redirect',
    description:
      "the theme follows a category response's redirect itself: no search/redirect is sent",
    contradicts:
      'Redirect: "Merchandising redirect ... search/redirect is sent at once (always on the search endpoint, also for category pages)"',
  },
  {
    id: 'unload-flush',
    principle: 'redirect',
    page: 'search',
    twin: 'single-result',
    description:
      "the theme flushes the beacon's queue on unload: the single result's render leaves at once",
    contradicts:
      'Clickthrough: "B has no unload flush" and Redirect: "Single-result redirect (afterStore): render is queued first, then the page navigates to the product (the queued render may be lost with the page)"',
  },
  {
    id: 'single-result-redirect-beacon',
    principle: 'redirect',
    page: 'search',
    twin: 'single-result',
    description:
      'a single-result redirect reported as a merchandising redirect (search/redirect to the product)',
    contradicts:
      'Redirect: "Single-result redirect (afterStore): render is queued first, then the page navigates to the product"',
  },
  // ----- autocomplete -----
  {
    id: 'ac-on-search-endpoint',
    principle: 'autocomplete',
    page: 'autocomplete',
    twin: 'autocomplete-to-product',
    description: "the dropdown's render, impressions and click sent to search/*",
    contradicts:
      'Autocomplete: "ACC sends only autocomplete/* events (render, impression, clickthrough, addtocart, redirect)"',
  },
  {
    id: 'ac-click-search-endpoint',
    principle: 'autocomplete',
    page: 'autocomplete',
    twin: 'autocomplete-to-product',
    description:
      'a click in the dropdown sent to search/clickthrough with the autocomplete responseId',
    contradicts: 'Autocomplete: "No code path sends an autocomplete responseId on search/*."',
  },
  {
    id: 'ac-repeat-render',
    principle: 'autocomplete',
    page: 'autocomplete',
    twin: 'autocomplete-to-product',
    description: 'a repeated term renders the same autocomplete response again',
    contradicts:
      'Autocomplete: "Render is sent after each autocomplete response except a repeated search (same responseId as the results shown)"',
  },
  {
    id: 'ac-tiles-immediate',
    principle: 'autocomplete',
    page: 'autocomplete',
    twin: 'autocomplete-to-product',
    description: 'dropdown tiles impressed the moment the dropdown opens',
    contradicts: 'Impressions: "A tile or banner is impressed when 70% of it is visible for 1 s"',
  },
  {
    id: 'ac-redirect-search-endpoint',
    principle: 'autocomplete',
    page: 'autocomplete',
    twin: 'autocomplete-submit',
    description:
      "a dropdown term's redirect sent to search/redirect with the autocomplete responseId",
    contradicts:
      'Autocomplete: "A term or product submitted from the dropdown may send autocomplete/redirect first" and "No code path sends an autocomplete responseId on search/*."',
  },
  {
    id: 'ac-id-on-search-render',
    principle: 'autocomplete',
    page: 'search',
    twin: 'autocomplete-submit',
    description:
      "the results page renders with the dropdown's responseId passed on by the integration",
    contradicts: 'Autocomplete: "No code path sends an autocomplete responseId on search/*."',
  },
  // ----- recommendations -----
  {
    id: 'reco-render-no-tag',
    principle: 'recommendations',
    page: 'recommendations',
    twin: 'product-recs',
    description: 'recommendation renders sent without the profile tag',
    contradicts: 'Recommendations: "after each recommend response, one render {responseId, tag}"',
  },
  {
    id: 'reco-wrong-tag',
    principle: 'recommendations',
    page: 'recommendations',
    twin: 'product-recs',
    description: "the second widget's beacons carry the first widget's tag",
    contradicts:
      'Recommendations: "one controller per widget (profile tag) ... impressions, clickthroughs and addtocarts carry tag and the responseId of the result\'s response"',
  },
  {
    id: 'reco-one-render',
    principle: 'recommendations',
    page: 'recommendations',
    twin: 'product-recs',
    description:
      'one widget on the page is never rendered, though its tiles are impressed and clicked',
    contradicts:
      'Recommendations: "one controller per widget ...; after each recommend response, one render {responseId, tag}"',
  },
  {
    id: 'bundle-as-reco',
    principle: 'recommendations',
    page: 'recommendations',
    twin: 'product-recs',
    description: "a bundle widget's beacons sent to recommendations/*",
    contradicts:
      'Recommendations: "(or bundles/render when the profile type is bundle)" (the facts\' client, v1.11.0; the installed @searchspring/snap-controller 0.78.0 still renders every profile on recommendations/render)',
  },
  {
    id: 'reco-click-other-response',
    principle: 'recommendations',
    page: 'recommendations',
    twin: 'product-recs',
    description: "a click on a widget tile sent with another widget's responseId and tag",
    contradicts:
      'Recommendations: "clickthroughs ... carry tag and the responseId of the result\'s response"',
  },
  {
    id: 'reco-addtocart-no-tag',
    principle: 'recommendations',
    page: 'recommendations',
    twin: 'product-recs',
    description: 'a bundle add sent by hand at once and without the tag',
    contradicts: 'Recommendations: "impressions, clickthroughs and addtocarts carry tag"',
  },
  // ----- dev and test -----
  {
    id: 'dev-cached',
    principle: 'dev-test',
    page: 'search',
    twin: 'dev-search',
    description:
      'in development mode, back to page 1 replays the earlier response (same responseId)',
    contradicts:
      'Search render: "The cache lives 5 minutes in sessionStorage and is off in development mode."',
  },
  {
    id: 'dev-prod-search',
    principle: 'dev-test',
    page: 'search',
    twin: 'dev-search',
    description: 'dev beacons while the search requests go out without test=true',
    contradicts:
      'dev and test: "In development mode beacons carry context.dev: true and the search client adds test=true to search, autocomplete and category requests"',
  },
  {
    id: 'prod-test-search',
    principle: 'dev-test',
    page: 'search',
    twin: 'search-to-product',
    description: 'production beacons while the searches are test=true',
    contradicts: 'dev and test: "One mode drives both ...; in production neither."',
  },
  {
    id: 'dev-flag-dropped',
    principle: 'dev-test',
    page: 'product',
    twin: 'dev-search',
    description: 'clicks and product views sent by a second beacon instance without the dev flag',
    contradicts: 'dev and test: "In development mode beacons carry context.dev: true"',
  },
  // ----- product page -----
  {
    id: 'pageview-variant-swapped',
    principle: 'product-page',
    page: 'product',
    twin: 'variant-product',
    description: 'a variant page view with the variant in parentId and the parent in uid',
    contradicts:
      'Product page: "With a variant (childUid or childSku): uid = childUid || uid, parentId = parentId || uid || childUid"',
  },
  {
    id: 'pageview-sku-no-uid',
    principle: 'product-page',
    page: 'product',
    twin: 'variant-product',
    description: 'a hand-written page view with an empty uid and only a sku',
    contradicts: 'Product page: "uid = uid || parentId || sku || \'\'"',
  },
  {
    id: 'pageview-twice',
    principle: 'product-page',
    page: 'product',
    twin: 'variant-product',
    description: 'the product view tracked again on a swatch change, in the same page load',
    contradicts:
      'Product page: "(T track.product.view, from <script type="athos/track/product/view">)": one view per page load, sent at once',
  },
  // ----- cart -----
  {
    id: 'cart-add-total-qty',
    principle: 'cart',
    page: 'cart',
    twin: 'category-quick-add',
    description: 'a raised quantity sent as the new total instead of the increase',
    contradicts:
      'Cart: "new items or higher quantities → one cart/add with results = only the difference (qty = the increase)"',
  },
  {
    id: 'cart-add-partial-cart',
    principle: 'cart',
    page: 'cart',
    twin: 'category-quick-add',
    description: "cart/add's cart lists only some of the cart's lines",
    contradicts:
      'Cart: "cart/add with results = only the difference ... and cart = the whole current cart"',
  },
  {
    id: 'cart-parentid-empty',
    principle: 'cart',
    page: 'cart',
    twin: 'category-quick-add',
    description: 'cart lines sent with an empty parentId for products that have none',
    contradicts: 'Cart: "Cart items are mapped parentId: parentId || uid, uid: uid (no fallback)"',
  },
  {
    id: 'cart-remove-nonempty-cart',
    principle: 'cart',
    page: 'cart',
    twin: 'cart-changes',
    description: 'an emptied cart reported with the removed lines still in cart',
    contradicts:
      'Cart: "Globals with an empty cart while B still holds items → cart/remove with results = the stored items and cart: []."',
  },
  {
    id: 'cart-remove-as-add',
    principle: 'cart',
    page: 'cart',
    twin: 'cart-changes',
    description: 'a lowered quantity sent as cart/add with a negative qty',
    contradicts:
      'Cart: "lower quantities or removed items → one cart/remove with results = what left"',
  },
  {
    id: 'cart-add-results-whole',
    principle: 'cart',
    page: 'cart',
    twin: 'cart-changes',
    description: 'cart/add listing the whole cart in results, not only what was added',
    contradicts: 'Cart: "one cart/add with results = only the difference (qty = the increase)"',
  },
  {
    id: 'cart-add-no-cart',
    principle: 'cart',
    page: 'product',
    twin: 'cart-changes',
    description: "a product page's add button posts cart/add by hand, without the cart",
    contradicts:
      'Cart: "Called directly, B\'s cart.add without a cart fills it from its stored cart."',
  },
  {
    id: 'cart-add-every-load',
    principle: 'cart',
    page: 'search',
    twin: 'cart-changes',
    description:
      'the theme calls cart.add with the whole cart on every page load, also when nothing changed',
    contradicts:
      'Cart: "the globals are compared with the cart that B stored; new items or higher quantities → one cart/add"',
  },
  // ----- order -----
  {
    id: 'order-cents',
    principle: 'order',
    page: 'order',
    twin: 'order-flow',
    description: "the order's totals in cents while its lines are in the currency unit",
    contradicts:
      'Order: "only gross mismatches (0 with priced lines, a factor of about 100) are certain bugs"; totals are Number(order.total), in the lines\' unit',
  },
  {
    id: 'order-zero-total',
    principle: 'order',
    page: 'order',
    twin: 'order-flow',
    description: 'a hand-written order call that fills neither total: 0 with priced lines',
    contradicts:
      'Order: "only gross mismatches (0 with priced lines, a factor of about 100) are certain bugs"',
  },
  {
    id: 'order-line-parent-empty',
    principle: 'order',
    page: 'order',
    twin: 'order-flow',
    description: 'a hand-written order with empty parentIds on its lines',
    contradicts: 'Order: "results mapped parentId: parentId || uid || \'\'"',
  },
  {
    id: 'order-vat',
    principle: 'order',
    page: 'order',
    twin: 'order-flow',
    description: 'a direct beacon call for the order, with vat',
    contradicts:
      'Order: "city, state, country (never vat, ... so only a direct beacon call sends it)"',
  },
  {
    id: 'order-before-cart-remove',
    principle: 'order',
    page: 'order',
    twin: 'order-flow',
    description:
      'an order call in the page head, before the cart comparison removes the bought lines',
    contradicts:
      'Cart: "The cart comparison runs synchronously in T\'s constructor, before the page\'s athos/track/* scripts are read"',
  },
  {
    id: 'order-double-tag',
    principle: 'order',
    page: 'order',
    twin: 'order-flow',
    description: 'the same order sent twice, 40 ms apart, by the snippet and a tag manager copy',
    contradicts:
      'Order: "(T track.order.transaction, from <script type="athos/track/order/transaction">) ... Sent at once": once per page load of the thank-you page',
  },
  {
    id: 'order-remove-cart-kept',
    principle: 'order',
    page: 'order',
    twin: 'order-flow',
    description: "the thank-you page's cart/remove still lists the bought lines in cart",
    contradicts:
      'Cart: "A thank-you page whose cart globals are already empty therefore sends cart/remove of the stored items, with cart: []"',
  },
  {
    id: 'order-reload-other-id',
    principle: 'order',
    page: 'order',
    twin: 'order-reload',
    description: 'a reload of the thank-you page sends the same order under a new orderId',
    contradicts:
      'Order: "orderId: String(order.id || \'\')" ... "A reload of the thank-you page sends the order again"',
  },
  {
    id: 'currency-string',
    principle: 'order',
    page: 'order',
    twin: 'order-flow',
    description: 'a hand-written order whose context.currency is the code alone, not {code}',
    contradicts:
      'B getContext: "if (this.currency.code) context.currency = { ...this.currency }" (an object {code})',
  },
  // ----- login and identity -----
  // login-every-page was a fault here until the client's source was read again: Snap.tsx logs the context's
  // shopper in on every page load and B queues the login even when the id is stored, so the clean journey
  // sends it on each page of the logged-in shopper, as the client does.
  {
    id: 'login-no-shopper-context',
    principle: 'login-identity',
    page: 'login',
    twin: 'login',
    description: 'the login beacon sent before the shopper id is set: an empty context.shopperId',
    contradicts: 'Login: "shopper/login with context.shopperId"',
  },
  {
    id: 'shopper-lost-after-login',
    principle: 'login-identity',
    page: 'search',
    twin: 'login',
    description: 'events after the login sent by a second beacon instance without the shopperId',
    contradicts: 'Login: "every later event carries context.shopperId."',
  },
  {
    id: 'login-new-session',
    principle: 'login-identity',
    page: 'login',
    twin: 'login',
    description: 'the integration resets the session at login: a new sessionId after 8 s',
    contradicts: 'Identity: "sessionId 30 minutes of inactivity (rolling)"',
  },
  {
    id: 'attribution-dropped',
    principle: 'login-identity',
    page: 'search',
    twin: 'email-attribution',
    description:
      "the e-mail attribution sent only on the landing page, not the session's later pages",
    contradicts:
      'Identity: "context.attribution ... comes from the athos_attribution / ss_attribution URL parameter ... and is kept for the session."',
  },
  {
    id: 'attribution-invented',
    principle: 'login-identity',
    page: 'search',
    twin: 'search-to-product',
    description: 'an attribution on a visit that never landed with an attribution parameter',
    contradicts:
      'Identity: "context.attribution ([{type, id}]) comes from the athos_attribution / ss_attribution URL parameter"',
  },
  {
    id: 'userid-change',
    principle: 'login-identity',
    page: 'search',
    twin: 'email-attribution',
    description: 'a new userId on the second page of the session',
    contradicts: 'Identity: "userId lives 18 months"',
  },
  {
    id: 'session-per-page',
    principle: 'login-identity',
    page: 'search',
    twin: 'email-attribution',
    description: 'a new sessionId on every page load',
    contradicts: 'Identity: "sessionId 30 minutes of inactivity (rolling)"',
  },
  {
    id: 'session-no-rollover',
    principle: 'login-identity',
    page: 'search',
    twin: 'session-rollover',
    description: 'the sessionId kept after 35 idle minutes',
    contradicts: 'Identity: "sessionId 30 minutes of inactivity (rolling)"',
  },
  {
    id: 'session-early-rollover',
    principle: 'login-identity',
    page: 'search',
    twin: 'session-rollover',
    description: 'a new sessionId after 5 idle minutes',
    contradicts: 'Identity: "sessionId 30 minutes of inactivity (rolling)"',
  },
  {
    id: 'timestamp-skew',
    principle: 'page-load',
    page: 'search',
    twin: 'search-to-product',
    description:
      "context.timestamp from the storefront's local clock written as UTC: two hours behind",
    contradicts:
      'B getContext: "timestamp: this.getTimestamp()" = new Date().toISOString() when the event is created',
  },
];

export const FAULTS: Fault[] = entries.map((e) => ({ ...e, flag: e.flag ?? e.id }));
