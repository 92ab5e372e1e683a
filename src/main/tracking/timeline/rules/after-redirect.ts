// `after-redirect`: events of a responseId timestamped after that response's redirect (a category page's
// redirect is sent to search/redirect, so a category response looks for it there).
import { endpointOf } from '../../../../shared/kinds';
import { responseKey } from '../model';
import type { Response } from '../response';
import type { RuleContext } from './types';
import { describe, finding, list, plural, defineRule, type RuleMeta } from './types';

function redirectOf(r: Response, ctx: RuleContext) {
  const own = r.facts.redirects.find((e) => e.tsMs !== null);
  if (own || r.kind !== 'category') return own;
  const search = ctx.page.responses.get(responseKey('search', '', r.responseId));
  return search?.facts.redirects.find((e) => e.tsMs !== null);
}

const meta: RuleMeta<'response'> = {
  id: 'after-redirect',
  judges: ['response'],
  title: 'Events after a redirect',
  description:
    'Render, impression, clickthrough or addtocart of a responseId timestamped after its redirect.',
  expects:
    'A redirect ends the results page: the shopper is sent to the redirect URL and nothing else is tracked for that response.',
  appliesTo: ['search', 'category', 'autocomplete'],
  guards: ['search.redirect', 'autocomplete.redirect', 'category.redirect'],
  defaultSeverity: 'warning',
  messages: {
    afterRedirect:
      'redirect {{redirectId}} ({{timestamp}}) sent the shopper to "{{url}}", yet {{count}} of responseId "{{responseId}}" {{are}} timestamped after it: {{events}}. A redirect ends the results page: nothing else is tracked for that response.',
  },
  fix: 'When the search response carries merchandising.redirect, send search/redirect and navigate; do not render or track its results.',
  fixes: {
    afterRedirect:
      'When the {{kind}} response carries merchandising.redirect, send {{redirect}} and navigate; do not render or track its results.',
  },
  listens: ['redirect', 'render', 'impression', 'clickthrough', 'addtocart'],
  notJudged: {
    recommendations: 'its controller sends no redirect',
    bundles: 'its controller sends no redirect',
  },
  kindNotes: {
    autocomplete: 'autocomplete/redirect (a submitted term or product)',
  },
};

export const afterRedirect = defineRule({
  meta,
  response(r, ctx) {
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
    const data = {
      redirectId: redirect.id,
      timestamp: redirect.timestamp ?? '',
      url: redirect.redirect ?? '',
      count: plural(later.length, 'event'),
      responseId: r.responseId,
      are: later.length === 1 ? 'is' : 'are',
      events: list(later.map(describe), 3),
      kind: r.kind,
      redirect: endpointOf(r.kind, 'redirect'),
    };
    return [
      finding(
        meta,
        r.responseId,
        { messageId: 'afterRedirect', data },
        [redirect.id, ...later.map((e) => e.id)],
        { responseId: r.responseId },
      ),
    ];
  },
});
