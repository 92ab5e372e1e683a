// The timeline rules, in the order lists and docs show them. Each module declares its meta and its check;
// adding a rule = its module, its line here and its tester cases (test/rules). Nothing else names it.
import type { PageRule, ResponseRule } from './types';
import type { VisitRule } from '../../visits/rules/types';
import { schema } from './schema';
import { missingRender } from './missing-render';
import { missingRenderBackfill } from './missing-render-backfill';
import { order } from './order';
import { afterRedirect } from './after-redirect';
import { duplicateRender } from './duplicate-render';
import { duplicateImpression } from './duplicate-impression';
import { clickNotImpressed } from './click-not-impressed';
import { clickNotImpressedAtExit } from './click-not-impressed-at-exit';
import { cartNotImpressed } from './cart-not-impressed';
import { clickRepeated } from './click-repeated';
import { clickUnderOtherResponse } from './click-under-other-response';
import { responseIdReused } from './responseid-reused';
import { responseIdCrossKind } from './responseid-cross-kind';
import { contextDrift } from './context-drift';
import { identityMissing } from './identity-missing';
import { timestampSkew } from './timestamp-skew';
import { devFlag } from './dev-flag';
import { noImpression } from './no-impression';
import { noImpressionOfResults } from './no-impression-of-results';
import { responseIdUnknown } from './responseid-unknown';
import { itemNotInResponse } from './item-not-in-response';
import { inlineBannerAsProduct } from './inline-banner-as-product';
import { bannerNotInResponse } from './banner-not-in-response';
import { inlineBannerInBanners } from './inline-banner-in-banners';
import { redirectMismatch } from './redirect-mismatch';
import { parentIdMismatch } from './parentid-mismatch';
import { parentIdUnclear } from './parentid-unclear';
import { skuOfAnotherItem } from './sku-of-another-item';
import { itemNotInCatalog, itemNotInCatalogOfVisit } from './item-not-in-catalog';
import { responseWithoutTest } from './response-without-test';
import { testWithoutDev } from './test-without-dev';
import { impressionBurst } from './impression-burst';
import { upstreamDisagrees } from './upstream-disagrees';
import { requestRefused } from './request-refused';
import { responseIdStale } from './responseid-stale';
import { queueSplit } from './queue-split';
import { responseReplaced } from './response-replaced';
import { redirectFromTarget } from './redirect-from-target';
import { redirectWithRender } from './redirect-with-render';
import { impressionBeforeVisible } from './impression-before-visible';
import { pageloadReusedLate } from './pageload-reused-late';
import { pageloadShared } from './pageload-shared';
import { pageUrlNotHref } from './pageurl-not-href';
import { redirectRouted } from './redirect-routed';
import { quickAddQty } from './quick-add-qty';
import { quickAddWithCartAdd } from './quick-add-with-cart-add';

/** Rules over one response (kind + responseId + tag) of a page: they run when its events change. */
export const RESPONSE_RULES: readonly ResponseRule[] = [
  missingRender,
  missingRenderBackfill,
  order,
  afterRedirect,
  redirectFromTarget,
  redirectWithRender,
  duplicateRender,
  duplicateImpression,
  clickNotImpressed,
  clickNotImpressedAtExit,
  clickUnderOtherResponse,
  clickRepeated,
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
  itemNotInResponse,
  inlineBannerAsProduct,
  bannerNotInResponse,
  inlineBannerInBanners,
  redirectMismatch,
  parentIdMismatch,
  parentIdUnclear,
  skuOfAnotherItem,
  itemNotInCatalog,
  responseWithoutTest,
  testWithoutDev,
];

/** Rules over a page's tallies (every request of the page, and the real service's answers). */
export const PAGE_RULES: readonly PageRule[] = [
  schema,
  requestRefused,
  contextDrift,
  identityMissing,
  timestampSkew,
  devFlag,
  upstreamDisagrees,
  pageloadShared,
  pageUrlNotHref,
  redirectRouted,
  quickAddQty,
  quickAddWithCartAdd,
];

/**
 * Every timeline rule in the order lists, docs and a page's findings show them: what the service refuses
 * first, then each response's rules, then the rest of the page's.
 */
export const TIMELINE_RULES: ReadonlyArray<ResponseRule | PageRule> = [
  schema,
  requestRefused,
  ...RESPONSE_RULES,
  contextDrift,
  identityMissing,
  timestampSkew,
  devFlag,
  upstreamDisagrees,
  pageloadShared,
  pageUrlNotHref,
  redirectRouted,
  quickAddQty,
  quickAddWithCartAdd,
];

/** The visit halves of timeline rules: run with the visit rules over a page's product, cart and order events. */
export const VISIT_HALVES: readonly VisitRule[] = [itemNotInCatalogOfVisit];
