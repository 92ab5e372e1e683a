// Every rule the sandbox has, in one list, and what is read from their declarations: the rule ids (config
// validation, the `rule` filter), `GET /_sandbox/rules`, the README's rule table, the order findings are
// listed in, and the judge's dispatch tables (judge.ts builds them from RULES by what each meta judges).
// Adding a rule = its module, its line in RULES, its tester cases (test/rules/cases): nothing else names it.
import { RULE_APPLIES_TO, type RuleInfoDto } from '../../../shared/timeline';
import type { Rule } from '../rule';
import type { RuleMeta } from '../rule-meta';
import { schema } from './rules/schema';
import { requestRefused } from './rules/request-refused';
import { missingRender } from './rules/missing-render';
import { missingRenderBackfill } from './rules/missing-render-backfill';
import { missingRenderAtExit } from './rules/missing-render-at-exit';
import { responseIdEmpty } from './rules/responseid-empty';
import { order } from './rules/order';
import { afterRedirect } from './rules/after-redirect';
import { redirectFromTarget } from './rules/redirect-from-target';
import { redirectWithRender } from './rules/redirect-with-render';
import { renderOfCount } from './rules/render-of-count';
import { duplicateRender } from './rules/duplicate-render';
import { duplicateImpression } from './rules/duplicate-impression';
import { clickNotImpressed } from './rules/click-not-impressed';
import { clickNotImpressedAtExit } from './rules/click-not-impressed-at-exit';
import { clickUnderOtherResponse } from './rules/click-under-other-response';
import { clickRepeated } from './rules/click-repeated';
import { clickWithAdd } from './rules/click-with-add';
import { cartNotImpressed } from './rules/cart-not-impressed';
import { responseIdReused } from './rules/responseid-reused';
import { responseIdCrossKind } from './rules/responseid-cross-kind';
import { responseIdStale } from './rules/responseid-stale';
import { responseReplaced } from './rules/response-replaced';
import { noImpression } from './rules/no-impression';
import { noImpressionOfResults } from './rules/no-impression-of-results';
import { impressionBurst } from './rules/impression-burst';
import { impressionBeforeVisible } from './rules/impression-before-visible';
import { queueSplit } from './rules/queue-split';
import { pageloadReusedLate } from './rules/pageload-reused-late';
import { responseIdUnknown } from './rules/responseid-unknown';
import { responseIdOtherVisitor } from './rules/responseid-other-visitor';
import { pageurlStale } from './rules/pageurl-stale';
import { redirectNotFollowed } from './rules/redirect-not-followed';
import { redirectUnexpected } from './rules/redirect-unexpected';
import { itemNotInResponse } from './rules/item-not-in-response';
import { inlineBannerAsProduct } from './rules/inline-banner-as-product';
import { bannerNotInResponse } from './rules/banner-not-in-response';
import { inlineBannerInBanners } from './rules/inline-banner-in-banners';
import { bannerUidMalformed } from './rules/banner-uid-malformed';
import { inlineBannerNotImpressed } from './rules/inline-banner-not-impressed';
import { redirectMismatch } from './rules/redirect-mismatch';
import { parentIdMismatch } from './rules/parentid-mismatch';
import { parentIdUnclear } from './rules/parentid-unclear';
import { tileUidVariant } from './rules/tile-uid-variant';
import { skuOfAnotherItem } from './rules/sku-of-another-item';
import { itemNotInCatalog } from './rules/item-not-in-catalog';
import { itemIdsDisagree } from './rules/item-ids-disagree';
import { responseWithoutTest } from './rules/response-without-test';
import { testWithoutDev } from './rules/test-without-dev';
import { contextDrift } from './rules/context-drift';
import { identityMissing } from './rules/identity-missing';
import { timestampSkew } from './rules/timestamp-skew';
import { devFlag } from './rules/dev-flag';
import { upstreamDisagrees } from './rules/upstream-disagrees';
import { pageloadShared } from './rules/pageload-shared';
import { pageUrlNotHref } from './rules/pageurl-not-href';
import { redirectRouted } from './rules/redirect-routed';
import { searchNotRendered } from './rules/search-not-rendered';
import { quickAddQty } from './rules/quick-add-qty';
import { quickAddRunningQty } from './rules/quick-add-running-qty';
import { quickAddWithCartAdd } from './rules/quick-add-with-cart-add';
import { orderIdMissing } from '../visits/rules/order-id-missing';
import { orderWithoutLines } from '../visits/rules/order-without-lines';
import { orderIdsUnlikeCart } from '../visits/rules/order-ids-unlike-cart';
import { orderDuplicate } from '../visits/rules/order-duplicate';
import { orderReloaded } from '../visits/rules/order-reloaded';
import { orderTotals } from '../visits/rules/order-totals';
import { priceUnitMismatch } from './rules/price-unit-mismatch';
import { quickAddPrice } from './rules/quick-add-price';
import { duplicateSearch } from './rules/duplicate-search';
import { redirectNotSent } from './rules/redirect-not-sent';
import { vatAsPercent } from '../visits/rules/vat-as-percent';
import { lineValuesImpossible } from '../visits/rules/line-values-impossible';
import { cartInconsistent } from '../visits/rules/cart-inconsistent';
import { visitUserChanged } from '../visits/rules/visit-user-changed';
import { visitDevMixed } from '../visits/rules/visit-dev-mixed';
import { sessionExpired } from '../visits/rules/session-expired';
import { shopperWithoutLogin } from '../visits/rules/shopper-without-login';
import { loginRepeated } from '../visits/rules/login-repeated';
import { loginWithoutShopper } from '../visits/rules/login-without-shopper';
import { shopperDropped } from '../visits/rules/shopper-dropped';
import { attributionLost } from '../visits/rules/attribution-lost';
import { attributionNotRead } from './rules/attribution-not-read';
import { sessionRenewed } from '../visits/rules/session-renewed';
import { orderOtherDomain } from '../visits/rules/order-other-domain';
import { orderUserReset } from '../visits/rules/order-user-reset';
import { cartAfterOrder } from '../visits/rules/cart-after-order';
import { itemIdsUnmapped } from '../visits/rules/item-ids-unmapped';
import { pageviewNotClicked } from '../visits/rules/pageview-not-clicked';
import { clickNotSent } from '../visits/rules/click-not-sent';
import { cartAddTwice } from '../visits/rules/cart-add-twice';
import { cartPrintedEmpty } from '../visits/rules/cart-printed-empty';
import { cartGlobalsInvalid } from '../visits/rules/cart-globals-invalid';
import { orderPlacedTwice } from '../visits/rules/order-placed-twice';
import { orderCurrencyMismatch } from '../visits/rules/order-currency-mismatch';
import { pageviewOtherUrl } from '../visits/rules/pageview-other-url';
import { pageviewSkuMismatch } from '../visits/rules/pageview-sku-mismatch';
import { lineSkuMismatch } from '../visits/rules/line-sku-mismatch';
import { pageviewRepeated } from '../visits/rules/pageview-repeated';

