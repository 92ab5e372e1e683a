// `order-user-reset` (warning): an order under a userId the browser began sending after another userId
// of it (same origin, same User-Agent) left a cart with exactly the order's items, when the order's own
// visit never carted anything: the storefront reset the client's identity between cart and order (a new
// Beacon, or its cookies and localStorage cleared, most often at login), so the order is credited to
// nothing the shopper searched, clicked or added.
//
// Why it is certain enough to warn: the provider's client makes the userId once and keeps it 18 months in
// a cookie and localStorage of the storefront's domain (B getUserId), and a login keeps it (B
// setShopperId stores the shopperId beside it); only cleared storage or a Beacon given other ids starts a
// new one in the same browser. The book matches the order when it is folded in (book.ts `userReset`,
// recent-carts.ts `sameBrowser`). What it exempts, and why: an order on another origin
// (order-other-domain's: a hosted checkout starts new ids by itself); input without User-Agent headers
// (two browsers cannot be told apart); an order whose visit carted or quick-added (its own identity held
// a cart: a second shopper of the machine does, and so does a storefront whose cart page sends the cart
// again after the reset); a cart visit still sending after the order's userId began (two tabs or two
// shoppers at once); a cart changed more than 31 minutes before the order. Warning, not error: a second
// shopper of the same browser who orders the first one's exact cart, with no cart of their own tracked (a
// cart kept by an account both use), is what the exemptions leave, and it looks the same.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { duration } from './types';

const meta: RuleMeta<'visit'> = {
  id: 'order-user-reset',
  judges: ['visit'],
  title: 'Order under a new userId of the same browser',
  description:
    'An order under a userId first seen after another userId of the same browser (same origin and User-Agent) left a cart with the same products and quantities at most 31 minutes before, when the order’s visit carted nothing itself and the earlier visit sent nothing since: the storefront reset the client’s identity (a new Beacon, or cleared cookies and localStorage, at login), so the order is credited to nothing the shopper did before. Silent without User-Agent headers and for an order on another origin (order-other-domain).',
  expects:
    'A browser keeps its userId (18 months, cookie and localStorage) across login: setShopperId adds the shopperId beside it, so the order lands under the userId that clicked and carted.',
  appliesTo: ['order'],
  guards: ['identity.user-per-browser'],
  defaultSeverity: 'warning',
  messages: {
    onePageEach:
      'order "{{orderId}}" came under userId "{{userId}}", which this browser (same User-Agent, {{origin}}) first sent {{gap}} after userId "{{cartUserId}}" (visit "{{cartSession}}") left a cart with the same items ({{cartEvent}}), and each of the two visits is one page load: this browser kept neither its userId nor its sessionId across a navigation. Either it keeps no cookies or localStorage (a private mode or a browser setting that blocks them: the client then makes new ids on every page load, and nothing is wrong with the storefront), or the storefront gives every page\'s tracker new ids; either way the order is credited to nothing the shopper did before.',
    atLogin:
      'order "{{orderId}}" came under userId "{{userId}}", which this browser (same User-Agent, {{origin}}) first sent {{gap}} after userId "{{cartUserId}}" (visit "{{cartSession}}") left a cart with the same items ({{cartEvent}}), and whose visit logged in ({{login}}) and carted nothing itself. The likely cause is a new Beacon, or cleared cookies and localStorage, at login: the client keeps the userId across a login (setShopperId only adds the shopperId), so the order is credited to nothing userId "{{cartUserId}}" searched, clicked or added.',
    reset:
      'order "{{orderId}}" came under userId "{{userId}}", which this browser (same User-Agent, {{origin}}) first sent {{gap}} after userId "{{cartUserId}}" (visit "{{cartSession}}") left a cart with the same items ({{cartEvent}}), and whose visit carted nothing itself. The likely cause is a new Beacon, or cleared cookies and localStorage, between cart and order (a login, a checkout step): the client keeps the userId 18 months, so the order is credited to nothing userId "{{cartUserId}}" searched, clicked or added.',
  },
  fixes: {
    onePageEach:
      'repeat the journey in a browser that keeps cookies and localStorage: if every page load still carries new ids, let one Beacon per page load read the stored ids (do not pass it ids of your own making or clear its storage).',
    atLogin:
      'at login keep the tracker and its storage: call setShopperId on the existing Beacon (or set shopper.id for the Snap tracker); do not clear its cookies and localStorage or create a new Beacon.',
    reset:
      'keep the tracker’s storage between cart and order: one Beacon per page load reading the stored userId; do not clear its cookies and localStorage or give a new Beacon new ids.',
  },
  fix: 'Keep the client’s userId across login and checkout: call setShopperId on the existing tracker (or set shopper.id); do not clear its cookies and localStorage or create a new Beacon with new ids.',
  listens: ['order/transaction'],
};

export const orderUserReset = defineRule({
  meta,
  visit(page, ctx) {
    const out = [];
    for (const v of ctx.accepted) {
      const reset = v.userReset;
      if (v.endpoint !== 'order/transaction' || !reset) continue;
      const login = reset.loginEventId;
      out.push(
        finding(
          meta,
          v.base.id,
          {
            messageId: reset.onePageEach ? 'onePageEach' : login ? 'atLogin' : 'reset',
            data: {
              orderId: v.orderId ?? '',
              userId: v.base.userId,
              origin: reset.origin,
              gap: duration(Math.max(0, reset.userFirstMs - reset.time)),
              cartUserId: reset.userId,
              cartSession: reset.sessionId,
              cartEvent: reset.eventId,
              ...(login && { login }),
            },
          },
          [v.base.id, reset.eventId, ...(login ? [login] : [])],
        ),
      );
    }
    return out;
  },
});
