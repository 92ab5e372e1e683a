// The visit rules: what makes the merchant's order and conversion reporting wrong (error) or loses the
// credit search earned (warning). Each finding sits on the page of the event that shows the problem, so
// timelines, reports, expectClean and check see it like any other. Nothing of what
// the provider's client sends is flagged: variants, quick adds, cart deltas, logins, discounts, no vat.
import type { TimelineFindingDto } from '../../../shared/timeline';
import type { Visit, VisitBook } from './book';
import type { VisitEvent } from './events';
import { finding } from '../finding';

/** What the visit rules read of a page (the timeline engine's page state satisfies it). */
export interface VisitPage {
  key: string;
  siteId: string;
  pageLoadId: string;
  sessionId: string;
  userId: string;
  accepted: number;
  /** accepted events sent without context.dev: true */
  notDev: { count: number; ids: string[] };
  /** ids of the page's accepted events, first first (capped) */
  visitEvents: readonly VisitEvent[];
}

/** The site's indexed catalog, when it has one and its account checks ids against it. */
export interface VisitCatalog {
  has(id: string): boolean;
  uidOfSku(sku: string): string | undefined;
}

/**
 * A second tab opened together with the visit's first page is exempt from visit-user-changed: tabs
 * opened at once on a fresh browser each create a userId before either has stored one (the provider's
 * client does this; the corpus's two-tabs journey records it). Exempt is only the page that began within
 * this long of the visit's start with no other page of the visit begun before it but the first; every
 * later page must carry the stored userId.
 */
export const CONCURRENT_START_MS = 2_000;

function openedWithFirst(visit: Visit, pageKey: string): boolean {
  const started = visit.pages.get(pageKey)?.first ?? Infinity;
  if (started - visit.first.time > CONCURRENT_START_MS) return false;
  for (const [key, p] of visit.pages)
    if (key !== pageKey && key !== visit.first.pageKey && p.first <= started) return false;
  return true;
}
/** a reload of the thank-you page within this reuses its pageLoadId (the provider's client) */
const RELOAD_MS = 10_000;

const money = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

export function visitFindings(
  page: VisitPage,
  book: VisitBook,
  catalog?: VisitCatalog,
): TimelineFindingDto[] {
  const out: TimelineFindingDto[] = [];
  const accepted = page.visitEvents.filter((v) => v.base.accepted);
  const orders = accepted.filter((v) => v.endpoint === 'order/transaction');
  for (const o of orders) {
    const e = o.base;
    if ((o.orderId ?? '').trim() === '')
      out.push(
        finding(
          'order-id-missing',
          'error',
          e.id,
          `order/transaction ${e.id} has orderId ${JSON.stringify(o.orderId ?? '')}: the provider cannot tell this order from any other, so revenue reports merge or drop it. ` +
            `The provider's client sends String(order.id || ''), so a thank-you page that never sets order.id sends "". ` +
            `Fix: set order.id (the merchant's order number) in the athos/track/order/transaction script.`,
          [e.id],
        ),
      );
    else {
      const first = book.firstOrder(page.siteId, o.orderId!);
      if (first && first.eventId !== e.id) {
        const samePage = first.pageLoadId === page.pageLoadId;
        const why = samePage
          ? Math.abs(e.time - first.time) <= RELOAD_MS
            ? `again on the same page ${Math.round(Math.abs(e.time - first.time) / 100) / 10} s after ${first.eventId}: a reload of the thank-you page within 10 s (the client reuses the pageLoadId for the same URL) or a component that re-rendered`
            : `again on the same page after ${first.eventId}: a component that re-rendered or a second order script`
          : `again after ${first.eventId} on page ${first.pageLoadId} (${first.pageUrl}): a reload of the thank-you page or a second visit to it`;
        out.push(
          finding(
            'order-duplicate',
            'error',
            e.id,
            `order "${o.orderId}" was sent ${why}. The provider counts every order/transaction, so this order's revenue is counted twice. ` +
              `Fix: render the order script only on the first view of the thank-you page (mark the order as tracked server-side or in sessionStorage).`,
            [first.eventId, e.id],
          ),
        );
      }
    }
    const totals = totalsProblem(o);
    if (totals)
      out.push(
        finding(
          'order-totals',
          'error',
          e.id,
          `order "${o.orderId ?? ''}" (${e.id}): ${totals}. transactionTotal is the amount before discounts, taxes and shipping, total after them (a discount is fine). ` +
            `Fix: pass order.transactionTotal and order.total as numbers in the unit of the line prices.`,
          [e.id],
        ),
      );
  }
  const cartIssues = accepted.filter((v) => v.cartIssue);
  for (const c of cartIssues)
    out.push(
      finding(
        'cart-inconsistent',
        'warning',
        c.base.id,
        `${c.endpoint} ${c.base.id} ${c.cartIssue}. results should hold what changed and cart the whole cart after the change; personalization and the cart's credit read them. ` +
          `Fix: send cart events from the cart after the change (the provider's client compares the page's cart globals with the cart it stored).`,
        [c.base.id],
      ),
    );
  if (catalog) {
    const unknown = new Map<string, string[]>();
    const note = (id: string, evId: string) => {
      if (id === '' || catalog.has(id)) return;
      let ids = unknown.get(id);
      if (!ids) unknown.set(id, (ids = []));
      ids.push(evId);
    };
    for (const v of accepted)
      for (const item of v.items) {
        note(item.uid, v.base.id);
        if (item.parentId !== item.uid) note(item.parentId, v.base.id);
      }
    if (unknown.size > 0) {
      const shown = [...unknown.keys()].slice(0, 5).map((id) => {
        const uid = catalog.uidOfSku(id);
        return uid !== undefined
          ? `"${id}" (the sku of product "${uid}": send its uid)`
          : `"${id}"`;
      });
      const more = unknown.size > 5 ? ` and ${unknown.size - 5} more` : '';
      out.push(
        finding(
          'item-not-in-catalog',
          'warning',
          'visit',
          `${unknown.size} product id${unknown.size === 1 ? '' : 's'} of this page's product, cart or order events ${unknown.size === 1 ? 'is' : 'are'} not in site ${page.siteId}'s indexed catalog: ${shown.join(', ')}${more}. ` +
            `An order line whose ids the catalog does not know earns no credit and teaches personalization nothing. ` +
            `Fix: send the feed's product ids (uid = the product or variant id, parentId = its variant group); if the products are new, index the feed again.`,
          [...unknown.values()].flat(),
        ),
      );
    }
  }
  identityFindings(page, book, out);
  return out;
}

