// `response-replaced` (error): an impression, click or add naming a response after the same listing or
// dropdown rendered a response of another request, and before it was rendered again: its tiles were no
// longer on screen.
//
// Why it is certain: each controller shows one response at a time. The provider's search controller
// replaces its results (and resets its impression flags) with every new search of other parameters, and
// renders again when a cached response comes back; the autocomplete controller shows one dropdown
// response at a time. An event of the older response created after the newer render can only come from a
// storefront that kept the old responseId (or tracks tiles no longer shown).
// What it exempts: a newer response that may continue the older one (infinite scroll keeps page 1's tiles
// on screen): for search and category, the two must be renders of other requests, told by their pages'
// URLs (another path, query, filter or sort; page numbers and tracking parameters aside) or, when the
// sandbox issued both, by their query and page (the same query on a later page may continue it); an event within REPAINT_MS of the newer render (a click landing as
// the page repaints); widgets (two widgets of one profile may share a page); two documents sharing the page
// load: the client reuses its stored pageLoadId for a new document at the same href within 10 s (B
// getPageLoadId, PAGE_LOAD_ID_EXPIRATION: a second tab of the same search, opened that soon) and each
// document searches for itself (the client's cache lives in sessionStorage, per tab), so two responses of the
// same search first rendered at the same URL within RELOAD_MS (the 10 s plus what a page takes to render)
// are both on screen, each in its own tab, whatever order their events come in. One document does not search
// again with the same parameters (SC search(): no param change, no search), so nothing it shows is exempted
// by this; the same search rendered again later than that is judged as before.
// Which fix leads: when every such event was made at a URL that asks for the response's own search again
// (as at its render) and not for the newer one, the page shows that search again: the client served it
// from its cache and renders it again (SC search(), 348ff75), so the render is what is missing, not the
// responseId.
import { countUpTo } from '../../../sorted';
import type { TimelineEvent } from '../model';
import type { Response } from '../response';
import { endpointOf } from '../../../../shared/kinds';
import {
  describe,
  finding,
  list,
  defineRule,
  type RuleMeta,
  type RuleContext,
  judgedIn,
} from './types';
import { issuedKind } from '../../../search/responses';
import { sameSearch } from './utils/search-params';
import { issuedFor } from './utils/provenance';
import { RELOAD_MS } from './utils/listing-renders';
import {
  controllerOf,
  controllerRenders,
  otherRequests,
  type ControllerRender,
} from './utils/controller-renders';

const REPAINT_MS = 100;
const meta: RuleMeta<'response'> = {
  id: 'response-replaced',
  judges: ['response'],
  title: 'Events of a response no longer shown',
  description:
    'An impression, click or add naming a response after the same listing or dropdown rendered the response of another search, before the first was rendered again.',
  expects:
    'A listing (or the autocomplete dropdown) shows one response at a time: its events name the response last rendered.',
  ...judgedIn(['search', 'category', 'autocomplete'], ['search.one-response-shown']),
  explainedBy: ['responseid-stale'],
  defaultSeverity: 'error',
  messages: {
    notRenderedAgain:
      '{{events}} {{names}} responseId "{{responseId}}" at a URL that asks for its search again, after the {{controller}} had rendered another search\'s response "{{other}}" ({{otherRender}}), and "{{responseId}}" was not rendered again: the page shows it again from the client\'s cache without its render. The provider\'s {{kind}} controller renders after every search, a response served from its cache included, so the service counts these events for a response it never saw shown again.',
    replaced:
      '{{events}} {{names}} responseId "{{responseId}}", but the {{controller}} had rendered another search\'s response "{{other}}" before ({{otherRender}}) and not "{{responseId}}" again since: its tiles were no longer on screen. The provider\'s {{kind}} controller shows one response at a time and renders it again when it comes back.',
  },
  fix: 'Take the responseId from the response whose results are on screen (each tile’s own), not one kept from an earlier search.',
  fixes: {
    notRenderedAgain:
      'send {{render}} again when a response comes back from the cache (the provider’s controller renders after every search), before its impressions.',
    replaced:
      "send {{endpoint}} with the responseId of the response whose results are on screen (each tile's own), not one kept from an earlier search.",
  },
  listens: ['render', 'impression', 'clickthrough', 'addtocart'],
  // when the sandbox issued both responses, their query and page tell a continued list from a new search
  needs: { pageResponses: true, provenance: true },
  notJudged: {
    recommendations: 'two widgets of one profile may share a page, each showing its own response',
    bundles: 'two widgets of one profile may share a page, each showing its own response',
  },
};

