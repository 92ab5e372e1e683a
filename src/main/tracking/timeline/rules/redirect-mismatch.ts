// `redirect-mismatch`: a redirect event whose data.redirect is not the redirect its search response returned
// (or the response returned none). URLs are compared after resolving them, so "/a" and "/a/" stay different.
import { finding, plural, defineRule, type RuleMeta } from './types';
import { describeResponse, issuedFor } from './utils/provenance';

function normalise(url: string): string {
  try {
    return new URL(url.trim(), 'https://storefront.invalid/').href;
  } catch {
    return url.trim();
  }
}

/** A redirect matches when equal as resolved URLs, or when one is the path of the other on the storefront. */
export function sameRedirect(sent: string, returned: string): boolean {
  const a = normalise(sent);
  const b = normalise(returned);
  if (a === b) return true;
  try {
    const ua = new URL(a);
    const ub = new URL(b);
    // a relative redirect ("/gift-cards") that the storefront sent as its absolute URL is the same redirect
    const relative = (s: string) => !/^[a-z][a-z0-9+.-]*:/i.test(s.trim());
    return (
      (relative(sent) || relative(returned)) &&
      ua.pathname + ua.search + ua.hash === ub.pathname + ub.search + ub.hash
    );
  } catch {
    return false;
  }
}

const meta: RuleMeta<'response'> = {
  id: 'redirect-mismatch',
  judges: ['response'],
  title: 'Redirect differs from the response',
  description:
    'A redirect event whose data.redirect is not the merchandising.redirect of its response (or the response had none).',
  expects: 'data.redirect is the URL the search response redirected to.',
  appliesTo: ['search', 'category', 'autocomplete'],
  guards: ['search.redirect', 'category.redirect', 'autocomplete.redirect'],
  defaultSeverity: 'error',
  messages: {
    noRedirect:
      '{{count}} on responseId "{{responseId}}" ({{events}}) {{report}} redirect {{sent}}, but that response ({{response}}) returned no redirect. search/redirect is only for a search whose response carries merchandising.redirect.',
    otherRedirect:
      '{{count}} on responseId "{{responseId}}" ({{events}}) {{report}} redirect {{sent}}, but the response ({{response}}) returned merchandising.redirect "{{returned}}". The spec expects data.redirect to be the URL the response redirected to.',
  },
  fix: 'Send merchandising.redirect exactly as returned, and only when there is one.',
  fixes: {
    noRedirect: 'send it only when the response has a redirect, with that URL.',
    otherRedirect: 'send merchandising.redirect exactly as returned (and navigate there).',
  },
  listens: ['redirect'],
  needs: { provenance: true },
  judgesOnlyWith: ['issued'],
  notJudged: {
    recommendations: 'its controller sends no redirect',
    bundles: 'its controller sends no redirect',
  },
};

export const redirectMismatch = defineRule({
  meta,
  response(r, ctx) {
    const issued = issuedFor(r, ctx);
    if (!issued || r.facts.redirects.length === 0) return [];
    const bad = r.facts.redirects.filter(
      (e) => issued.redirect === null || !sameRedirect(e.redirect ?? '', issued.redirect),
    );
    if (bad.length === 0) return [];
    const sent = [...new Set(bad.map((e) => JSON.stringify(e.redirect ?? '')))].join(', ');
    const data = {
      count: plural(bad.length, 'redirect event'),
      responseId: r.responseId,
      events: bad.map((e) => e.id).join(', '),
      report: bad.length === 1 ? 'reports' : 'report',
      sent,
      response: describeResponse(issued),
      ...(issued.redirect !== null && { returned: issued.redirect }),
    };
    return [
      finding(
        meta,
        r.responseId,
        { messageId: issued.redirect === null ? 'noRedirect' : 'otherRedirect', data },
        bad.map((e) => e.id),
        { responseId: r.responseId },
      ),
    ];
  },
});
