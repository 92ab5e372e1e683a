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
import { orderSent, type OrderSent } from '../../order-book';
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
    receivedMs: number | null;
    userId: string;
    sessionId: string;
    sent: OrderSent;
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
  /**
   * the same request delivered again: the same page load, shopper, timestamp and order as the first (the
   * client stamps each event as it creates it and sends it once); with how much later it arrived, when
   * the sandbox knows both arrivals
   */
  resent?: { arrivedAfter: string | undefined };
  /**
   * the first order's data sent again by a page that had just emptied a cart again (its cart/remove with
   * an empty cart, after the first order, before this one): B empties its stored cart after an order, so a
   * reload of the thank-you page has no cart to remove; this page's shopper bought again, and the order
   * sent is the earlier one's (a stale tag manager variable)
   */
  stale?: { removeId: string; items: string[] };
  /**
   * how it differs from what the first sent, where a reload of the same page would have sent the same
   * (the same order script; no vat, which the tracker never sends): a second sender, not a reload
   */
  notAsSent?: string;
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
    const timedAsReload =
      sameUrl &&
      !otherShopper &&
      (first.pageLoadId !== page.pageLoadId || (gap >= RELOAD_MIN_MS && gap <= RELOAD_MS));
    // a reload re-reads the same order script: what it sends differing says a second sender sent it
    const notAsSent = timedAsReload ? difference(first.sent, orderSent(o)) : undefined;
    // one request delivered twice: nothing of it differs, its time of creation included
    const resent =
      gap === 0 &&
      !otherShopper &&
      first.pageLoadId === page.pageLoadId &&
      difference(first.sent, orderSent(o)) === undefined;
    const emptied = resent
      ? undefined
      : ctx.accepted.find(
          (v) =>
            v.endpoint === 'cart/remove' &&
            v.cart !== null &&
            v.cart.length === 0 &&
            v.items.length > 0 &&
            v.base.time > first.time &&
            v.base.time <= o.base.time,
        );
    const stale =
      emptied && !otherShopper && difference(first.sent, orderSent(o)) === undefined
        ? {
            removeId: emptied.base.id,
            items: emptied.items.map((i) => `${i.qty} × "${i.uid}"`),
          }
        : undefined;
    const arrived =
      o.base.receivedMs !== null && first.receivedMs !== null
        ? o.base.receivedMs - first.receivedMs
        : undefined;
    yield {
      order: o,
      first,
      reload: timedAsReload && notAsSent === undefined && !stale,
      otherShopper,
      gap: spanOf(gap),
      ...(notAsSent !== undefined && { notAsSent }),
      ...(stale && { stale }),
      ...(resent && {
        resent: { arrivedAfter: arrived === undefined ? undefined : spanOf(arrived) },
      }),
    };
  }
}

/** "499 ms", "4.2 s" */
function spanOf(ms: number): string {
  const abs = Math.abs(ms);
  return abs < 1000 ? `${abs} ms` : `${Math.round(abs / 100) / 10} s`;
}

/** How `again` differs from `first` in words, or undefined when it sent the same. */
function difference(first: OrderSent, again: OrderSent): string | undefined {
  // the tracker never sends vat: a copy carrying one was sent by another hand, whichever it is
  if (again.vat !== null && first.vat === null)
    return `it carries vat ${again.vat}, which the provider's tracker never sends`;
  if (first.vat !== null && again.vat === null)
    return `the first carried vat ${first.vat}, which the provider's tracker never sends`;
  if (first.transactionTotal !== again.transactionTotal || first.total !== again.total)
    return `its totals (transactionTotal ${again.transactionTotal}, total ${again.total}) are not the first's (${first.transactionTotal}, ${first.total})`;
  if (first.vat !== again.vat) return `its vat ${again.vat} is not the first's ${first.vat}`;
  if (first.lines !== again.lines) return "its lines are not the first's";
  return undefined;
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