/**
 * Every rule, in the order lists, docs and a page's findings show them: what the service refuses first,
 * then each response's rules, then the rest of the page's, then the visit's.
 */
export const RULES: readonly Rule[] = [
  schema,
  requestRefused,
  missingRender,
  missingRenderBackfill,
  missingRenderAtExit,
  responseIdEmpty,
  order,
  afterRedirect,
  redirectFromTarget,
  redirectWithRender,
  renderOfCount,
  duplicateRender,
  duplicateImpression,
  clickNotImpressed,
  clickNotImpressedAtExit,
  clickUnderOtherResponse,
  clickRepeated,
  clickWithAdd,
  cartNotImpressed,
  responseIdReused,
  responseIdCrossKind,
  responseIdStale,
  responseReplaced,
  noImpression,
  noImpressionOfResults,
  impressionBurst,
  impressionBeforeVisible,
  queueSplit,
  pageloadReusedLate,
  // search provenance: silent unless the sandbox issued the responseId (or, for the catalog rule, indexed the site)
  responseIdUnknown,
  responseIdOtherVisitor,
  pageurlStale,
  redirectNotFollowed,
  redirectUnexpected,
  itemNotInResponse,
  inlineBannerAsProduct,
  bannerNotInResponse,
  inlineBannerInBanners,
  bannerUidMalformed,
  inlineBannerNotImpressed,
  redirectMismatch,
  parentIdMismatch,
  parentIdUnclear,
  tileUidVariant,
  skuOfAnotherItem,
  itemNotInCatalog,
  itemIdsDisagree,
  responseWithoutTest,
  testWithoutDev,
  contextDrift,
  identityMissing,
  timestampSkew,
  devFlag,
  upstreamDisagrees,
  pageloadShared,
  pageUrlNotHref,
  attributionNotRead,
  redirectRouted,
  quickAddQty,
  quickAddRunningQty,
  quickAddWithCartAdd,
  searchNotRendered,
  // the visit: its orders, carts, identity and attribution
  orderIdMissing,
  orderWithoutLines,
  orderIdsUnlikeCart,
  orderDuplicate,
  orderReloaded,
  orderTotals,
  priceUnitMismatch,
  quickAddPrice,
  duplicateSearch,
  redirectNotSent,
  vatAsPercent,
  lineValuesImpossible,
  cartInconsistent,
  visitUserChanged,
  visitDevMixed,
  sessionExpired,
  shopperWithoutLogin,
  loginRepeated,
  loginWithoutShopper,
  shopperDropped,
  attributionLost,
  sessionRenewed,
  orderOtherDomain,
  orderUserReset,
  cartAfterOrder,
  itemIdsUnmapped,
  pageviewNotClicked,
  clickNotSent,
  cartAddTwice,
  cartPrintedEmpty,
  cartGlobalsInvalid,
  orderPlacedTwice,
  orderCurrencyMismatch,
  pageviewOtherUrl,
  pageviewSkuMismatch,
  lineSkuMismatch,
  pageviewRepeated,
];

