// The model of the provider's storefront client: each behaviour it has, where it was read, what it
// implies for the traffic, and how a storefront shows it (the endpoints that exercise it, the call or
// script tag that sends it). Rules name the behaviours they guard in their metas (`guards`); the docs'
// client model, readiness and a finding's `behaviour` are read from here. Ids are public and stable.
//
// Sources: Snap (SC = snap-controller Search/SearchController.ts, ACC = Autocomplete/AutocompleteController.ts,
// RC = Recommendation/RecommendationController.ts, T = snap-tracker Tracker.ts), the beacon package (B =
// @athoscommerce/beacon src/Beacon.ts) and snap-client (transforms/searchResponse.ts, apis/*, NetworkCache.ts).
import type { BehaviourArea } from '../../shared/client-model';
import { SENT_BY } from '../../shared/readiness';

/**
 * How long the client reuses its stored pageLoadId for a new load of the same href (B getPageLoadId,
 * PAGE_LOAD_ID_EXPIRATION): a reload within it keeps the page load's id. The rules that tell such a
 * reload apart write their bounds as this plus a margin of their own.
 */
export const PAGE_LOAD_ID_REUSE_MS = 10_000;

export interface Behaviour {
  id: string;
  area: BehaviourArea;
  title: string;
  source: string;
  invariant: string;
  /**
   * The endpoints (`category/event`) whose accepted events show the storefront exercises it; `*`: any
   * accepted event. Readiness calls a behaviour seen when one of them arrived, unless it tests the
   * behaviour more finely (readiness.ts `EXERCISED`: one every search render would show;
   * readiness-visits.ts `VISIT_SHOWN`: one a shopper's pages show together).
   */
  seenBy: readonly string[];
  /**
   * The endpoints whose requests are its own events: the call it names in `next` sends them. A request to
   * one that the service refuses (a Content-Type, a method or a size it does not take) or rejects over its
   * data loses this behaviour's event, so `schema` and `request-refused` name it. Each endpoint the timelines
   * and the visit fold is one behaviour's (`sendingBehaviour`).
   */
  sends?: readonly string[];
  /** what sends it: the client call or script tag a storefront adds (readiness's next step) */
  next: string;
  /** when no rule can check it with certainty: why (a behaviour with no guarding rule must say) */
  uncheckable?: string;
}

const RESULTS = ['render', 'impression', 'clickthrough', 'addtocart'];
const of = (kind: string, events: readonly string[] = RESULTS) => events.map((e) => `${kind}/${e}`);

const SNAP_SEARCH =
  'a Snap SearchController (or `tracker.events.search.*` of @athoscommerce/beacon) on the search page';
const SNAP_CATEGORY =
  'a Snap SearchController with page type `category` (or `tracker.events.category.*`) on category pages';
const SNAP_AC =
  'a Snap AutocompleteController (or `tracker.events.autocomplete.*`) on the search box';
/**
 * The setup that shows a listing's request context (search.request-context, category.request-context): what
 * sends it, read in snap-client's searchRequest transform (userId, sessionId, pageLoadId, domain from
 * `request.tracking`)
 */
const ASKED_WITH_CONTEXT =
  'with its searches asked of the sandbox’s companion search (or recorded in a HAR) with the tracker’s context, as a Snap SearchController asks them (Snap’s Client asked directly sends it only when its request has `tracking`: userId, sessionId and pageLoadId from tracker.getContext(), domain window.location.href)';

