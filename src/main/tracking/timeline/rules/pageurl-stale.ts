// `pageurl-stale` (warning): the render of a response carries a pageUrl other than the URL its search was
// requested from, on the same page load: the beacon's pageUrl is not the page's href when the render was
// created (a fixed `href` given to the beacon in an SPA: every event keeps the first URL).
//
// Why it is certain enough to warn: the controllers send `domain` = window.location.href with every search
// (SC and ACC `params.tracking.domain`), and render right after the response is in the store, so the render
// is created at the URL that searched; the beacon's pageUrl is `config.href || window.location.href` when
// the event is created (B getContext). What it exempts: renders on another page load (the client's cache
// served the response again) and renders that arrived more than RENDERED_MS after the answer (not the one
// made right after it); a URL that differs only in its fragment; a search the page made after it from the
// render's URL, answered before the render arrived (the shopper moved on while the first search was in
// flight); requests that carried no pageLoadId or domain.
// Which side is wrong: when the render's URL asks for the response's query and the request's domain does
// not (a bare origin, say), the beacon is right and the request was built by hand with another domain.
import type { TimelineEvent } from '../model';
import { finding, defineRule, type RuleMeta, judgedIn } from './types';
import { issuedFor } from './utils/provenance';
import { withoutHash } from './utils/request-context';
import { normalQuery, queryOf } from './utils/search-params';

/** a render made right after its response arrives within this (its queue's debounce, a slow network) */
export const RENDERED_MS = 10_000;

const meta: RuleMeta<'response'> = {
  id: 'pageurl-stale',
  judges: ['response'],
  title: 'pageUrl is not the URL that searched',
  description:
    'The render of a response carries a pageUrl other than the URL its search request was made from (the request’s domain), on the same page load: the beacon’s pageUrl is not window.location.href when the event is created.',
  expects:
    'A render is created right after its response, at the URL that searched: its pageUrl is that URL (window.location.href).',
  ...judgedIn(
    ['search', 'category', 'autocomplete'],
    ['identity.page-url', 'search.request-context'],
  ),
  defaultSeverity: 'warning',
  messages: {
    domainNotHref:
      '{{eventId}}, the render of response "{{responseId}}", carries pageUrl "{{carried}}", which asks for its search ({{query}}), but the search was requested with domain "{{requested}}", which does not. The provider’s controllers send domain = window.location.href with every search, so the request was built with another domain than the page’s: the service joins the search to the wrong page.',
    stale:
      '{{eventId}}, the render of response "{{responseId}}", carries pageUrl "{{carried}}", but that search was requested from "{{requested}}" on this page load (its request’s domain, window.location.href). The provider’s client takes pageUrl from window.location.href when the event is created, so the beacons say the shopper was on another page than the one that searched: the beacon was probably given a fixed `href` at start, and every event of the SPA keeps the first URL.',
  },
  fixes: {
    stale:
      'leave the beacon’s pageUrl to window.location.href (do not pass a fixed `href` option in an SPA), so each event carries the URL it was created at.',
    domainNotHref:
      'send the search request’s domain as the page’s href when it searches (window.location.href, as the provider’s controllers do), not {{requestedWhat}}.',
  },
  fix: 'Leave the beacon’s pageUrl to window.location.href (do not pass a fixed `href` option in an SPA), so each event carries the URL it was created at.',
  listens: ['render'],
  needs: { provenance: true },
  judgesOnlyWith: ['issued'],
  notJudged: {
    recommendations:
      'the recommend API’s requests carry no domain: nothing says where a widget’s response was asked from',
    bundles:
      'the recommend API’s requests carry no domain: nothing says where a widget’s response was asked from',
  },
};

export const pageurlStale = defineRule({
  meta,
  response(r, ctx) {
    const issued = issuedFor(r, ctx);
    const asked = issued?.requester;
    if (!issued || asked?.pageLoadId === undefined || asked.pageUrl === undefined) return [];
    let render: TimelineEvent | undefined;
    for (const ev of r.facts.renders)
      if (ev.pageLoadId === asked.pageLoadId && (!render || ev.seq < render.seq)) render = ev;
    if (!render || render.receivedMs === null) return [];
    if (render.receivedMs - issued.issuedAt > RENDERED_MS) return [];
    const carried = withoutHash(render.pageUrl);
    if (carried === withoutHash(asked.pageUrl)) return [];
    // the shopper moved on while the search was in flight: a later search of the page from the render's URL
    const later = ctx.provenance!.issuedTo(ctx.page.siteId, asked.pageLoadId);
    for (const o of later)
      if (
        o.issuedAt >= issued.issuedAt &&
        o.issuedAt <= render.receivedMs &&
        o.requester?.pageUrl !== undefined &&
        withoutHash(o.requester.pageUrl) === carried
      )
        return [];
    const query = normalQuery(issued.query);
    const requestWrong =
      query !== '' && queryOf(render) === query && queryOf({ pageUrl: asked.pageUrl }) !== query;
    return [
      finding(
        meta,
        r.responseId,
        {
          messageId: requestWrong ? 'domainNotHref' : 'stale',
          data: {
            eventId: render.id,
            responseId: r.responseId,
            carried: render.pageUrl,
            requested: asked.pageUrl,
            query: JSON.stringify(issued.query),
            requestedWhat: isOrigin(asked.pageUrl) ? 'the site’s origin' : 'another URL',
          },
        },
        [render.id],
        {
          responseId: r.responseId,
          ...(requestWrong &&
            r.kind !== 'autocomplete' && {
              behaviour: `${r.kind}.request-context`,
            }),
        },
      ),
    ];
  },
});

/** Is the URL a bare origin (no path beyond "/", no query)? */
function isOrigin(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.pathname === '/' || u.pathname === '') && u.search === '';
  } catch {
    return false;
  }
}
