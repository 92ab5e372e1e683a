// An order/transaction whose orderId the site already received, and whether the client's own reload of
// the thank-you page explains it. T sends the order each time the page's order script is read: once per
// page load. A reload of the same URL sends it again, on the same pageLoadId within 10 s (B reuses the id
// for the same href) or on a new one later; anything else (another URL, the same page load past the 10 s a
// reload could keep its id, or sooner than a page can load again) is a second order script or a
// component that re-sent it. A reload is the same browser: B keeps the userId (18 months) and the
// sessionId (30 minutes of inactivity, rolling) in cookies and localStorage of the storefront's domain, so
// the same orderId from another userId, or from another sessionId sooner than the session could have
// expired, is another shopper's order under the same id (an id hard-coded or reused by the order script).
import type { VisitEvent } from '../../events';
import type { VisitContext, VisitPage } from '../types';
import { PAGE_LOAD_ID_REUSE_MS } from '../../../client-model';

/**
 * a reload of the thank-you page within this reuses its pageLoadId (the provider's client). No margin: each
 * load sends the order the same delay after it loads, so the gap between the two sends is the gap between
 * the loads
 */
export const RELOAD_MS = PAGE_LOAD_ID_REUSE_MS;
/**
 * no reload sends the order again sooner: the page is requested and parsed again, the client starts and
 * reads the order script after a setTimeout (two sends this close are two scripts or tags on one page)
 */
export const RELOAD_MIN_MS = 500;
/**
 * how long the provider's client keeps a sessionId without an event (B, rolling): a reload this long after
 * the first order or later may carry a new one. Both orders are timestamped by the same browser's clock
 * when a reload sent them, so no margin for clocks
 */
export const SESSION_LIFE_MS = 30 * 60_000;

export interface OrderRepeat {
  order: VisitEvent;
  first: {
    eventId: string;
    pageLoadId: string;
    pageUrl: string;
    time: number;
    userId: string;
    sessionId: string;
  };
  /**
   * a reload of (or a return to) the first order's page: the same origin and path (a new page load, or the
   * same one from RELOAD_MIN_MS to RELOAD_MS)
   */
  reload: boolean;
  /**
   * sent by another shopper than the first: another userId, or another sessionId less than SESSION_LIFE_MS
   * after the first (no reload, whatever its URL and timing)
   */
  otherShopper: boolean;
  /** how long after the first: "499 ms", "4.2 s" */
  gap: string;
}

/** The page's orders whose orderId the site received before, each with what explains it. */
export function* orderRepeats(page: VisitPage, ctx: VisitContext): Generator<OrderRepeat> {
  for (const o of ctx.accepted) {
    if (o.endpoint !== 'order/transaction' || (o.orderId ?? '').trim() === '') continue;
    const first = ctx.book.orders.firstOf(page.siteId, o.orderId!);
    if (!first || first.eventId === o.base.id) continue;
    const gap = Math.abs(o.base.time - first.time);
    const sameUrl = pageOf(first.pageUrl) === pageOf(o.base.pageUrl);
    const otherShopper =
      first.userId !== o.base.userId ||
      (first.sessionId !== o.base.sessionId && gap < SESSION_LIFE_MS);
    const reload =
      sameUrl &&
      !otherShopper &&
      (first.pageLoadId !== page.pageLoadId || (gap >= RELOAD_MIN_MS && gap <= RELOAD_MS));
    yield {
      order: o,
      first,
      reload,
      otherShopper,
      gap: gap < 1000 ? `${gap} ms` : `${Math.round(gap / 100) / 10} s`,
    };
  }
}

/**
 * The page a URL loads: its origin and path. The query aside: the thank-you page opened again from the
 * order e-mail carries its tracking parameters, and is the same page with the same order script.
 */
function pageOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url.split(/[?#]/, 1)[0]!;
  }
}