export const BEHAVIOURS: readonly Behaviour[] = [
  // ---- search ----
  {
    id: 'search.render',
    area: 'search',
    title: 'Render after every completed search',
    source:
      'SC search(): `track.render` right after the store update, with only {responseId}; no search (so no render) while the store is loaded with the same storable params (lastStringyParams)',
    invariant:
      'Each response whose results are shown is rendered once on its page, before any impression, click or add of it (a click that leaves the page within the queue’s 300 ms may go out while the render is still queued, and the render is lost); a listing renders again only after a search of other parameters.',
    seenBy: of('search', ['render']),
    sends: of('search', ['render']),
    next: SNAP_SEARCH,
  },
  {
    id: 'search.render-cached',
    area: 'search',
    title: 'A cached response is rendered and impressed again',
    source:
      'SC search() (348ff75 reverted the `_cached` suppression; no search while the store holds the same params); snap-client NetworkCache.ts: 5 min in sessionStorage, off in development',
    invariant:
      'The same responseId is rendered again (and its tiles impressed again) only where the client cache could serve it: in production, for the same request, within 5 minutes, and on a page after another search of the listing (or a reload, or a route elsewhere and back).',
    seenBy: of('search', ['render']),
    next: `${SNAP_SEARCH}, with a reload of a listing or a back navigation to it in production, within the client’s 5-minute cache`,
  },
  {
    id: 'search.impression',
    area: 'search',
    title: 'Tiles impressed once seen, once per response',
    source:
      'snap-preact createImpressionObserver.ts (70% visible for 1 s); SC impression flags per responseId',
    invariant:
      'A tile is impressed about a second after it appears, once per uid per responseId; a render with results is followed by impressions of what the shopper saw, unless the listing’s next search replaced it sooner (a tile removed before its second in view is never impressed).',
    seenBy: of('search', ['impression']),
    sends: of('search', ['impression']),
    next: `${SNAP_SEARCH}${SENT_BY}by each tile once 70% of it has been in view for 1 s, with the responseId of the response that delivered it (snap-preact’s result components do it; a tile of your own calls \`tracker.events.search.impression({responseId, results, banners})\`)`,
  },
  {
    id: 'search.impression-queue',
    area: 'search',
    title: 'Impressions and adds merged by the 300 ms queue',
    source:
      'B: render, impression and addtocart queued behind a 300 ms debounce restarted by every event; same endpoint, page load, session and responseId merge into one request with the first event’s context',
    invariant:
      'Two impression (or addtocart) requests of one response on one page load are at least the debounce apart, and every event’s context is taken when it is created.',
    seenBy: of('search', ['impression', 'addtocart']),
    next: `${SNAP_SEARCH}${SENT_BY}by the beacon client’s 300 ms queue, which merges a response’s impressions (and quick adds) into one request: send them through it, not one request of your own per tile`,
  },
  {
    id: 'search.clickthrough',
    area: 'search',
    title: 'A click names the tile’s own response, at once',
    source:
      'SC track.product.click / B clickthrough: sent at once with keepalive, one item, not flushing the queue; repeats within 1 s dropped; only for a click inside the product’s link (isClickWithinProductLink), so a click on the add button sends the add alone',
    invariant:
      'A clickthrough carries one item that its response delivered and the page showed (its impression may still be queued when the page leaves); the same item is not clicked twice within a second; one click sends a clickthrough or an add, never both.',
    seenBy: of('search', ['clickthrough']),
    sends: of('search', ['clickthrough']),
    next: `${SNAP_SEARCH}${SENT_BY}when the shopper clicks a tile: the controller’s \`track.product.click\` on the tile’s link (a tile of your own calls it in its click handler), at once, with the tile’s own responseId`,
  },
  {
    id: 'search.addtocart',
    area: 'search',
    title: 'A quick add names the product’s own response',
    source:
      'SC track.product.addToCart: {responseId of the delivering response, results:[{parentId, uid, sku, qty, price: Number(price) || 0}]}, queued',
    invariant:
      'An addtocart names items its response delivered and the page showed, with the responseId of that response, at the product’s unit price: the unit the cart and the order use.',
    seenBy: of('search', ['addtocart']),
    sends: of('search', ['addtocart']),
    next: `${SNAP_SEARCH}${SENT_BY}by a tile’s add-to-cart button: the controller’s \`track.product.addToCart(result)\` (a button of your own calls it), with the responseId of the response that delivered the product`,
  },
  {
    id: 'search.addtocart-qty',
    area: 'search',
    title: 'A quick add sends a quantity of at least 1',
    source:
      'SC track.product.addToCart: results [{parentId || "", uid, sku, qty: result.quantity || 1, price: Number(price) || 0}]; B adds each to its stored cart (qty += qty)',
    invariant:
      'Every item of a quick add (search, category, autocomplete, widgets) has a qty of 1 or more: a missing or zero quantity goes out as 1; the qty is what this add added, not the cart line’s quantity after it.',
    seenBy: of('search', ['addtocart']),
    next: `${SNAP_SEARCH}${SENT_BY}by a quick add (its qty, 1 when it has none)`,
  },
  {
    id: 'search.tile-response',
    area: 'search',
    title: 'Each tile keeps the responseId that delivered it',
    source:
      'snap-client transforms/searchResponse.ts (each result keeps its response’s responseId); 25c13f2 fixed lists that took it from the current params',
    invariant:
      'Infinite scroll: page N’s tiles are impressed, clicked and added with page N’s responseId; page 1’s tiles are not sent again.',
    seenBy: of('search', ['impression', 'clickthrough', 'addtocart']),
    next: `${SNAP_SEARCH}${SENT_BY}by the events of tiles of a second page (infinite scroll or pagination), each with its own page’s responseId`,
  },
  {
    id: 'search.backfill',
    area: 'search',
    title: 'Infinite-scroll backfill: one render for several pages',
    source: 'SC search() with infinite backfill: one render with page 1’s responseId',
    invariant:
      'Pages restored on load share page 1’s render; their tiles carry their own responseIds, which have no render of their own.',
    seenBy: of('search', ['render']),
    next: `${SNAP_SEARCH}, with infinite scroll restoring several pages on load`,
  },
  {
    id: 'search.one-response-shown',
    area: 'search',
    title: 'A listing shows one response at a time',
    source:
      'SC: pagination, filters and sort in an SPA run a new search (new responseId, a render, the same pageLoadId); b092b31 reset impressions per response',
    invariant:
      'Once a newer response of the listing is rendered for another request, events naming the older one are impossible until it is rendered again; the responseId matches the search the page shows.',
    seenBy: of('search', ['render']),
    next: `${SNAP_SEARCH}, with pagination, filters or sort changing the listing without loading a page`,
  },
  {
    id: 'search.response-bound',
    area: 'search',
    title: 'A responseId is bound to what produced it',
    source:
      'snap-client apis/Search.ts and Abstract.ts (cache key: path + request parameters without pageLoadId and domain); getParams.ts',
    invariant:
      'A responseId belongs to one request (query, filters, sort, page), one kind and widget tag, one shopper and session: seen elsewhere it was copied, unless the cache served the same request again.',
    seenBy: of('search', ['render']),
    next: SNAP_SEARCH,
  },
  {
    id: 'search.request-context',
    area: 'search',
    title: 'Each search asks with the tracker’s context',
    source:
      'SC and ACC `params.tracking`: userId, sessionId and pageLoadId from tracker.getContext(), domain = window.location.href; personalization.shopper; snap-client transforms/searchRequest.ts sends them as userId, sessionId, pageLoadId, domain and shopper',
    invariant:
      'A search, category or autocomplete response belongs to the visitor, session, page load and URL that asked for it: its beacons carry that userId and sessionId, the page load that asked renders it (a search with no results too), and its render carries the URL that searched.',
    seenBy: of('search', ['render']),
    next: `${SNAP_SEARCH}, ${ASKED_WITH_CONTEXT}`,
  },
  {
    id: 'search.items-served',
    area: 'search',
    title: 'Events name what the response served',
    source:
      'SC tracking data taken from the result store; snap-client searchResponse.ts (parentId, uid, sku of each result)',
    invariant:
      'Impressed, clicked and added items are results of the response named, with that result’s uid, parentId and sku.',
    seenBy: of('search', ['impression', 'clickthrough', 'addtocart']),
    next: SNAP_SEARCH,
  },
  {
    id: 'search.banners',
    area: 'search',
    title: 'Merchandising and inline banners',
    source:
      'SC: slot banner {responseId, banners:[{uid}], results:[]} with uid from data-banner-id="<digits>" (no attribute, nothing sent); inline banner in results as {type:"banner", uid}, uid its data-banner-id or ss-ib-<index>; b8e8c31',
    invariant:
      'Slot banners go in `banners` with their data-banner-id’s digits as uid, inline banners in `results` typed banner; each is one the response served.',
    seenBy: of('search', ['impression', 'clickthrough']),
    next: `${SNAP_SEARCH}, with merchandising banners carrying data-banner-id`,
  },
  {
    id: 'search.zero-results',
    area: 'search',
    title: 'A search with no results needs no impression',
    source: 'SC search(): render sent for a no-results page (1925c5f); no tiles, so no impressions',
    invariant:
      'A response that served nothing is rendered and needs no impression: silence after it is correct.',
    seenBy: of('search', ['render']),
    next: `${SNAP_SEARCH}, with a query that has no results`,
  },
  {
    id: 'search.zero-results-render',
    area: 'search',
    title: 'A search with no results is rendered too',
    source:
      'SC search(): the render is sent after every completed search, a no-results one included (1925c5f built it from the request)',
    invariant:
      'A page whose search found nothing still sends the render of its response, and nothing else of it.',
    seenBy: of('search', ['render']),
    next: `${SNAP_SEARCH}, with a query that has no results`,
  },
  {
    id: 'search.redirect',
    area: 'search',
    title: 'Merchandising redirect: redirect, no render, leave',
    source:
      'SC afterSearch(): only while the store is not loaded, search/redirect sent at once (also for category pages), then window.location.replace(url); the search is cancelled before the store update',
    invariant:
      'A redirect names the URL the response redirects to, is sent from the page that searched, before its listing showed any results, just before it leaves, and is followed by no render or other event of that response on the page.',
    seenBy: ['search/redirect'],
    sends: ['search/redirect'],
    next: `${SNAP_SEARCH}, with a merchandising redirect configured for a query`,
  },
  {
    id: 'search.single-result-redirect',
    area: 'search',
    title: 'Single-result redirect to the product',
    source: 'SC afterStore(): render queued first, then the page navigates to the product',
    invariant:
      'A render of one result may be the page’s last event (its impressions never sent, the render itself may be lost); the next page is that product’s.',
    seenBy: of('search', ['render']),
    next: `${SNAP_SEARCH}, with a query that has exactly one result`,
  },
  // ---- category ----
  {
    id: 'category.events',
    area: 'category',
    title: 'Category pages track like search',
    source: 'SC with page type `category`: `this.tracker.events[this.page.type]`',
    invariant:
      'Render, impression, clickthrough and addtocart go to category/* with the shapes and order of search; a category responseId is never sent on search/*.',
    seenBy: of('category'),
    sends: of('category'),
    next: SNAP_CATEGORY,
  },
  {
    id: 'category.redirect',
    area: 'category',
    title: 'A category page’s redirect goes to search/redirect',
    source: 'SC afterSearch(): the redirect always goes to search/redirect',
    invariant:
      'A category response that redirects sends search/redirect with its responseId and no category/render of it, then nothing more on that page.',
    seenBy: ['search/redirect'],
    next: SNAP_CATEGORY,
  },
  // SC with page type category is the search page's controller: each behaviour below is its search
  // namesake on category/* (CATEGORY_OF), with the same rules, so a category-only storefront is told what its
  // category pages show, never to build a search page
  {
    id: 'category.one-response-shown',
    area: 'category',
    title: 'A category listing shows one response at a time',
    source:
      'SC with page type `category`: pagination, filters and sort in an SPA run a new search (new responseId, a render, the same pageLoadId), as search.one-response-shown',
    invariant:
      'Once a newer response of the category listing is rendered for another request, events naming the older one are impossible until it is rendered again.',
    seenBy: of('category', ['render']),
    next: `${SNAP_CATEGORY}, with pagination, filters or sort changing the listing without loading a page`,
  },
  {
    id: 'category.backfill',
    area: 'category',
    title: 'Infinite-scroll backfill on a category page',
    source:
      'SC with page type `category` and infinite backfill: one category/render with page 1’s responseId, as search.backfill',
    invariant:
      'Pages restored on load share page 1’s render; their tiles carry their own responseIds, which have no render of their own.',
    seenBy: of('category', ['render']),
    next: `${SNAP_CATEGORY}, with infinite scroll restoring several pages on load`,
  },
  {
    id: 'category.request-context',
    area: 'category',
    title: 'Each category search asks with the tracker’s context',
    source:
      'SC `params.tracking` with page type `category`: userId, sessionId and pageLoadId from tracker.getContext(), domain = window.location.href (snap-client transforms/searchRequest.ts), as search.request-context',
    invariant:
      'A category response belongs to the visitor, session, page load and URL that asked for it: its beacons carry that userId and sessionId, the page load that asked renders it, and its render carries the URL that asked.',
    seenBy: of('category', ['render']),
    next: `${SNAP_CATEGORY}, ${ASKED_WITH_CONTEXT}`,
  },
  {
    id: 'category.items-served',
    area: 'category',
    title: 'Category events name what the response served',
    source:
      'SC with page type `category`: tracking data taken from the result store; snap-client searchResponse.ts (parentId, uid, sku of each result), as search.items-served',
    invariant:
      'Impressed, clicked and added items of a category page are results of the category response named, with that result’s uid, parentId and sku.',
    seenBy: of('category', ['impression', 'clickthrough', 'addtocart']),
    next: SNAP_CATEGORY,
  },
  {
    id: 'category.banners',
    area: 'category',
    title: 'Merchandising and inline banners on category pages',
    source:
      'SC with page type `category`: slot banners in category/impression `banners` (uid from data-banner-id digits), inline banners in `results` typed banner, as search.banners',
    invariant:
      'A category page’s slot banners go in `banners` with their data-banner-id’s digits as uid, inline banners in `results` typed banner; each is one the category response served.',
    seenBy: of('category', ['impression', 'clickthrough']),
    next: `${SNAP_CATEGORY}, with merchandising banners carrying data-banner-id`,
  },
  // ---- autocomplete ----
  {
    id: 'autocomplete.events',
    area: 'autocomplete',
    title: 'The dropdown tracks on autocomplete/* only',
    source:
      'ACC: only autocomplete/* events, each with the autocomplete response’s own responseId; no code path sends it on search/*',
    invariant:
      'An autocomplete responseId appears only on autocomplete/* events, which keep the order render → impression → click or add.',
    seenBy: of('autocomplete'),
    sends: of('autocomplete', ['impression', 'clickthrough', 'addtocart']),
    next: SNAP_AC,
  },
  {
    id: 'autocomplete.render',
    area: 'autocomplete',
    title: 'A render per autocomplete response, not for a repeated one',
    source:
      'ACC (around line 915): no render for a repeated search (ad0d632 fixed duplicate renders)',
    invariant:
      'Each autocomplete response shown is rendered once; one shown briefly while the shopper types may never be impressed.',
    seenBy: of('autocomplete', ['render']),
    sends: of('autocomplete', ['render']),
    next: SNAP_AC,
  },
  {
    id: 'autocomplete.redirect',
    area: 'autocomplete',
    title: 'A term submitted from the dropdown redirects, then leaves',
    source: 'ACC: autocomplete/redirect may be sent first, then location.href is set',
    invariant:
      'An autocomplete redirect names the response’s redirect and is the last event of that response on the page.',
    seenBy: ['autocomplete/redirect'],
    sends: ['autocomplete/redirect'],
    next: `${SNAP_AC}, with a redirect configured for a term`,
  },
  {
    id: 'autocomplete.redirect-navigates',
    area: 'autocomplete',
    title: 'A redirect loads the target page, in an SPA too',
    source:
      'ACC: autocomplete/redirect, then location.href = url; SC afterSearch(): search/redirect, then window.location.replace(url); B getPageLoadId: a new page load gets a new pageLoadId',
    invariant:
      'After a redirect the target URL is a new page load with its own pageLoadId: no event at the target carries the redirecting page’s pageLoadId, whatever the storefront’s router.',
    // the dropdown's own redirect: a results page's search/redirect shows search.redirect (redirect-routed
    // names that behaviour for it), so it says nothing of the autocomplete controller
    seenBy: ['autocomplete/redirect'],
    next: `${SNAP_AC}, with a redirect configured for a term`,
  },
  // ---- recommendations and bundles ----
  {
    id: 'recommendations.widget',
    area: 'recommendations',
    title: 'One render per widget response, with its tag',
    source:
      'RC: one controller per widget (profile tag); after each recommend response one render {responseId, tag}',
    invariant:
      'Each widget response is rendered once with its tag before its impressions, clicks and adds; several widgets share one page load.',
    seenBy: of('recommendations', ['render']),
    sends: of('recommendations', ['render']),
    next: 'a Snap RecommendationController per widget (profile tag), or `tracker.events.recommendations.*`',
  },
  {
    id: 'recommendations.events',
    area: 'recommendations',
    title: 'Widget events carry their tag and their response',
    source:
      'RC: impressions, clickthroughs and addtocarts carry `tag` and the responseId of the result’s response, once per uid per responseId',
    invariant:
      'A widget’s events carry the tag its responseId was issued for and name items that response served; an empty widget needs no impression.',
    seenBy: of('recommendations', ['impression', 'clickthrough', 'addtocart']),
    sends: of('recommendations', ['impression', 'clickthrough', 'addtocart']),
    next: 'a Snap RecommendationController per widget (profile tag), or `tracker.events.recommendations.*`',
  },
  {
    id: 'bundles.widget',
    area: 'bundles',
    title: 'Bundle widgets track on bundles/*',
    source: 'RC: bundles/render when the profile type is `bundle`; events as recommendations',
    invariant:
      'A bundle widget’s response is rendered on bundles/render with its tag before its events, which carry the same tag.',
    seenBy: of('bundles'),
    sends: of('bundles'),
    next: 'a Snap RecommendationController for a profile of type `bundle`, or `tracker.events.bundles.*`',
  },
  // ---- product page ----
  {
    id: 'product.pageview',
    area: 'product',
    title: 'Product page view',
    source:
      'T track.product.view from <script type="athos/track/product/view">: product/pageview {result:{parentId, uid, sku}}, sent at once',
    invariant:
      'A product page sends one product/pageview naming the product at its URL with ids that agree in the catalog (parentId = parentId || uid; a variant’s uid is its childUid); after a click, the product clicked.',
    seenBy: ['product/pageview'],
    sends: ['product/pageview'],
    next: 'a `<script type="athos/track/product/view">` with the product’s ids on product pages (or `tracker.events.product.pageView`)',
  },
  {
    id: 'product.pageview-ids',
    area: 'product',
    title: 'A product view’s ids in the tracker’s mapping order',
    source:
      'T track.product.view: parentId = parentId || uid || "", uid = uid || parentId || sku || ""; with a variant uid = childUid || uid, parentId = parentId || uid || childUid, sku = childSku || sku',
    invariant:
      'A product/pageview with a uid or a parentId has both: the tracker fills each from the others (given only a sku, it sends uid = sku beside an empty parentId).',
    seenBy: ['product/pageview'],
    next: 'a `<script type="athos/track/product/view">` with the product’s ids on product pages',
  },
  {
    id: 'product.pageview-per-load',
    area: 'product',
    title: 'Product views per page load: one, or one per SPA route',
    source:
      'T constructor: the page’s product scripts are read once (DomTargeter, after a setTimeout); T.retarget() reads the scripts an SPA route rendered since, on the same Beacon and pageLoadId',
    invariant:
      'One pageview per product script read: a product page load sends its view once, and the same product twice at once only from two scripts; an SPA that calls retarget() sends one more per product route on the same pageLoadId, and a reload within 10 s keeps it, so several pageviews of one page load are not in themselves a fault.',
    seenBy: ['product/pageview'],
    next: 'one product script on every product page (and `tracker.retarget()` after an SPA route renders one)',
  },
  // ---- cart ----
  {
    id: 'cart.ledger',
    area: 'cart',
    title: 'Cart changes follow the stored cart',
    source:
      'T constructor: page cart globals compared with the cart B stored; cart/add of the difference (qty = the increase) with the whole cart, cart/remove of what left; every */addtocart adds to the stored cart',
    invariant:
      'After a cart/add the cart is the one before plus what was added; after a cart/remove, minus what was removed (a quick add, a variant replacing its parent and the emptied cart before an order are the client’s own exceptions); a quick-added item is already in the stored cart, so a cart/add of it raises the cart beyond what the quick adds put there, and the cart each event carries is the whole cart: it holds every quick-added item unless a cart/remove of the same comparison names it. Cart events come before the order that buys the cart, which empties the stored cart: a cart/add of only what an order just bought, from its own page seconds after it, with none of it carted before, is the cart event sent after the order.',
    seenBy: ['cart/add', 'cart/remove'],
    sends: ['cart/add', 'cart/remove'],
    next: 'the page’s cart globals read by the Snap tracker on every page load (or `tracker.events.cart.add/remove`)',
  },
  {
    id: 'cart.quick-add-then-cart-add',
    area: 'cart',
    title: 'A quick add, then the page’s cart globals',
    source:
      'T constructor compares the globals with B’s stored cart, to which every */addtocart added its items (B, without a cart/add)',
    invariant:
      'A quick add sends no cart/add of its own; after it, the next cart/add of the item (a later page load’s comparison) adds only what the cart holds beyond the quick-added quantity; with no cart event before it in the visit (the stored cart unknown), its cart still holds the quick adds plus its results.',
    seenBy: ['cart/add'],
    next: 'quick adds on listings, then the cart page’s cart globals',
  },
  {
    id: 'cart.items',
    area: 'cart',
    title: 'Cart items with ids, quantity and price',
    source:
      'T: items need parentId|uid|sku, qty and price (else a log/snap error instead); mapped parentId: parentId || uid, uid: uid',
    invariant:
      'Every cart item has a uid, a quantity of at least 1 and a unit price, and names a product of the catalog; when the cart globals list items and none has an id, a qty and a price, the tracker sends a log/snap "cart globals missing properties" instead of a cart event.',
    seenBy: ['cart/add', 'cart/remove', 'log/snap'],
    sends: ['log/snap'],
    next: 'the page’s cart globals with uid, qty and price for each item',
  },
  // ---- order ----
  {
    id: 'order.transaction',
    area: 'order',
    title: 'Order on the thank-you page',
    source:
      'T track.order.transaction from <script type="athos/track/order/transaction">: orderId String(order.id || ""), totals Number(… || 0), city/state/country, results mapped',
    invariant:
      'An order carries its id and its lines (uid, qty, unit price) that name catalog products; it is sent once per order (a reload sends it again and counts it twice).',
    seenBy: ['order/transaction'],
    sends: ['order/transaction'],
    next: 'a `<script type="athos/track/order/transaction">` with `order` and `items` on the thank-you page',
  },
  {
    id: 'order.totals',
    area: 'order',
    title: 'Totals and unit prices',
    source:
      'T: transactionTotal before discounts, taxes and shipping, total after (OAS); lines qty and price as Numbers; never vat (a rate) from the tracker',
    invariant:
      'Totals are the order’s amounts in the same unit as the line prices, which are unit prices (not in cents, not a line total); a vat is a rate.',
    seenBy: ['order/transaction'],
    next: 'the order script’s totals and item prices',
  },
  {
    id: 'order.credit',
    area: 'order',
    title: 'Orders are credited to what the shopper clicked',
    source:
      'the sandbox’s attribution model (the provider publishes none): the latest click or add of the same userId on the same product within the window',
    invariant:
      'An order line matches an earlier click or add of the same shopper when search led to it.',
    seenBy: ['order/transaction'],
    next: 'clicks and adds tracked on listings, then an order by the same userId',
    uncheckable:
      'a line with no crediting interaction is a purchase search did not lead to, as often as a lost click: the credit is shown, never judged',
  },
  // ---- login ----
  {
    id: 'login.shopper',
    area: 'login',
    title: 'Login on every page load of a logged-in shopper',
    source:
      'snap-preact Snap.tsx: tracker.track.shopper.login({id: context.shopper.id}) on every page load whose context names the shopper, as T does for an athos/track/shopper/login script; B events.shopper.login queues the login whenever the id is set (a new id is first stored by setShopperId: cookie 18 months, localStorage), and the 300 ms queue sends a page load’s logins as one request; getContext puts the id on every later event; no logout',
    invariant:
      'A login carries a shopperId; a page load of a logged-in shopper sends one (again on a reload within 10 s or an SPA route that renders a login script); a visit’s shopperId appears or changes only through a login, on any event of the visit; once carried, every event created after it carries one.',
    seenBy: ['shopper/login'],
    sends: ['shopper/login'],
    next: 'the page’s `shopper.id` global (Snap tracker config) once the shopper is logged in',
  },
  // ---- identity ----
  {
    id: 'identity.context',
    area: 'identity',
    title: 'Every event carries the client’s context',
    source:
      'B getContext(): timestamp at creation, pageUrl = window.location.href, userId, sessionId, pageLoadId, initiator; POSTed as text/plain',
    invariant:
      'Each request is one the real service accepts, with the ids of its page load, and a timestamp from when the event was created (events of one page do not all share one instant).',
    seenBy: ['*'],
    next: 'the provider’s beacon client (`@athoscommerce/beacon`) or Snap',
  },
  {
    id: 'identity.ids-per-page-load',
    area: 'identity',
    title: 'A page load reads its userId and sessionId once',
    source:
      'B getContext(): `userId: this.userId || this.getUserId()`, the same for sessionId; getStoredId() reads the cookie or localStorage once, renews their timestamp and keeps the value on the instance',
    invariant:
      'Every event of a page load, and every search it makes, carries the same userId and sessionId, however long the page stays open.',
    seenBy: ['*'],
    next: 'the provider’s beacon client (`@athoscommerce/beacon`) or Snap',
  },
  {
    id: 'identity.page-load',
    area: 'identity',
    title: 'One pageLoadId per page load',
    source:
      'B getPageLoadId(): new per full page load, the stored one reused for the same href under 10 s; renewed inside an SPA only by `pageLoad()` (which Snap never calls)',
    invariant:
      'All events of one page load share its pageLoadId, sessionId and userId; a responseId belongs to the page load that searched.',
    seenBy: ['*'],
    next: 'the provider’s beacon client (`@athoscommerce/beacon`) or Snap',
  },
  {
    id: 'identity.page-load-one-page',
    area: 'identity',
    title: 'A pageLoadId is one page load',
    source:
      'B constructor → getPageLoadId(): one per Beacon, made when the page loads; reused only for the same href within 10 s (PAGE_LOAD_ID_EXPIRATION)',
    invariant:
      'A pageLoadId is never carried by two documents: its events share one origin, and none is created at a redirect’s target after the redirect.',
    seenBy: ['*'],
    next: 'one Beacon per page load (`@athoscommerce/beacon`) or Snap',
  },
  {
    id: 'identity.page-load-spa',
    area: 'identity',
    title:
      'An SPA route keeps the page load’s pageLoadId (a route renewed with pageLoad() is sent as a page load)',
    source:
      'B: the pageLoadId is made in the constructor and renewed only by `pageLoad()`, which the beacon package’s README advises calling on an SPA’s navigation; Snap creates one tracker per page load and calls no `pageLoad()` per route',
    invariant:
      'Routes of an SPA either share the pageLoadId of the page load that started it (Snap) or each start a new one with `pageLoad()` before their events (the beacon package’s advice); either way each route’s events carry one pageLoadId, and its pageUrl is the route’s address.',
    seenBy: ['*'],
    next: 'nothing, if the storefront calls `beacon.pageLoad()` on each route (as the beacon package advises) or has no client-side routes: each route is then a page load of its own, whose beacons carry nothing that tells it from a page loaded from the server, so this row stays unseen with nothing missing (leave this id out of `expect`). It is seen where one Beacon (or Snap tracker) lives for the life of the SPA, with a route: a re-search, a filter or a product opened without loading a page, its events under the pageLoadId of the page load, as Snap sends them',
    uncheckable:
      'a route that starts a new pageLoadId with `pageLoad()` sends its events as a page load of its own, with its own search and render: B’s context (timestamp, pageUrl, userId, sessionId, pageLoadId, initiator) carries no referrer nor anything else a renewed id differs by, so that is the traffic of a storefront without an SPA, and correct either way',
  },
  {
    id: 'identity.page-url',
    area: 'identity',
    title: 'pageUrl is the page’s href when the event is created',
    source:
      'B getContext(): pageUrl = config.href || window.location.href, taken when the event is created (a merged request carries its first event’s)',
    invariant:
      'Every event’s pageUrl is an absolute URL, of the origin of its page load; events created after an SPA route carry the new route’s URL.',
    seenBy: ['*'],
    next: 'the provider’s beacon client (`@athoscommerce/beacon`) or Snap, without an `href` of your own',
  },
  {
    id: 'identity.session',
    area: 'identity',
    title: 'Session and user ids live as the client keeps them',
    source:
      'B: userId 18 months, sessionId 30 minutes, in cookies and localStorage of the storefront’s domain; both read once per page load (getContext keeps this.sessionId), when getStoredId rolls the 30 minutes',
    invariant:
      'A visit keeps one userId; a page load keeps the sessionId it read; a page load that begins more than 30 minutes after every event of the visit carries a new one, and one that begins within 30 minutes of the visit’s latest page load keeps it.',
    seenBy: ['*'],
    next: 'the provider’s beacon client on every page of the visit, checkout included (pass the ids on to another domain)',
  },
  {
    id: 'identity.user-per-browser',
    area: 'identity',
    title: 'One userId per browser',
    source:
      'B getUserId(): made once and stored 18 months in a cookie and localStorage of the storefront’s domain; the sessionId beside it, 30 minutes rolling; B setShopperId stores the shopperId beside them and keeps the userId (a login starts no new identity)',
    invariant:
      'A userId lives in one browser: while one of its sessions is alive no other session carries it; two browsers (or devices) never share one. A browser keeps its userId across a login: a new userId there means its storage was cleared or a new Beacon given new ids, so an order under a userId first seen minutes after another userId of the same browser (same origin and User-Agent) held the order’s cart, its own visit carting nothing, is credited to nothing the shopper did before.',
    seenBy: ['*'],
    next: 'the provider’s beacon client on every page, never a userId of your own',
  },
  {
    id: 'identity.cross-domain',
    area: 'identity',
    title: 'Checkout and order on another domain',
    source:
      'B: userId, sessionId and shopperId live in cookies and localStorage of the storefront’s domain; a checkout on another domain starts new ones unless the integration passes them on',
    invariant:
      'A checkout on another domain either starts a visit of its own or carries all the ids it was given (userId with sessionId, and the shopperId), never one without the other, and a pageLoadId of its own. A visit of its own is credited nothing of the storefront’s: an order that begins its visit on another origin, buying the cart a storefront visit held minutes before, was not given the ids.',
    seenBy: ['order/transaction'],
    next: 'the provider’s beacon client on the checkout domain, given the storefront’s userId, sessionId and shopperId',
  },
  {
    id: 'identity.attribution',
    area: 'identity',
    title: 'Attribution kept for the session',
    source:
      'B getContext(): `attribution: this.attribution || this.getAttribution()`; getAttribution(): context.attribution [{type, id}] from the athos_attribution (else ss_attribution) parameter of the href, decoded and split at ":" (ignored without a type and an id), stored (cookie renewed for 30 min, localStorage) and read for every event; entries only added; forgotten with the session',
    invariant:
      'An event created at a URL whose athos_attribution names type:id carries an attribution, and an attribution taken from a landing URL rides on every later event of the session: once an event of a visit carried it, none created after it lacks it.',
    seenBy: ['*'],
    next: 'a landing URL with `athos_attribution=type:id` (e-mail recommendations)',
  },
  // ---- mode ----
  {
    id: 'mode.development',
    area: 'mode',
    title: 'Development mode: dev beacons and test searches',
    source:
      'Snap.tsx: NODE_ENV, config.mode, ?dev or the athos-Dev cookie; in development beacons carry context.dev: true and searches test=true; in production neither',
    invariant:
      'A storefront under development marks every beacon dev and every search test; a visit is one mode throughout.',
    seenBy: ['*'],
    next: 'mode: development in the client config (or `?dev` on the page URL) while integrating',
  },
];

