// The rule registry: response-scope rules run on the search response an event touched, page-scope rules on
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
import { contextDrift } from './context-drift';
import { timestampSkew } from './timestamp-skew';
import { devFlag } from './dev-flag';
import { noImpression } from './no-impression';

export const RESPONSE_RULES: readonly ResponseRule[] = [
  missingRender,
  order,
  afterRedirect,
  duplicateRender,
  duplicateImpression,
  clickNotImpressed,
  cartNotImpressed,
  responseIdReused,
  noImpression,
];

export const PAGE_RULES: readonly PageRule[] = [schema, contextDrift, timestampSkew, devFlag];
