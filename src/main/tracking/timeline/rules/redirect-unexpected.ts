// `redirect-unexpected` (warning): a search/redirect of a response whose request the provider's controller
// makes only when it will not redirect: asked with redirectResponse=full, or with filters.
//
// Why it is certain enough to warn: SearchController asks `redirectResponse=full` exactly when it will not
// follow a merchandising redirect (its merchandising redirects are off, or its results are already shown:
// SC `params`), and its afterSearch redirects only a response with a redirect URL, redirects on, no filters
// and the store not loaded yet; category pages run the same controller and send their redirect to
// search/redirect too. So a redirect beacon for a response asked in full or with filters did not come from
// it. What it exempts: responses asked minimal and without filters (the controller's own redirect); a
// response with no redirect at all (redirect-mismatch names a redirect the response never had); autocomplete
// (the dropdown's submit redirects on its own terms); responses the sandbox did not issue.
import { issuedKind } from '../../../search/responses';
import { finding, defineRule, type RuleMeta } from './types';
import { issuedFor, queryOf } from './utils/provenance';

const meta: RuleMeta<'response'> = {
  id: 'redirect-unexpected',
  judges: ['response'],
  title: 'Redirect the controller would not send',
  description:
    'A search/redirect of a response asked with redirectResponse=full or with filters: the provider’s controller asks so exactly when it will not redirect.',
  expects:
    'A redirect only for a response asked minimal and without filters (the controller’s merchandising redirect).',
  appliesTo: ['search'],
  guards: ['search.redirect', 'category.redirect'],
  explainedBy: ['redirect-mismatch'],
  defaultSeverity: 'warning',
  messages: {
    unexpected:
      '{{eventId}} redirected response "{{responseId}}" ({{kind}} for {{query}}) to "{{redirect}}", but that response was asked {{how}}. The provider’s controller asks with redirectResponse=full exactly when it will not redirect (its merchandising redirects are off, or its results are already on the page), and never redirects a filtered search: this redirect did not come from it, and the provider counts a redirect the shopper was not meant to get.',
  },
  fix: 'Send search/redirect only where the provider’s controller does: for a response asked minimal and without filters, before its results are shown.',
  listens: ['redirect'],
  needs: { provenance: true },
  notJudged: {
    category: 'a category page’s redirect goes to search/redirect: it is judged there',
    autocomplete: 'a term submitted from the dropdown redirects on its own terms (ACC)',
    recommendations: 'its controller sends no redirect',
    bundles: 'its controller sends no redirect',
  },
};

export const redirectUnexpected = defineRule({
  meta,
  response(r, ctx) {
    const issued = issuedFor(r, ctx);
    if (!issued || issued.redirect === null || !(issued.full || issued.filtered)) return [];
    const kind = issuedKind(issued);
    if (kind !== 'search' && kind !== 'category') return [];
    const first = r.facts.redirects[0];
    if (!first) return [];
    const how = [issued.full && 'with redirectResponse=full', issued.filtered && 'with filters']
      .filter(Boolean)
      .join(' and ');
    return [
      finding(
        meta,
        r.responseId,
        {
          messageId: 'unexpected',
          data: {
            eventId: first.id,
            responseId: r.responseId,
            kind,
            query: queryOf(issued),
            redirect: first.redirect ?? '',
            how,
          },
        },
        [first.id],
        { responseId: r.responseId },
      ),
    ];
  },
});
