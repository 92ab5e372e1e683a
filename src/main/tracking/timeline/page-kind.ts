// What a page is in its visit (README, "The whole visit and its credit"): the kind of its weightiest
// event.
import type { VisitPageKind } from '../../../shared/visits';
import type { PageState } from './model';

/** The page's kind in its visit: its weightiest accepted event, in VISIT_PAGE_KINDS' order. */
export function pageKindOf(page: PageState): VisitPageKind {
  let product = false;
  let cart = false;
  for (const v of page.visitEvents) {
    if (!v.base.accepted) continue;
    if (v.endpoint === 'order/transaction') return 'order';
    if (v.endpoint === 'product/pageview') product = true;
    else if (v.endpoint.startsWith('cart/')) cart = true;
  }
  if (product) return 'product';
  if ((page.renderedByKind?.search ?? 0) > 0 || hasResponses(page, 'search')) return 'search';
  if ((page.renderedByKind?.category ?? 0) > 0 || hasResponses(page, 'category')) return 'category';
  return cart ? 'cart' : 'other';
}

/** A response of that kind with at least one accepted event on the page. */
function hasResponses(page: PageState, kind: string): boolean {
  for (const r of page.responses.values()) if (r.kind === kind && r.factEvents > 0) return true;
  return false;
}
