// `after-redirect`: events of a responseId timestamped after that response's redirect (a category page's
// redirect is sent to search/redirect, so a category response looks for it there).
import { endpointOf } from '../../../../shared/kinds';
import { responseKey, type ResponseState } from '../model';
import type { RuleContext } from './types';
import { describe, finding, list, plural, type ResponseRule } from './types';

function redirectOf(r: ResponseState, ctx: RuleContext) {
  const own = r.facts.redirects.find((e) => e.tsMs !== null);
  if (own || r.kind !== 'category') return own;
  const search = ctx.page.responses.get(responseKey('search', '', r.responseId));
  return search?.facts.redirects.find((e) => e.tsMs !== null);
}

export const afterRedirect: ResponseRule = {
  id: 'after-redirect',
  scope: 'response',
  check(r, ctx) {
    const redirect = redirectOf(r, ctx);
    if (!redirect) return [];
    // Ordered by timestamp, not arrival: redirects are sent at once, queued events (render, impression,
    // addtocart) may arrive after it carrying older timestamps, which is fine.
    // Within the tolerance, an event is after the redirect only when its arrival says so too.
    const limit = redirect.tsMs! + ctx.settings.orderToleranceMs;
    const later = r.events.filter(
      (e) =>
        e.accepted &&
        e.event !== 'redirect' &&
        e.tsMs !== null &&
        (e.tsMs > limit || (e.tsMs > redirect.tsMs! && e.seq > redirect.seq)),
    );
    if (later.length === 0) return [];
    const message =
      `redirect ${redirect.id} (${redirect.timestamp}) sent the shopper to "${redirect.redirect ?? ''}", yet ${plural(later.length, 'event')} ` +
      `of responseId "${r.responseId}" ${later.length === 1 ? 'is' : 'are'} timestamped after it: ${list(later.map(describe), 3)}. ` +
      `A redirect ends the results page: nothing else is tracked for that response. ` +
      `Fix: when the ${r.kind} response carries merchandising.redirect, send ${endpointOf(r.kind, 'redirect')} and navigate; do not render or track its results.`;
    return [
      finding(
        'after-redirect',
        'warning',
        r.responseId,
        message,
        [redirect.id, ...later.map((e) => e.id)],
        { responseId: r.responseId },
      ),
    ];
  },
};
