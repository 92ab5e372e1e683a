// `redirect-from-target` (error): a redirect sent from the page it redirects to.
//
// Why it is certain: the provider's controllers send search/redirect (autocomplete/redirect) at once, from
// the page that searched, and then replace the location; the event's context.pageUrl is the href at the
// moment it is created, so it is never the redirect's target. A storefront that tracks the redirect on
// the landing page (after the navigation) reports it from the wrong page load, where nothing searched.
// What it exempts: redirects whose target cannot be read as a URL, and targets that only differ by a hash.
// The target is the response's redirect when the sandbox issued it: a redirect event that names the page it
// was sent from, where the response redirects elsewhere, was sent from the search page with the wrong URL
// (redirect-mismatch's), not from the landing page.
import { endpointOf } from '../../../../shared/kinds';
import { finding, list, defineRule, type RuleMeta } from './types';
import { issuedFor } from './utils/provenance';

const meta: RuleMeta<'response'> = {
  id: 'redirect-from-target',
  judges: ['response'],
  title: 'Redirect tracked on its landing page',
  description:
    'A search or autocomplete redirect whose context.pageUrl is the page it redirects to: it was tracked after the navigation, from the landing page, not from the page that searched.',
  expects:
    'The redirect is sent from the page that searched, just before it leaves (context.pageUrl = that page).',
  appliesTo: ['search', 'autocomplete'],
  guards: ['search.redirect', 'autocomplete.redirect'],
  defaultSeverity: 'error',
  messages: {
    fromTarget:
      '{{events}} {{redirects}} to "{{url}}" but {{were}} sent from that very page (context.pageUrl "{{pageUrl}}"): tracked after the navigation, on the landing page\'s load, where nothing searched. The provider\'s controller sends the redirect from the page that searched, just before it leaves.',
  },
  fix: 'Send the redirect from the search page when the response carries merchandising.redirect, then navigate (the provider’s controller does both).',
  fixes: {
    fromTarget:
      'send {{redirect}} from the search page when the response carries merchandising.redirect, then navigate.',
  },
  listens: ['redirect'],
  // the redirect the response carried, when the companion issued it
  needs: { provenance: true },
  notJudged: {
    category: 'a category page’s redirect goes to search/redirect: judged as search',
    recommendations: 'its controller sends no redirect',
    bundles: 'its controller sends no redirect',
  },
};

/** The page a URL names: origin, path and query (the hash aside); undefined when it is not a URL. */
function pageOf(url: string, base?: string): string | undefined {
  try {
    const u = new URL(url, base);
    return `${u.origin}${u.pathname.replace(/\/+$/, '')}${u.search}`;
  } catch {
    return undefined;
  }
}

export const redirectFromTarget = defineRule({
  meta,
  response(r, ctx) {
    const served = issuedFor(r, ctx)?.redirect ?? null;
    const bad = r.facts.redirects.filter((e) => {
      const target = served ?? e.redirect;
      if (!target) return false;
      const here = pageOf(e.pageUrl);
      return here !== undefined && here === pageOf(target, e.pageUrl);
    });
    if (bad.length === 0) return [];
    return [
      finding(
        meta,
        r.responseId,
        {
          messageId: 'fromTarget',
          data: {
            events: list(bad.map((e) => e.id)),
            redirects: bad.length === 1 ? 'redirects' : 'redirect',
            url: bad[0]!.redirect ?? '',
            were: bad.length === 1 ? 'was' : 'were',
            pageUrl: bad[0]!.pageUrl,
            redirect: endpointOf(r.kind, 'redirect'),
          },
        },
        bad.map((e) => e.id),
        { responseId: r.responseId },
      ),
    ];
  },
});
