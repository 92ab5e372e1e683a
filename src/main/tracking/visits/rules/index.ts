// The visit rules: what makes the merchant's order and conversion reporting wrong (error) or loses the
// credit search earned (warning). Each finding sits on the page of the event that shows the problem, so
// timelines, reports, expectClean and check see it like any other. Nothing of what the provider's client
// sends is flagged: variants, quick adds, cart deltas, logins, discounts, no vat.
import type { TimelineFindingDto as FindingDraft } from '../../../../shared/timeline';
import type { Visit, VisitBook } from '../book';
import type { SkuOwners, VisitCatalog, VisitPage, VisitRule } from './types';
import { VisitView } from './utils/view';
import { orderIdMissing } from './order-id-missing';
import { orderWithoutLines } from './order-without-lines';
import { orderDuplicate } from './order-duplicate';
import { orderTotals } from './order-totals';
import { cartInconsistent } from './cart-inconsistent';
import { lineValuesImpossible } from './line-values-impossible';
import { vatAsPercent } from './vat-as-percent';
import { priceUnitMismatch } from './price-unit-mismatch';
import { visitUserChanged } from './visit-user-changed';
import { visitDevMixed } from './visit-dev-mixed';
import { sessionExpired } from './session-expired';
import { shopperWithoutLogin } from './shopper-without-login';
import { loginRepeated } from './login-repeated';
import { itemIdsUnmapped } from './item-ids-unmapped';
import { pageviewNotClicked } from './pageview-not-clicked';
import { pageviewSkuMismatch } from './pageview-sku-mismatch';
import { pageviewRepeated } from './pageview-repeated';
import { sessionRenewed } from './session-renewed';
import { shopperDropped } from './shopper-dropped';
import { attributionLost } from './attribution-lost';

export type { SkuOwners, VisitCatalog, VisitPage, VisitRule } from './types';
export { CONCURRENT_START_MS } from './utils/concurrent';

export const VISIT_RULES: readonly VisitRule[] = [
  orderIdMissing,
  orderWithoutLines,
  orderDuplicate,
  orderTotals,
  priceUnitMismatch,
  vatAsPercent,
  lineValuesImpossible,
  cartInconsistent,
  visitUserChanged,
  visitDevMixed,
  sessionExpired,
  shopperWithoutLogin,
  loginRepeated,
  shopperDropped,
  attributionLost,
  sessionRenewed,
  itemIdsUnmapped,
  pageviewNotClicked,
  pageviewSkuMismatch,
  pageviewRepeated,
];

/**
 * Every visit rule over one page (the judge runs them when the page or its visit changed), and the
 * `more` rules the caller adds (a timeline rule's visit half). Each rule sees the visit (and the book)
 * only when its meta declares `needs.visit`, the catalog only with `needs.catalog`.
 */
export function visitFindings(
  page: VisitPage,
  book: VisitBook,
  catalog?: VisitCatalog,
  more: readonly VisitRule[] = [],
  served?: SkuOwners,
): FindingDraft[] {
  const accepted = page.visitEvents.filter((v) => v.base.accepted);
  let visit: { book: VisitBook; visit: Visit | undefined } | undefined;
  const views: Array<VisitView | undefined> = [];
  return [...VISIT_RULES, ...more].flatMap((rule) => {
    const needs = rule.meta.needs;
    const mask = (needs?.visit ? 1 : 0) | (needs?.catalog ? 2 : 0) | (needs?.provenance ? 4 : 0);
    let view = views[mask];
    if (!view) {
      if (needs?.visit)
        visit ??= {
          book,
          visit: page.accepted > 0 ? book.visitOf(page.siteId, page.sessionId) : undefined,
        };
      views[mask] = view = new VisitView(
        accepted,
        needs?.visit ? visit : undefined,
        needs?.catalog ? catalog : false,
        needs?.provenance ? served : false,
      );
    }
    view.rule = rule.meta.id;
    return rule.check(page, view);
  });
}
