// `order-other-domain` (info): an order that arrived in a visit of its own, on another origin than the
// storefront visit that held the same cart moments before: the payment domain was not given the
// storefront's userId and sessionId, so nothing the shopper searched, clicked or added earns it credit.
//
// Why it is certain enough to warn: the provider's client keeps userId and sessionId in cookies and
// localStorage of the storefront's domain (B, its identity module), so a thank-you page on another
// domain starts new ones unless the integration passes them on; the storefront's last cart event carries the
// whole cart (T), so the cart the order bought is on the wire. The book matches them when the order is
// folded in (recent-carts.ts): an order (with lines) whose visit began on its page, a storefront visit of
// the same site on another origin whose latest cart holds the same products in the same quantities, changed
// at most 31 minutes (a session's life) before the order, under none of the order's userIds. What it
// exempts, and why: an order whose visit had an earlier page (its ids came along), one on the cart's own
// origin (another shopper of the same storefront, or a session that expired: session-expired's), one whose
// userId the cart's visit carried (credit follows the userId), an older cart, an order without lines.
// Info, not a warning: this is the traffic the provider's client itself produces on a hosted checkout on
// another domain (a new userId and sessionId there), so it names the lost credit without calling the
// storefront's traffic wrong; and two shoppers with the same cart, one of them ordering first thing on
// another origin, look alike.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { duration } from './types';

const meta: RuleMeta<'visit'> = {
  id: 'order-other-domain',
  judges: ['visit'],
  title: 'Order on another domain in a visit of its own',
  description:
    'An order whose visit begins with it, on another origin than a visit of the same site that held the same cart (same products, same quantities) at most 31 minutes before: the payment domain started a new userId and sessionId, so the order is credited to nothing the shopper did on the storefront.',
  expects:
    'A checkout on another domain is given the storefront’s userId and sessionId (the client keeps them in cookies and localStorage of the storefront’s domain), so the order lands in the shopper’s visit.',
  appliesTo: ['order'],
  guards: ['identity.cross-domain'],
  defaultSeverity: 'info',
  messages: {
    newVisit:
      'order "{{orderId}}" on {{orderOrigin}} arrived in a new visit (sessionId "{{sessionId}}", userId "{{userId}}") {{gap}} after visit "{{cartSession}}" on {{cartOrigin}} left a cart with the same items ({{cartEvent}}). The client keeps userId and sessionId in cookies and localStorage of the storefront\'s domain, so the payment domain started new ones: the order is credited to nothing the shopper searched, clicked or added.',
  },
  fixes: {
    newVisit:
      'pass userId and sessionId to the payment domain (and give them to its tracker), or the order is not credited to the search that led to it.',
  },
  fix: 'Pass the storefront’s userId and sessionId to the payment domain and give them to its tracker, so the order lands in the shopper’s visit and earns its credit.',
  listens: ['order/transaction'],
};

export const orderOtherDomain = defineRule({
  meta,
  visit(page, ctx) {
    const out = [];
    for (const v of ctx.accepted) {
      const cart = v.cartElsewhere;
      if (v.endpoint !== 'order/transaction' || !cart) continue;
      out.push(
        finding(
          meta,
          v.base.id,
          {
            messageId: 'newVisit',
            data: {
              orderId: v.orderId ?? '',
              orderOrigin: cart.orderOrigin,
              sessionId: page.sessionId,
              userId: v.base.userId,
              gap: duration(Math.max(0, v.base.time - cart.time)),
              cartSession: cart.sessionId,
              cartOrigin: cart.origin,
              cartEvent: cart.eventId,
            },
          },
          [v.base.id, cart.eventId],
        ),
      );
    }
    return out;
  },
});
