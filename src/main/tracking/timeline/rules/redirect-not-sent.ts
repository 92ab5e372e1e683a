// `redirect-not-sent` (warning): a page at the URL a merchandising redirect of this session pointed to,
// loaded within seconds of the sandbox's answer, while no event anywhere named that response: the
// storefront followed the redirect without sending search/redirect.
//
// Why it is certain enough to warn: the provider's controller tracks a merchandising redirect before it
// follows it (SC afterSearch: `track.redirect({redirectURL, responseId})`, sent at once with keepalive in
// production, then `window.location.replace(url)`), on search and category pages alike, and the search that
// carried it names its session (SC `params.tracking`: the tracker's sessionId). So a new page load at the
// redirect's URL right after the answer, with no redirect (nor any event) of that response, is a redirect
// followed by the storefront's own code. The sandbox knows both: the response it issued, with its
// requester, and the page at its URL. What it exempts: responses the sandbox did not issue, or issued to a
// request that asked `redirectResponse=full` or carried filters (the client renders those and does not
// redirect: SC afterSearch); a response some event named (its render, its redirect: their own rules judge
// it); a page at any other URL, of another session, or loaded more than FOLLOW_MS after the answer (a
// shopper who went there by other means); a page on the redirecting page load (redirect-routed's).
import type { IssuedResponse } from '../../../search/responses';
import type { Page } from '../page';
import { finding, defineRule, duration, type RuleContext, type RuleMeta } from './types';
import { EVERY_PAGE_KIND } from '../../rule-meta';
import { issuedKind } from '../../../search/responses';
import { quotedQuery } from './utils/provenance';
import { resolveUrl, withoutHash } from './utils/request-context';

/** a redirect's target page loads within this after the answer (the redirect is followed at once) */
const FOLLOW_MS = 10_000;

const meta: RuleMeta<'page'> = {
  id: 'redirect-not-sent',
  judges: ['page'],
  title: 'Merchandising redirect followed without search/redirect',
  description:
    'A page at the URL that a merchandising redirect the sandbox issued to this session pointed to, loaded within 10 s of the answer, while no event named that response: the storefront followed the redirect without sending search/redirect. Not for responses asked with redirectResponse=full or filters (the client renders them), nor a response some event named.',
  expects:
    'A merchandising redirect is tracked with search/redirect (its responseId and URL), sent at once, before the page navigates to it.',
  appliesTo: EVERY_PAGE_KIND,
  guards: ['search.redirect', 'category.redirect'],
  defaultSeverity: 'warning',
  messages: {
    unsent:
      'This page ({{url}}) is where response "{{responseId}}" ({{kind}} for {{query}}) redirects, which the sandbox answered {{gap}} before it to page load {{from}} of this session, and no search/redirect of that response was sent (no event names it). The provider’s controller sends search/redirect at once, before it navigates to the redirect (SC afterSearch: track.redirect, then window.location.replace), so the storefront followed the merchandising redirect without tracking it: the provider never counts the redirect.',
  },
  fix: 'Send search/redirect with {responseId, redirect} before navigating to the redirect’s URL, as the provider’s controller does (a category page’s redirect too goes to search/redirect).',
  listens: ['request'],
  needs: { provenance: true, origins: true },
  judgesOnlyWith: ['issued'],
};

/** The page's first accepted event it still holds (the page at the redirect's URL), read only for a finding. */
function firstEventId(page: Page): string | undefined {
  let first: { id: string; seq: number } | undefined;
  const consider = (e: { id: string; seq: number; accepted: boolean }) => {
    if (e.accepted && (!first || e.seq < first.seq)) first = e;
  };
  for (const r of page.responses.values()) for (const e of r.events) consider(e);
  for (const v of page.visitEvents) consider(v.base);
  return first?.id;
}

/** The redirecting response this page is the target of, when no event named it. */
function unsentRedirect(page: Page, ctx: RuleContext): IssuedResponse | undefined {
  const provenance = ctx.provenance;
  const first = page.firstSeenMs;
  if (!provenance || first === null || page.sessionId === '') return undefined;
  const asked = provenance.redirectsTo(page.siteId, page.sessionId);
  if (asked.length === 0) return undefined;
  const at = withoutHash(page.pageUrl);
  for (let i = asked.length - 1; i >= 0; i--) {
    const r = asked[i]!;
    const gap = first - r.issuedAt;
    if (gap < 0 || gap > FOLLOW_MS || r.full || r.filtered) continue;
    if (r.requester?.pageLoadId === page.pageLoadId) continue;
    if (resolveUrl(r.redirect!, r.requester?.pageUrl ?? page.pageUrl) !== at) continue;
    if (ctx.kindOrigin(r.responseId)) continue;
    return r;
  }
  return undefined;
}

export const redirectNotSent = defineRule({
  meta,
  count: (page, ctx) => (unsentRedirect(page, ctx) ? 1 : 0),
  page(page, ctx) {
    const r = unsentRedirect(page, ctx);
    if (!r) return [];
    const kind = issuedKind(r);
    const first = firstEventId(page);
    return [
      finding(
        meta,
        r.responseId,
        {
          messageId: 'unsent',
          data: {
            url: page.pageUrl,
            responseId: r.responseId,
            kind,
            query: quotedQuery(r),
            gap: duration(page.firstSeenMs! - r.issuedAt),
            from: r.requester?.pageLoadId ?? '(none)',
          },
        },
        first === undefined ? [] : [first],
        {
          responseId: r.responseId,
          behaviour: kind === 'category' ? 'category.redirect' : 'search.redirect',
        },
      ),
    ];
  },
});
