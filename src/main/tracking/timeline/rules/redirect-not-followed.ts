// `redirect-not-followed` (warning): a search or category response that carries a merchandising redirect,
// asked for as the provider's controller asks when it will follow one, was rendered on the page load that
// asked for it, with no redirect sent: the storefront showed the results instead of redirecting.
//
// Why it is certain enough to warn: SearchController asks `redirectResponse=full` whenever it will not
// redirect (its merchandising redirects are off, or its results are already shown: SC `params`), and
// otherwise asks the default (minimal); after a minimal response with a redirect URL and no filters it sends
// search/redirect and calls window.location.replace (SC afterSearch), and the search is cancelled before the
// store update, so no render of it is ever sent (category pages too). The sandbox remembers how each
// response was asked for. What it exempts: responses asked for with redirectResponse=full or with filters
// (the controller renders those); autocomplete (the dropdown shows a response while the shopper types; a
// term submitted from it redirects after); a render on another page load than the one that asked (not the
// render the controller would have made: the cache served it); a response whose redirect the page sent as
// well (redirect-with-render names that). Warning: a storefront that is not built on the provider's
// controllers may have its reasons, but the merchandiser's redirect did not happen.
import { endpointOf } from '../../../../shared/kinds';
import { finding, defineRule, type RuleMeta } from './types';
import { issuedFor, quotedQuery } from './utils/provenance';

const meta: RuleMeta<'response'> = {
  id: 'redirect-not-followed',
  judges: ['response'],
  title: 'Merchandising redirect rendered instead of followed',
  description:
    'A search or category response with a merchandising redirect, asked for as the provider’s controller asks when it follows redirects (redirectResponse minimal, no filters), was rendered with no redirect sent: the page showed the results instead of going to the redirect’s URL.',
  expects:
    'A response that redirects sends search/redirect and navigates to its URL, with no render; a storefront that does not follow redirects asks with redirectResponse=full.',
  appliesTo: ['search', 'category'],
  guards: ['search.redirect', 'category.redirect'],
  explainedBy: ['redirect-with-render'],
  defaultSeverity: 'warning',
  messages: {
    notFollowed:
      '{{renderId}} rendered {{kind}} response "{{responseId}}" for {{query}}, which carries the merchandising redirect "{{redirect}}", and this page sent no redirect. The request asked for a minimal response without filters, as the provider’s controller asks when it will follow a redirect; the controller then sends search/redirect and navigates to the URL, and never renders it. So the merchandiser’s redirect did not happen, and the provider counts a results page the shopper was meant to skip.',
  },
  fix: 'When a response carries merchandising.redirect, send search/redirect with it and navigate there (window.location.replace), without its render; if the storefront does not follow redirects, ask with redirectResponse=full.',
  fixes: {
    notFollowed:
      'send search/redirect with "{{redirect}}" and navigate there, without {{render}}; or, if this storefront does not follow merchandising redirects, ask with redirectResponse=full.',
  },
  listens: ['render', 'redirect'],
  // a category page's redirect is sent on search/redirect: another response of the page
  needs: { provenance: true, pageResponses: true },
  judgesOnlyWith: ['issued'],
  notJudged: {
    autocomplete:
      'the dropdown is rendered while the shopper types; a term submitted from it redirects after (ACC)',
    recommendations: 'its controller sends no redirect',
    bundles: 'its controller sends no redirect',
  },
};

export const redirectNotFollowed = defineRule({
  meta,
  response(r, ctx) {
    const issued = issuedFor(r, ctx);
    if (!issued || issued.redirect === null || issued.full || issued.filtered) return [];
    const f = r.facts;
    if (f.renders.length === 0 || f.redirects.length > 0) return [];
    // the search's redirect goes to search/redirect even on a category page: another response of this page
    for (const other of ctx.page.responses.values())
      if (other.responseId === r.responseId && other !== r && other.facts.redirects.length > 0)
        return [];
    const asked = issued.requester?.pageLoadId;
    const render = f.renders.find((e) => asked === undefined || e.pageLoadId === asked);
    if (!render) return [];
    return [
      finding(
        meta,
        r.responseId,
        {
          messageId: 'notFollowed',
          data: {
            renderId: render.id,
            kind: r.kind,
            responseId: r.responseId,
            query: quotedQuery(issued),
            redirect: issued.redirect,
            render: endpointOf(r.kind, 'render'),
          },
        },
        [render.id],
        { responseId: r.responseId },
      ),
    ];
  },
});
