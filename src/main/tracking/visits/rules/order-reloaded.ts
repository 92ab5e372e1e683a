// `order-reloaded` (info): an order sent again by a reload of its thank-you page, which the provider's
// client does (T reads the page's order script on every page load) and the provider counts twice.
//
// Info, not a warning: it is the client's own traffic (a shopper reloading the thank-you page, or coming
// back to it), so a storefront that integrates the client as documented sends it. It names the double
// count so a merchant who wants one can guard the script. What it covers: the same orderId from the same
// page (origin and path; the query aside, as the order e-mail's link adds its parameters) by the same
// shopper (the userId, and the sessionId unless 30 minutes or more passed: B keeps both in the browser) on
// a new page load, or on the same pageLoadId from 0.5 s to 10 s (B reuses it for the same href), sending
// what the first sent (the same order script: the same totals and lines, no vat); everything else is
// order-duplicate's.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { orderRepeats } from './utils/order-repeat';

const meta: RuleMeta<'visit'> = {
  id: 'order-reloaded',
  judges: ['visit'],
  title: 'An order sent again by a reload of its thank-you page',
  description:
    'An order/transaction whose orderId the site already received from the same page (origin and path) and shopper (userId, and sessionId within 30 minutes), with the same totals and lines: a reload of (or a return to) the thank-you page, which the provider’s client sends again and the provider counts twice.',
  expects: 'One order/transaction per order; the client sends it again on every load of the page.',
  appliesTo: ['order'],
  guards: ['order.transaction'],
  defaultSeverity: 'info',
  messages: {
    reloaded:
      'order "{{orderId}}" was sent again {{when}} after {{firstId}}, from the same thank-you page ({{pageUrl}}){{how}}. The provider\'s tracker sends the order on every load of the page, so a reload counts its revenue twice: the client\'s own traffic, named so you can guard the script if that matters.',
  },
  fixes: {
    reloaded:
      'to count the order once, render the order script only on the first view of the thank-you page (mark the order as tracked, server-side or in sessionStorage).',
  },
  fix: 'Render the order script only on the first view of the thank-you page if a reload must not count the order again.',
  listens: ['order/transaction'],
  needs: { visit: true },
};

export const orderReloaded = defineRule({
  meta,
  visit(page, ctx) {
    const out = [];
    for (const r of orderRepeats(page, ctx)) {
      if (!r.reload) continue;
      const e = r.order.base;
      const samePage = r.first.pageLoadId === page.pageLoadId;
      const data = {
        orderId: r.order.orderId!,
        when: r.gap,
        firstId: r.first.eventId,
        pageUrl: e.pageUrl,
        how: samePage
          ? ' on the same pageLoadId (a reload within 10 s keeps it; a component that re-rendered looks the same)'
          : ` on a new page load (${page.pageLoadId})`,
      };
      out.push(finding(meta, e.id, { messageId: 'reloaded', data }, [r.first.eventId, e.id]));
    }
    return out;
  },
});
