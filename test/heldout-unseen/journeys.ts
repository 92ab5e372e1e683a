// The unseen set's clean journeys: storefront visits as the provider's client sends them, edge cases
// included. Their builders (search-journeys.ts, visit-journeys.ts) also play the faults built on them: `flag`
// names one (see faults.ts), null plays the clean journey. Written from what the client sends (the client
// facts and the client's source) only.
import { Visit, World } from '../heldout/client';
import { PAGE_KINDS, type PageKind, type PagedClean } from '../helpers/heldout-set';
import {
  autocompleteSubmit,
  autocompleteToProduct,
  backfill,
  banners,
  categoryQuickAdd,
  categoryRedirect,
  devSearch,
  emptySearch,
  infiniteScroll,
  merchRedirect,
  quickAddThenBack,
  quickClick,
  reloadWithin10s,
  searchCacheBack,
  searchToProduct,
  singleResult,
  spaFilters,
  twoTabs,
  utmCached,
} from './search-journeys';
import type { Flag } from './traffic';
import {
  cartChanges,
  checkoutOtherDomain,
  emailAttribution,
  emptyWidget,
  loginJourney,
  orderFlow,
  orderReload,
  productRecs,
  sessionRollover,
  variantProduct,
} from './visit-journeys';

/** The client-facts sections; a fault's principle is the section whose sentence it contradicts. */
export const PRINCIPLES = [
  'search-render',
  'page-load',
  'infinite-scroll',
  'impressions',
  'click-addtocart',
  'redirect',
  'autocomplete',
  'recommendations',
  'dev-test',
  'product-page',
  'cart',
  'order',
  'login-identity',
  'empty',
] as const;
export type Principle = (typeof PRINCIPLES)[number];

export { PAGE_KINDS, type PageKind };

export type CleanJourney = PagedClean<Principle>;

// ----- the list -----