const BY_ID = new Map(BEHAVIOURS.map((b) => [b.id, b]));

/**
 * The category rows of search behaviours a category page shows as the search page does (SC with page type
 * category runs the same controller): a rule that guards the search one on category responses guards this
 * one too, and its finding on a category page names it (judge.ts behaviourOfKind), never the search one.
 */
export const CATEGORY_OF: Readonly<Record<string, string>> = {
  'search.one-response-shown': 'category.one-response-shown',
  'search.backfill': 'category.backfill',
  'search.request-context': 'category.request-context',
  'search.items-served': 'category.items-served',
  'search.banners': 'category.banners',
};

export function behaviour(id: string): Behaviour | undefined {
  return BY_ID.get(id);
}

/** The behaviours whose requests are their own events (`sends`), in the model's order. */
export const SENDING_BEHAVIOURS: readonly string[] = BEHAVIOURS.filter((b) => b.sends).map(
  (b) => b.id,
);

const BY_ENDPOINT = new Map(
  BEHAVIOURS.flatMap((b) => (b.sends ?? []).map((e) => [e, b.id] as const)),
);

/** The behaviour whose event a request to `endpoint` (`search/clickthrough`) is; undefined for one the model has none of. */
export function sendingBehaviour(endpoint: string): string | undefined {
  return BY_ENDPOINT.get(endpoint);
}