/** The latest of `renders` (by time) at or before `ms`. */
function latestAt(renders: readonly ControllerRender[], ms: number): ControllerRender | undefined {
  return renders[countUpTo(renders, ms, (x) => x.e.tsMs!) - 1];
}

/**
 * Are `a` and `b` the same search shown by two documents that share the page load (a second tab of it)?
 * The sandbox issued both for the same search (the same parameters chose their results: a sort that keeps
 * the URL is another search), and their first renders were made at the same URL within RELOAD_MS of each
 * other. Listings only: the dropdown shows a response per term typed. Without the issued responses, two
 * renders at one URL are never other requests (`otherRequests`), so nothing is asked then.
 */
function twoDocuments(a: Response, b: Response, ctx: RuleContext): boolean {
  if (a.kind === 'autocomplete') return false;
  const ia = issuedFor(a, ctx);
  const ib = issuedFor(b, ctx);
  if (!ia || !ib || ia.asked === undefined || ia.asked !== ib.asked) return false;
  if (issuedKind(ia) !== issuedKind(ib)) return false;
  const ra = a.facts.renders[0];
  const rb = b.facts.renders[0];
  return (
    ra !== undefined &&
    rb !== undefined &&
    ra.tsMs !== null &&
    rb.tsMs !== null &&
    ra.pageUrl === rb.pageUrl &&
    Math.abs(rb.tsMs - ra.tsMs) <= RELOAD_MS
  );
}

export const responseReplaced = defineRule({
  meta,
  response(r, ctx) {
    if (r.facts.renders.length === 0) return [];
    // every render of the controller (this kind; a dropdown or listing per page), by time
    const renders = ctx.pageShared(controllerRenders).get(controllerOf(r)) ?? [];
    if (renders.length < 2) return [];
    const bad: Array<{ e: TimelineEvent; by: TimelineEvent; of: Response }> = [];
    // its impressions, clicks and adds (those with a timestamp), in that order
    for (const events of [r.facts.impressions, r.facts.clicks, r.facts.carts])
      for (const e of events) {
        if (e.tsMs === null) continue;
        const shown = latestAt(renders, e.tsMs - REPAINT_MS);
        // before the response's own first render: `order`'s to name
        if (!shown || shown.of === r) continue;
        if (!r.facts.renders.some((own) => own.tsMs !== null && own.tsMs < shown.e.tsMs!)) continue;
        if (otherRequests(r, shown.of, ctx) && !twoDocuments(r, shown.of, ctx))
          bad.push({ e, by: shown.e, of: shown.of });
      }
    if (bad.length === 0) return [];
    const by = bad[0]!;
    const ownUrl = r.facts.renders[0]!.pageUrl;
    const again = bad.every(
      (b) => sameSearch(b.e.pageUrl, ownUrl) && !sameSearch(b.e.pageUrl, b.by.pageUrl),
    );
    return [
      finding(
        meta,
        r.responseId,
        {
          messageId: again ? 'notRenderedAgain' : 'replaced',
          data: {
            events: list(
              bad.map((b) => describe(b.e)),
              3,
            ),
            names: bad.length === 1 ? 'names' : 'name',
            responseId: r.responseId,
            controller: r.kind === 'autocomplete' ? 'dropdown' : 'listing',
            other: by.of.responseId,
            otherRender: by.by.id,
            kind: r.kind,
            endpoint: endpointOf(r.kind, by.e.event),
            render: endpointOf(r.kind, 'render'),
          },
        },
        [...new Set(bad.flatMap((b) => [b.by.id, b.e.id]))],
        { responseId: r.responseId },
      ),
    ];
  },
});