export const CLEAN: CleanJourney[] = [
  {
    id: 'search-to-product',
    principle: 'search-render',
    pages: ['search', 'product'],
    description: 'a search, four tiles seen, a click on one and its product page',
    build: searchToProduct,
  },
  {
    id: 'search-cache-back',
    principle: 'search-render',
    pages: ['search', 'product'],
    description:
      'page 1, page 2, back to page 1 served from the client cache (same responseId rendered and impressed again), a click',
    build: searchCacheBack,
  },
  {
    id: 'quick-add-then-back',
    principle: 'search-render',
    pages: ['search'],
    description:
      'a quick add, page 2, back to page 1: the cart in the request changed, so a new response',
    build: quickAddThenBack,
  },
  {
    id: 'utm-cached',
    principle: 'search-render',
    pages: ['search', 'product'],
    description:
      'a campaign landing (utm_*), a product, back to the same search without utm: the cached response rendered on a new page load',
    build: utmCached,
  },
  {
    id: 'empty-search',
    principle: 'empty',
    pages: ['search', 'autocomplete'],
    description: 'a search with no results (render, no impressions), a new term, an empty dropdown',
    build: emptySearch,
  },
  {
    id: 'empty-widget',
    principle: 'empty',
    pages: ['product', 'recommendations'],
    description:
      'a product page with a widget whose profile returns nothing (a render, no impressions) beside one that does',
    build: emptyWidget,
  },
  {
    id: 'spa-filters',
    principle: 'page-load',
    pages: ['search', 'product'],
    description: 'a filter and a sort change in the SPA: new searches and renders, one pageLoadId',
    build: spaFilters,
  },
  {
    id: 'reload-within-10s',
    principle: 'page-load',
    pages: ['search'],
    description: 'a reload within 10 s keeps the pageLoadId; a later reload starts a new one',
    build: reloadWithin10s,
  },
  {
    id: 'two-tabs',
    principle: 'page-load',
    pages: ['search', 'product', 'recommendations'],
    description:
      'a product opened in a second tab while the first tab goes on: two pageLoadIds, one session',
    build: twoTabs,
  },
  {
    id: 'quick-click',
    principle: 'click-addtocart',
    pages: ['search', 'product'],
    description: 'a tile clicked 600 ms after it appeared: the click without any impression',
    build: quickClick,
  },
  {
    id: 'dev-search',
    principle: 'dev-test',
    pages: ['search', 'product'],
    dev: true,
    description:
      'development mode: dev beacons, test searches, no cache (back to page 1 is a new response)',
    build: devSearch,
  },
  {
    id: 'banners',
    principle: 'impressions',
    pages: ['search'],
    description: 'a header banner with data-banner-id and an inline banner: impressed and clicked',
    build: banners,
  },
  {
    id: 'single-result',
    principle: 'redirect',
    pages: ['search', 'product', 'recommendations'],
    description:
      'a single-result redirect: the queued render is lost with the page, then the product page',
    build: singleResult,
  },
  {
    id: 'merch-redirect',
    principle: 'redirect',
    pages: ['search'],
    description:
      'a term with a merchandising redirect: search/redirect, no render, the page replaced',
    build: merchRedirect,
  },
  {
    id: 'category-redirect',
    principle: 'redirect',
    pages: ['category'],
    description:
      'a category page with a merchandising redirect: search/redirect (the search endpoint)',
    build: categoryRedirect,
  },
  {
    id: 'infinite-scroll',
    principle: 'infinite-scroll',
    pages: ['search', 'product'],
    description:
      'page 2 by infinite scroll: its own render and responseId, page-1 tiles not re-sent',
    build: infiniteScroll,
  },
  {
    id: 'backfill',
    principle: 'infinite-scroll',
    pages: ['search', 'product'],
    description:
      "a restored infinite list: one render (page 1's), later pages' tiles with their own responseIds",
    build: backfill,
  },
  {
    id: 'autocomplete-to-product',
    principle: 'autocomplete',
    pages: ['autocomplete', 'product'],
    description: 'two dropdown responses, tiles impressed, a repeated term sends nothing, a click',
    build: autocompleteToProduct,
  },
  {
    id: 'autocomplete-submit',
    principle: 'autocomplete',
    pages: ['autocomplete', 'search'],
    description:
      'a dropdown term with a redirect (autocomplete/redirect), then a term submitted to search',
    build: autocompleteSubmit,
  },
  {
    id: 'category-quick-add',
    principle: 'cart',
    pages: ['category', 'product', 'cart'],
    description:
      'a quick add on a category page, a product page, then the cart page with one more of it',
    build: categoryQuickAdd,
  },
  {
    id: 'product-recs',
    principle: 'recommendations',
    pages: ['product', 'recommendations'],
    description:
      'a product page with two widgets and a bundle: renders, impressions, a bundle add, a click',
    build: productRecs,
  },
  {
    id: 'variant-product',
    principle: 'product-page',
    pages: ['search', 'product', 'cart'],
    description:
      'a quick add of a parent, its variant page, a cart listing another variant (add of it, remove of the parent)',
    build: variantProduct,
  },
  {
    id: 'cart-changes',
    principle: 'cart',
    pages: ['product', 'cart', 'search'],
    description: 'a cart filled, quantities raised and lowered, then emptied (remove with cart [])',
    build: cartChanges,
  },
  {
    id: 'order-flow',
    principle: 'order',
    pages: ['product', 'cart', 'order'],
    description:
      'cart, checkout, a thank-you page whose cart is already empty: remove just before the order',
    build: orderFlow,
  },
  {
    id: 'order-reload',
    principle: 'order',
    pages: ['cart', 'order'],
    description:
      'a thank-you page reloaded within 10 s: the same order again on the same pageLoadId',
    build: orderReload,
  },
  {
    id: 'checkout-other-domain',
    principle: 'login-identity',
    pages: ['cart', 'order'],
    description:
      'a cart on the shop, the order on a hosted checkout domain (a new userId and sessionId there)',
    build: checkoutOtherDomain,
  },
  {
    id: 'login',
    principle: 'login-identity',
    pages: ['login', 'search', 'cart'],
    description:
      'a login (batched shopper/login), then a search, a quick add and the cart as that shopper',
    build: loginJourney,
  },
  {
    id: 'email-attribution',
    principle: 'login-identity',
    pages: ['product', 'recommendations', 'search'],
    description:
      'a landing from an e-mail recommendation: its attribution kept on every later page of the session',
    build: emailAttribution,
  },
  {
    id: 'session-rollover',
    principle: 'login-identity',
    pages: ['search'],
    description: 'a search, 35 idle minutes, the same search in a new session',
    build: sessionRollover,
  },
];

export function cleanById(id: string): CleanJourney {
  const c = CLEAN.find((x) => x.id === id);
  if (!c) throw new Error(`no clean journey ${id}`);
  return c;
}

/** Plays a clean journey, or one of its faults; the world has the journey's name either way. */
export function play(c: CleanJourney, flag: Flag): World {
  const world = new World(c.id);
  const v = new Visit(world, { dev: c.dev ?? false });
  c.build(v, flag);
  // let every queued beacon and pending impression go out
  v.wait(10_000);
  return world;
}
