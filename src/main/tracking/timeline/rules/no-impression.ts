// `no-impression`: a rendered (not redirected) responseId without any impression once the page went idle.
// Info: a response with zero results legitimately sends none. When the sandbox issued the search response
// it knows: results or banners shown and none impressed is a rule of its own (a warning); a response with
// nothing to show (the no-results page, which the provider's client renders and never impresses) is silent.
import { endpointOf, isWidgetKind } from '../../../../shared/kinds';
import {
  finding,
  plural,
  seconds,
  type ResponseRule,
  type RuleContext,
  type RuleMeta,
} from './types';
import type { ResponseState } from '../model';
import { describeResponse, issuedFor } from './provenance';

const meta: RuleMeta = {
  id: 'no-impression',
  title: 'Render without any impression',
  description:
    'A rendered responseId (not redirected) with no impression once the page has ended (idle for timelines.noImpressionIdleMs, or judged as finished by a report), where the sandbox does not know what the response showed.',
  expects:
    'Impressions of the tiles on screen after a render (a search with zero results legitimately sends none).',
  appliesTo: ['search', 'category', 'recommendations', 'bundles'],
  guards: [
    'search.impression',
    'search.zero-results',
    'search.single-result-redirect',
    'recommendations.events',
  ],
  defaultSeverity: 'info',
  fix: 'Send search/impression for tiles as they scroll into view.',
  listens: ['render', 'redirect', 'impression'],
  needs: { pageEnd: true, provenance: true },
  notJudged: {
    autocomplete:
      'the dropdown changes with every keystroke: a response shown for less than the 1 s an impression needs is legitimately never impressed',
  },
};

export const noImpression: ResponseRule = {
  meta,
  judges: 'response',
  check(r, ctx) {
    const found = ctx.once(unimpressedRender);
    return found && found.shown < 0
      ? [finding(meta, r.responseId, found.message, found.ids, { responseId: r.responseId })]
      : [];
  },
};

/**
 * A rendered response of an ended page that no impression followed, with what it showed when the
 * sandbox issued it (`shown`: -1 when unknown, or when the client may legitimately have impressed none
 * of what it showed; `no-impression-of-results` reports the rest). A response that served nothing needs
 * no impression and gets no finding at all.
 */
export function unimpressedRender(
  r: ResponseState,
  ctx: RuleContext,
): { message: string; ids: string[]; shown: number } | undefined {
  if (!ctx.page.idle || !r.awaitingImpression) return undefined;
  const render = r.facts.renders[0]!;
  const issued = issuedFor(r, ctx);
  const own = issued && (issued.kind ?? 'search') === r.kind ? issued : undefined;
  let shown = own
    ? own.results.length +
      own.inline.length +
      Object.values(own.slots).reduce((n, uids) => n + uids.length, 0)
    : -1;
  // the no-results page, the empty widget: the provider's client renders it and impresses nothing
  if (shown === 0) return undefined;
  const why = shown > 0 ? mayHaveImpressedNone(r, ctx, own!.results.length, shown) : undefined;
  if (why !== undefined) shown = -1;
  const message =
    `responseId "${r.responseId}" was rendered (${render.id}) but no impression of it arrived before the page ended (${ended(ctx)}). ` +
    `After a render the spec expects impressions of the tiles as they scroll into view. ` +
    (shown > 0
      ? `The response (${describeResponse(own!)}) showed ${plural(shown, 'tile or banner', 'tiles and banners')}, so impressions were due. `
      : why !== undefined
        ? `(${why}, hence info.) `
        : `(${isWidgetKind(r.kind) ? 'A widget the shopper never scrolled to, or one without results,' : `A ${r.kind} response with zero results`} legitimately sends none, hence info.) `) +
    `Fix: send ${endpointOf(r.kind, 'impression')} with the uids of the visible tiles and data.responseId "${r.responseId}".`;
  return { message, ids: [render.id], shown };
}

/** a tile is impressed once visible for a second: a click sooner than this after the render may leave first */
const BEFORE_IMPRESSION_MS = 1_500;

/**
 * Why the provider's client may have impressed none of what a response showed, when it may: a widget
 * the shopper never scrolled to; a single result (the client navigates to the product at once); a click
 * sooner than an impression could be made (the page left with it); infinite scroll restoring later pages
 * (the shopper lands on them, page 1's tiles never in view).
 */
function mayHaveImpressedNone(
  r: ResponseState,
  ctx: RuleContext,
  results: number,
  shown: number,
): string | undefined {
  if (isWidgetKind(r.kind)) return 'A widget the shopper never scrolled to legitimately sends none';
  if (results === 1 && shown === 1)
    return 'A single result: the provider’s client may navigate to its product before any impression';
  const render = r.facts.renders[0]!;
  if (r.facts.clicks.some((c) => c.time - render.time < BEFORE_IMPRESSION_MS))
    return 'A tile was clicked before an impression could be made (a second in view), and the page left with the click';
  for (const o of ctx.page.responses.values())
    if (o !== r && o.kind === r.kind && o.renders === 0 && o.impressions > 0)
      return 'Infinite scroll restored later pages here (impressed without a render of their own): the shopper may never have seen page 1’s tiles';
  return undefined;
}

/**
 * How a page ends: it goes quiet, or a report, check or expectClean judges it as finished first. Said the
 * same way for both (the live sandbox and `check` of its export judge one page at different times).
 */
function ended(ctx: RuleContext): string {
  return `no event for ${seconds(ctx.settings.noImpressionIdleMs)}, or judged as finished by a report, check or expectClean`;
}
