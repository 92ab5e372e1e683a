// `order-duplicate`: an orderId the site already received: the order's revenue is counted twice.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';

/** a reload of the thank-you page within this reuses its pageLoadId (the provider's client) */
const RELOAD_MS = 10_000;

const meta: RuleMeta<'visit'> = {
  id: 'order-duplicate',
  judges: ['visit'],
  title: 'The same order counted twice',
  description:
    'An order/transaction whose orderId the site already received: a reload of the thank-you page (same pageLoadId within 10 s, or a new page later) or a re-render sends the order again, and revenue is counted twice.',
  expects: 'One order/transaction per order.',
  appliesTo: ['order'],
  guards: ['order.transaction'],
  defaultSeverity: 'error',
  messages: {
    duplicate:
      'order "{{orderId}}" was sent {{why}}. The provider counts every order/transaction, so this order\'s revenue is counted twice.',
  },
  fixes: {
    duplicate:
      'render the order script only on the first view of the thank-you page (mark the order as tracked server-side or in sessionStorage).',
  },
  fix: 'Render the order script only on the first view of the thank-you page (mark the order as tracked, server-side or in sessionStorage), and never send it from a component that re-renders.',
  listens: ['order/transaction'],
  needs: { visit: true },
};

export const orderDuplicate = defineRule({
  meta,
  visit(page, ctx) {
    const out = [];
    for (const o of ctx.accepted) {
      if (o.endpoint !== 'order/transaction' || (o.orderId ?? '').trim() === '') continue;
      const e = o.base;
      const first = ctx.book.firstOrder(page.siteId, o.orderId!);
      if (!first || first.eventId === e.id) continue;
      const gap = Math.abs(e.time - first.time);
      const why =
        first.pageLoadId !== page.pageLoadId
          ? `again after ${first.eventId} on page ${first.pageLoadId} (${first.pageUrl}): a reload of the thank-you page or a second visit to it`
          : gap <= RELOAD_MS
            ? `again on the same page ${Math.round(gap / 100) / 10} s after ${first.eventId}: a reload of the thank-you page within 10 s (the client reuses the pageLoadId for the same URL) or a component that re-rendered`
            : `again on the same page after ${first.eventId}: a component that re-rendered or a second order script`;
      out.push(
        finding(meta, e.id, { messageId: 'duplicate', data: { orderId: o.orderId!, why } }, [
          first.eventId,
          e.id,
        ]),
      );
    }
    return out;
  },
});