/** The metas in the list's order; an id declared twice is refused at load. */
export const RULE_METAS: readonly RuleMeta[] = (() => {
  const seen = new Set<string>();
  for (const { meta } of RULES) {
    if (seen.has(meta.id)) throw new Error(`two rules of RULES declare the id ${meta.id}`);
    seen.add(meta.id);
  }
  return RULES.map((r) => r.meta);
})();

export const RULE_IDS: readonly string[] = RULE_METAS.map((m) => m.id);

/** `GET /_sandbox/rules`: each rule as its meta declares it. */
export function ruleInfos(): RuleInfoDto[] {
  return RULE_METAS.map(ruleInfo);
}

/** One rule as `GET /_sandbox/rules` lists it. */
export function ruleInfo(m: RuleMeta): RuleInfoDto {
  return {
    id: m.id,
    title: m.title,
    description: m.description,
    expects: m.expects,
    appliesTo: RULE_APPLIES_TO.filter((k) => m.appliesTo.includes(k)),
    defaultSeverity: m.defaultSeverity,
    fix: m.fix,
    scope: m.scope ?? 'page',
  };
}

export function ruleMeta(id: string): RuleMeta | undefined {
  return BY_ID.get(id);
}

const BY_ID = new Map(RULE_METAS.map((m) => [m.id, m]));

/**
 * Where a rule's findings are about more than their page (meta `scope`: session or site, listed once per
 * session or site); undefined for a page-scope rule.
 */
export function widerScope(id: string): 'session' | 'site' | undefined {
  const scope = BY_ID.get(id)?.scope;
  return scope === 'session' || scope === 'site' ? scope : undefined;
}
