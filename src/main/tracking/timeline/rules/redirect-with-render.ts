// `redirect-with-render` (error): a response both redirected and rendered (the render before the redirect;
// a render after it is `after-redirect`'s).
//
// Why it is certain: when a search response carries a merchandising redirect, the provider's controller
// sends the redirect and cancels the search before the store is updated, so no render of that response
// is ever sent. A category page runs the same controller (SC afterSearch): its redirect goes to
// search/redirect, and its category/render of that response is never sent either. (The single-result
// redirect is another path: a render and a navigation, no redirect event.) What it exempts: renders
// timestamped after the redirect (after-redirect names them).
import { endpointOf } from '../../../../shared/kinds';
import { responseKey } from '../model';
import type { Response } from '../response';
import type { RuleContext } from './types';
import { finding, list, defineRule, type RuleMeta } from './types';

/** The response's redirect; a category page's is on search/redirect, under the same responseId. */
function redirectOf(r: Response, ctx: RuleContext) {
  const own = r.facts.redirects[0];
  if (own || r.kind !== 'category') return own;
  return ctx.page.responses.get(responseKey('search', '', r.responseId))?.facts.redirects[0];
}

const meta: RuleMeta<'response'> = {
  id: 'redirect-with-render',
  judges: ['response'],
  title: 'Redirected response also rendered',
  description:
    'A search or category response whose redirect was sent (a category page’s on search/redirect) was also rendered before it: the provider’s controller cancels a redirected search before the render.',
  expects: 'A redirected response sends its redirect and no render.',
  appliesTo: ['search', 'category'],
  guards: ['search.redirect', 'category.redirect'],
  defaultSeverity: 'error',
  messages: {
    rendered:
      'responseId "{{responseId}}" was redirected ({{redirectId}}, to "{{url}}") and rendered too ({{renders}}). The provider\'s controller cancels a search whose response redirects before it updates the results, so it sends the redirect and never a render: the render counts a results page the shopper never saw.',
  },
  fix: 'When the response carries merchandising.redirect, send the redirect and navigate; do not render its results or send its render.',
  fixes: {
    rendered:
      'when the response carries merchandising.redirect, send {{redirect}} and navigate, without {{render}}.',
  },
  listens: ['render', 'redirect'],
  notJudged: {
    autocomplete:
      'the dropdown is rendered while the shopper types; a term submitted from it redirects after (ACC)',
    recommendations: 'its controller sends no redirect',
    bundles: 'its controller sends no redirect',
  },
};

export const redirectWithRender = defineRule({
  meta,
  response(r, ctx) {
    const redirect = redirectOf(r, ctx);
    if (!redirect) return [];
    const renders = r.facts.renders.filter((e) => e.time <= redirect.time);
    if (renders.length === 0) return [];
    return [
      finding(
        meta,
        r.responseId,
        {
          messageId: 'rendered',
          data: {
            responseId: r.responseId,
            redirectId: redirect.id,
            url: redirect.redirect ?? '',
            renders: list(renders.map((e) => e.id)),
            redirect: endpointOf(r.kind, 'redirect'),
            render: endpointOf(r.kind, 'render'),
          },
        },
        [...renders.map((e) => e.id), redirect.id],
        {
          responseId: r.responseId,
          behaviour: r.kind === 'category' ? 'category.redirect' : 'search.redirect',
        },
      ),
    ];
  },
});
