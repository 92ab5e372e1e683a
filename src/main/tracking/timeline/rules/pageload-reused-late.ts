// `pageload-reused-late` (warning): a listing response rendered again on the same page load, at the same
// URL, more than RELOAD_MS after its render before, with no other response of the listing rendered and no
// event of the page at another URL between them: a reload of the page that kept the pageLoadId too long.
//
// Why it is certain: one search controller does not search again for the results it shows (SC: no search
// when the store is loaded with the same parameters), so the same responseId rendered twice in a row by
// the listing comes from a new page load that the client's cache served: a reload. The client reuses a
// pageLoadId on a full page load only for the same href within 10 s of the previous load (B getPageLoadId,
// PAGE_LOAD_ID_EXPIRATION), and the later render follows its load by the time the page takes to search.
// What it exempts: renders at different URLs (not a reload: an SPA route); any event of the page at
// another URL between the two (an SPA route away and back, after which the controller may search again);
// a render of another response of the listing between them (the shopper came back to a cached search);
// renders within RELOAD_MS (a reload within 10 s, plus the time a page takes to search); autocomplete and
// widgets (other controllers).
import { duration } from '../../finding';
import { finding, defineRule, type RuleMeta } from './types';
import { nothingBetween, RELOAD_MS } from './utils/listing-renders';

const meta: RuleMeta<'response'> = {
  id: 'pageload-reused-late',
  judges: ['response'],
  title: 'pageLoadId kept across a late reload',
  description:
    'A listing response rendered again on the same page load and URL more than 20 s after its previous render, with nothing of another search or URL between: a reload that kept the pageLoadId beyond the client’s 10 s.',
  expects:
    'A new pageLoadId per full page load; the client reuses the stored one only for the same URL within 10 s.',
  appliesTo: ['search', 'category'],
  guards: ['identity.page-load'],
  defaultSeverity: 'warning',
  messages: {
    reloaded:
      '{{second}} renders responseId "{{responseId}}" again on page load "{{pageLoadId}}", {{after}} after {{first}} and at the same URL, with no other search rendered and nothing at another URL between: the page was reloaded and kept its pageLoadId. The provider\'s search controller does not search again for the results it shows, and its client reuses a pageLoadId on a reload only for the same URL within 10 s, so the two page loads\' events are merged into one.',
  },
  fix: 'Let the provider’s client make the pageLoadId on every page load; do not store it and restore it (sessionStorage, a server-rendered value).',
  listens: ['render', 'impression', 'clickthrough', 'addtocart'],
  needs: { pageResponses: true },
  notJudged: {
    autocomplete: 'the dropdown shows a response again when the shopper types the same term again',
    recommendations: 'a widget’s controller may load its profile again; its caching was not read',
    bundles: 'a widget’s controller may load its profile again; its caching was not read',
  },
};

export const pageloadReusedLate = defineRule({
  meta,
  response(r, ctx) {
    const renders = r.facts.renders;
    if (renders.length < 2) return [];
    const page = ctx.page;
    for (let i = 1; i < renders.length; i++) {
      const a = renders[i - 1]!;
      const b = renders[i]!;
      if (b.time - a.time <= RELOAD_MS || a.pageUrl !== b.pageUrl) continue;
      if (!nothingBetween(r, page, a, b, (url) => url)) continue;
      return [
        finding(
          meta,
          r.responseId,
          {
            messageId: 'reloaded',
            data: {
              second: b.id,
              first: a.id,
              responseId: r.responseId,
              pageLoadId: page.pageLoadId,
              after: duration(b.time - a.time),
            },
          },
          [a.id, b.id],
          { responseId: r.responseId },
        ),
      ];
    }
    return [];
  },
});
