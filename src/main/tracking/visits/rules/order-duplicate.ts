// `order-duplicate` (error): an orderId the site already received, sent again where no reload of the
// thank-you page explains it: the order's revenue is counted twice.
//
// Why it is certain: the tracker reads the page's order script once per page load (T), so the client sends
// an order again only when the thank-you page loads again: at the same URL, on the same pageLoadId within
// 10 s (B reuses it for the same href) or a new one later. What it exempts: exactly those reloads
// (order-reloaded names them, as info: the client's own traffic). What it names: the same orderId from
// another URL (a second order script, an orderId reused) and the same page load sending it again past
// those 10 s or sooner than the 500 ms a page needs to load again (a second script or tag, a component
// that re-rendered the script, an SPA reading it again); and the same orderId from another shopper, from
// any page: a reload is the same browser, whose client keeps the userId and, within 30 minutes, the
// sessionId (B's cookies), so another userId, or another sessionId sooner, is another order sent under the
// same id (an id hard-coded or reused by the order script). And a copy timed and placed as a reload that
// sent other totals or lines, or a vat (which the tracker never sends), than the first: a reload re-reads
// the same order script, so another sender (a tag manager, a hand-written beacon call) sent one of them.
// A copy with the same timestamp, page load, shopper and order as the first is told apart (`resent`): the
// client stamps each event as it creates it (B getContext) and sends each request once, dropping a failed
// one (B sendRequests), so that is one request delivered twice by something between the page and the
// service (a service worker's background sync, a relay that retries), not a second order script. And a
// copy of the first order sent by a page that had just emptied a cart again (`stale`): B empties its stored
// cart after an order, so a reload finds no cart to remove; the shopper bought again and the page sent the
// earlier order's data (a tag manager's ecommerce variable not cleared between purchases).
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { orderRepeats } from './utils/order-repeat';
import { firstThree } from './types';

const meta: RuleMeta<'visit'> = {
  id: 'order-duplicate',
  judges: ['visit'],
  title: 'The same order sent twice',
  description:
    'An order/transaction whose orderId the site already received, from another URL, from another shopper (another userId, or another sessionId within 30 minutes), from the same page load within 0.5 s or more than 10 s later, or with other totals, lines or vat than the first (no reload of the thank-you page sends it so): revenue is counted twice.',
  expects: 'One order/transaction per order.',
  appliesTo: ['order'],
  guards: ['order.transaction'],
  defaultSeverity: 'error',
  messages: {
    stale:
      'order "{{orderId}}" was sent again from {{pageUrl}}, {{gap}} after {{firstId}}, with the same totals and lines, but this page had just emptied a cart of {{items}} ({{removeId}}): the shopper bought again, and the order sent is the earlier one. The provider\'s client empties its stored cart after an order, so a reload of the thank-you page has no cart to remove. The data of the previous purchase was sent for this one (a tag manager\'s ecommerce variable not cleared between purchases, an order script cached): this purchase is lost and the earlier one counted twice.',
    resent:
      'order "{{orderId}}" arrived again{{arrived}} with the same timestamp, page load, shopper and order as {{firstId}}: one request delivered twice. The provider\'s client creates each event once, stamped with the time it was made, and sends it once (a failed send is dropped, never retried), so something between the page and the service sent it again: a service worker replaying requests (background sync), a relay or proxy that retries, or a test that posts the same body twice. The provider counts every order/transaction, and this order\'s revenue is counted twice.',
    otherPage:
      'order "{{orderId}}" was sent again from {{pageUrl}}, after {{firstId}} sent it from {{firstUrl}}. The provider\'s tracker sends an order once per load of the page holding its script, so a second page sent it: the provider counts every order/transaction, and this order\'s revenue is counted twice.',
    notAsSent:
      'order "{{orderId}}" was sent again {{gap}} after {{firstId}} from the same thank-you page, but not as a reload sends it: {{difference}}. A reload re-reads the same order script, so it sends the same totals and lines: another sender (a tag manager, a hand-written beacon call) sent one of the two, and this order\'s revenue is counted twice.',
    samePage:
      'order "{{orderId}}" was sent again on the same page {{gap}} after {{firstId}}. The tracker reads the page\'s order script once per page load, and a reload keeps the pageLoadId only from about half a second (the page loads again) to 10 s: a second script or tag, or a component that re-rendered the script, sent it, and this order\'s revenue is counted twice.',
    otherShopper:
      'order "{{orderId}}" was sent again {{gap}} after {{firstId}}, by another shopper: userId "{{userId}}" and sessionId "{{sessionId}}", where {{firstId}} had userId "{{firstUserId}}" and sessionId "{{firstSessionId}}" ({{pageUrl}}, first from {{firstUrl}}). A reload of the thank-you page keeps both: the provider\'s client keeps the userId for 18 months and the sessionId for 30 minutes of inactivity, in cookies of the storefront\'s domain. So two shoppers\' orders were sent under one orderId (an id hard-coded or reused by the order script): the provider counts the id twice and cannot tell the orders apart.',
  },
  fixes: {
    stale:
      "send each thank-you page's own order: clear the tag manager's ecommerce object before each purchase push ({ecommerce: null}), or let the provider's tracker read the page's order script.",
    resent:
      'send each beacon once: a service worker or relay may replay only a request that failed with a network error, never one the service answered (and a relay must not retry an answered request).',
    otherPage: 'send the order from the thank-you page only, with its own orderId.',
    otherShopper:
      "give the order script the id of the order just placed (order.id from the shop's order), never a fixed or reused one.",
    notAsSent:
      "send the order from one place, the provider's tracker reading the thank-you page's order script: remove the tag manager's (or hand-written) order/transaction.",
    samePage:
      'render the order script once (not from a component that re-renders, not also from a tag manager) and let the tracker read it.',
  },
  fix: 'Send each order once: from the thank-you page’s order script, rendered once.',
  listens: ['order/transaction'],
  needs: { visit: true },
};

export const orderDuplicate = defineRule({
  meta,
  visit(page, ctx) {
    const out = [];
    for (const r of orderRepeats(page, ctx)) {
      if (r.reload) continue;
      const e = r.order.base;
      const samePage = r.first.pageLoadId === page.pageLoadId;
      const data = {
        orderId: r.order.orderId!,
        pageUrl: e.pageUrl,
        firstId: r.first.eventId,
        firstUrl: r.first.pageUrl,
        gap: r.gap,
        userId: e.userId,
        sessionId: e.sessionId,
        firstUserId: r.first.userId,
        firstSessionId: r.first.sessionId,
        difference: r.notAsSent ?? '',
        removeId: r.stale?.removeId ?? '',
        items: r.stale ? firstThree(r.stale.items) : '',
        arrived: r.resent?.arrivedAfter ? ` ${r.resent.arrivedAfter} later` : '',
      };
      const messageId = r.resent
        ? 'resent'
        : r.otherShopper
          ? 'otherShopper'
          : r.stale
            ? 'stale'
            : r.notAsSent !== undefined
              ? 'notAsSent'
              : samePage
                ? 'samePage'
                : 'otherPage';
      out.push(finding(meta, e.id, { messageId, data }, [r.first.eventId, e.id]));
    }
    return out;
  },
});