/** Gross mismatches only: the provider's own example has transactionTotal 75, total 100, lines 100. */
function totalsProblem(o: VisitEvent): string | undefined {
  const priced = o.items.filter((l) => l.qty > 0 && l.price > 0);
  const sum = priced.reduce((s, l) => s + l.qty * l.price, 0);
  const tt = o.transactionTotal ?? 0;
  const total = o.total ?? 0;
  const problems: string[] = [];
  if (sum > 0) {
    for (const [name, value] of [
      ['transactionTotal', tt],
      ['total', total],
    ] as const) {
      if (value <= 0)
        problems.push(
          `${name} is ${value} while its lines add up to ${money(sum)} (the client sends a missing order.${name} as 0)`,
        );
      else if (value / sum >= 50)
        problems.push(
          `${name} ${money(value)} is about ${Math.round(value / sum)}× what its lines add up to (${money(sum)}): a total in cents against prices in units?`,
        );
      else if (value / sum <= 0.02)
        problems.push(
          `${name} ${money(value)} is about 1/${Math.round(sum / value)} of what its lines add up to (${money(sum)}): prices in cents against a total in units?`,
        );
    }
  } else if (o.items.length > 0 && tt > 0)
    problems.push(
      `none of its ${o.items.length} line${o.items.length === 1 ? '' : 's'} carries a price and quantity although transactionTotal is ${money(tt)} (the client sends a missing price as 0)`,
    );
  return problems.length > 0 ? problems.join('; ') : undefined;
}

/** The visit's identity and mode are its first accepted event's: a page that differs says so. */
function identityFindings(page: VisitPage, book: VisitBook, out: TimelineFindingDto[]): void {
  if (page.accepted === 0) return;
  const visit = book.visitOf(page.siteId, page.sessionId);
  if (!visit || visit.first.pageKey === page.key) {
    if (visit) devMixed(page, visit.first, out);
    return;
  }
  const first = visit.first;
  if (page.userId !== first.userId && !openedWithFirst(visit, page.key))
    out.push(
      finding(
        'visit-user-changed',
        'warning',
        '',
        `This page of visit (sessionId) "${page.sessionId}" carries userId "${page.userId}", but the visit began with userId "${first.userId}" (${first.eventId} on page ${first.pageLoadId}). ` +
          `Credit goes to clicks by the order's own userId, so search's clicks before the change earn nothing, and personalization starts over. A login is not this: it sets shopperId and keeps the userId. ` +
          `Fix: keep the tracker's userId across pages (a checkout on another domain must be given the userId and sessionId); never create a new identity per page.`,
        [first.eventId],
      ),
    );
  devMixed(page, first, out);
}

function devMixed(
  page: VisitPage,
  first: { dev: boolean; eventId: string; pageLoadId: string },
  out: TimelineFindingDto[],
): void {
  const differing = first.dev ? page.notDev.count : page.accepted - page.notDev.count;
  if (differing <= 0) return;
  const ids = first.dev ? page.notDev.ids : [];
  out.push(
    finding(
      'visit-dev-mixed',
      'error',
      '',
      `${differing} event${differing === 1 ? '' : 's'} on this page ${first.dev ? 'lack context.dev: true' : 'carry context.dev: true'}, but the visit began ${first.dev ? 'in development mode' : 'in production mode'} (${first.eventId} on page ${first.pageLoadId}): ` +
        `${first.dev ? 'these events (an order, say) count in production reports' : 'these events are kept out of production reports'} while the rest of the visit ${first.dev ? 'is not' : 'counts'}. ` +
        `Fix: create the tracker with the same mode on every page, the checkout and thank-you pages included.`,
      [first.eventId, ...ids],
    ),
  );
}
