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
// widgets (other controllers). A click of the page between the two renders tells another cause
// (`restored`): a pageLoadId kept by a reload would have gone with that click to the page it opened too,
// whose events would then sit between them at another URL; the page load came back unchanged, which only
// the browser's back/forward cache does, and the client sends nothing then, so a `pageshow` handler re-sent
// the render.
import { duration } from '../../finding';
import { finding, defineRule, type RuleMeta } from './types';
import { nothingBetween, RELOAD_MS } from './utils/listing-renders';
import type { Page } from '../page';

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
    restored:
      '{{second}} renders responseId "{{responseId}}" again on page load "{{pageLoadId}}", {{after}} after {{first}} and at the same URL, after the page\'s click {{click}} led away: the page came back from the browser\'s back/forward cache and its tracking was sent again. A page restored from that cache keeps its state, and the provider\'s client sends nothing when it comes back (no new search, no render, each tile impressed once), so a handler of the `pageshow` event (or a framework hook on it) re-sent the render: the provider counts a search the shopper did not make again.',
    reloaded:
      '{{second}} renders responseId "{{responseId}}" again on page load "{{pageLoadId}}", {{after}} after {{first}} and at the same URL, with no other search rendered and nothing at another URL between: the page was reloaded and kept its pageLoadId. The provider\'s search controller does not search again for the results it shows, and its client reuses a pageLoadId on a reload only for the same URL within 10 s, so the two page loads\' events are merged into one.',
  },
  fixes: {
    restored:
      'do not re-send tracking when a page comes back from the back/forward cache (pageshow with event.persisted): the restored page already sent its render and impressions.',
    reloaded:
      'let the provider’s client make the pageLoadId on every page load; do not store it and restore it (sessionStorage, a server-rendered value).',
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
      const click = clickBetween(page, a.time, b.time);
      return [
        finding(
          meta,
          r.responseId,
          {
            messageId: click ? 'restored' : 'reloaded',
            data: {
              second: b.id,
              first: a.id,
              responseId: r.responseId,
              pageLoadId: page.pageLoadId,
              after: duration(b.time - a.time),
              click: click ?? '',
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

/** The first accepted clickthrough of the page after `from` and before `to` (its id), if one was sent. */
function clickBetween(page: Page, from: number, to: number): string | undefined {
  let first: { id: string; time: number } | undefined;
  for (const o of page.responses.values())
    for (const e of o.events)
      if (
        e.accepted &&
        e.event === 'clickthrough' &&
        e.time > from &&
        e.time < to &&
        (!first || e.time < first.time)
      )
        first = e;
  return first?.id;
}
