// `redirect-unexpected` (warning): a search/redirect of a response whose request the provider's controller
// makes only when it will not redirect: asked with redirectResponse=full, or with filters; or sent by a
// page load whose listing had already rendered another response.
//
// Why it is certain enough to warn: SearchController asks `redirectResponse=full` exactly when it will not
// follow a merchandising redirect (its merchandising redirects are off, or its results are already shown:
// SC `params`), and its afterSearch redirects only a response with a redirect URL, redirects on, no filters
// and the store not loaded yet; category pages run the same controller and send their redirect to
// search/redirect too. So a redirect beacon for a response asked in full or with filters did not come from
// it. What it exempts: responses asked minimal and without filters (the controller's own redirect); a
// response with no redirect at all (redirect-mismatch names a redirect the response never had); autocomplete
// (the dropdown's submit redirects on its own terms); responses the sandbox did not issue.
// The store half needs no issued response: afterSearch redirects only while the store is not loaded, and
// a render (search/render or category/render) comes right after the store is updated, so a redirect
// created after the page load's listing rendered another response did not come from that controller.
// Exempt: a render of the redirected response itself (redirect-with-render's), renders created within
// REPAINT_MS before the redirect (two controllers answering one search at once).
import { issuedKind } from '../../../search/responses';
import type { TimelineEvent } from '../model';
import type { Response } from '../response';
import { finding, defineRule, type RuleContext, type RuleMeta } from './types';
import { issuedFor, quotedQuery } from './utils/provenance';

const meta: RuleMeta<'response'> = {
  id: 'redirect-unexpected',
  judges: ['response'],
  title: 'Redirect the controller would not send',
  description:
    'A search/redirect of a response asked with redirectResponse=full or with filters (the provider’s controller asks so exactly when it will not redirect), or sent after the page load’s listing rendered another response (the controller redirects only before its results are shown).',
  expects:
    'A redirect only for a response asked minimal and without filters (the controller’s merchandising redirect).',
  appliesTo: ['search'],
  guards: ['search.redirect', 'category.redirect'],
  explainedBy: ['redirect-mismatch', 'redirect-with-render'],
  defaultSeverity: 'warning',
  messages: {
    unexpected:
      '{{eventId}} redirected response "{{responseId}}" ({{kind}} for {{query}}) to "{{redirect}}", but that response was asked {{how}}. The provider’s controller asks with redirectResponse=full exactly when it will not redirect (its merchandising redirects are off, or its results are already on the page), and never redirects a filtered search: this redirect did not come from it, and the provider counts a redirect the shopper was not meant to get.',
    afterResults:
      '{{eventId}} redirected response "{{responseId}}" to "{{redirect}}" after this page load\'s {{kind}} listing had rendered response "{{other}}" ({{render}}). The provider’s controller follows a merchandising redirect only before its results are shown: once its store holds a response it asks with redirectResponse=full and shows the results instead, so this redirect did not come from it.',
  },
  fix: 'Send search/redirect only where the provider’s controller does: for a response asked minimal and without filters, before its results are shown.',
  fixes: {
    unexpected:
      'send search/redirect only for a response asked minimal and without filters, before its results are shown.',
    afterResults:
      'send search/redirect only for the listing’s first search, before its results are shown; a later search shows its results.',
  },
  listens: ['redirect'],
  needs: { provenance: true, pageResponses: true },
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
    return afterResults(r, ctx) ?? askedNotToRedirect(r, ctx);
  },
});

/** renders this close before a redirect may answer the same search (two controllers at once) */
const REPAINT_MS = 100;

function afterResults(r: Response, ctx: RuleContext) {
  const first = r.facts.redirects[0];
  if (!first || r.facts.renders.length > 0) return undefined;
  let shown: { render: TimelineEvent; of: Response } | undefined;
  for (const o of ctx.page.responses.values()) {
    // the redirected response's own render (on category/render for a category page) is redirect-with-render's
    if (o.responseId === r.responseId || (o.kind !== 'search' && o.kind !== 'category')) continue;
    for (const e of o.facts.renders)
      if (e.time < first.time - REPAINT_MS && (!shown || e.time < shown.render.time))
        shown = { render: e, of: o };
  }
  if (!shown) return undefined;
  const data = {
    eventId: first.id,
    responseId: r.responseId,
    redirect: first.redirect ?? '',
    kind: shown.of.kind,
    other: shown.of.responseId,
    render: shown.render.id,
  };
  return [
    finding(meta, r.responseId, { messageId: 'afterResults', data }, [shown.render.id, first.id], {
      responseId: r.responseId,
    }),
  ];
}

function askedNotToRedirect(r: Response, ctx: RuleContext) {
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
          query: quotedQuery(issued),
          redirect: first.redirect ?? '',
          how,
        },
      },
      [first.id],
      { responseId: r.responseId },
    ),
  ];
}
