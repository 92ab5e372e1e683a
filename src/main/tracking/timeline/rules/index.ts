// The rule registry: response-scope rules run on the response (of any kind) an event touched, page-scope rules on
// its page. Adding a rule = one module here plus its entry in the catalogue (src/shared/timeline.ts).
import type { PageRule, ResponseRule } from './types';
import { schema } from './schema';
import { missingRender } from './missing-render';
import { order } from './order';
import { afterRedirect } from './after-redirect';
import { duplicateRender } from './duplicate-render';
import { duplicateImpression } from './duplicate-impression';
import { clickNotImpressed } from './click-not-impressed';
import { cartNotImpressed } from './cart-not-impressed';
import { responseIdReused } from './responseid-reused';
import { responseIdCrossKind } from './responseid-cross-kind';
import { contextDrift } from './context-drift';
import { timestampSkew } from './timestamp-skew';
import { devFlag } from './dev-flag';
import { noImpression } from './no-impression';
import { responseIdUnknown } from './responseid-unknown';
import { itemNotInResponse } from './item-not-in-response';
import { bannerNotInResponse } from './banner-not-in-response';
import { inlineBannerInBanners } from './inline-banner-in-banners';
import { redirectMismatch } from './redirect-mismatch';
import { parentIdMismatch } from './parentid-mismatch';
import { itemNotInCatalog } from './item-not-in-catalog';
import { responseWithoutTest } from './response-without-test';
import { testWithoutDev } from './test-without-dev';
import { impressionBurst } from './impression-burst';
import { upstreamDisagrees } from './upstream-disagrees';
import { requestRefused } from './request-refused';
import { responseIdStale } from './responseid-stale';

export const RESPONSE_RULES: readonly ResponseRule[] = [
  missingRender,
  order,
  afterRedirect,
  duplicateRender,
  duplicateImpression,
  clickNotImpressed,
  cartNotImpressed,
  responseIdReused,
  responseIdCrossKind,
  responseIdStale,
  noImpression,
  impressionBurst,
  // search provenance: silent unless the sandbox issued the responseId (or, for the catalog rule, indexed the site)
  responseIdUnknown,
  itemNotInResponse,
  bannerNotInResponse,
  inlineBannerInBanners,
  redirectMismatch,
  parentIdMismatch,
  itemNotInCatalog,
  responseWithoutTest,
  testWithoutDev,
];

export const PAGE_RULES: readonly PageRule[] = [
  schema,
  requestRefused,
  contextDrift,
  timestampSkew,
  devFlag,
  upstreamDisagrees,
];
