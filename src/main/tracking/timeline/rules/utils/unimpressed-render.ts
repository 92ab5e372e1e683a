// A rendered (not redirected) response without any impression once its page ended, shared by
// `no-impression` (info: what it showed is unknown, or the client may legitimately have impressed none of
// it) and `no-impression-of-results` (the sandbox issued it with results or banners: impressions were due).
// A response with nothing to show (the no-results page, which the client renders and never impresses) is
// neither's, and so is a listing response replaced on screen by the listing's next search before its tiles
// could be a second in view (`replacedBeforeImpression`).
import { issuedKind, type IssuedResponse } from '../../../../search/responses';
import { endpointOf, isWidgetKind } from '../../../../../shared/kinds';
import type { FindingData } from '../../../../../shared/timeline';
import { plural, duration, type RuleContext, type ResponseRuleContext } from '../types';
import type { Response } from '../../response';
import type { TimelineEvent } from '../../model';
import { describeResponse, issuedFor } from './provenance';
import { controllerOf, controllerRenders, otherRequests } from './controller-renders';
import { countUpTo } from '../../../../sorted';

const WHAT =
  'responseId "{{responseId}}" was rendered ({{renderId}}) but no impression of it arrived before the page ended ({{ended}}). After a render the spec expects impressions of the tiles as they scroll into view.';
/** the message of a response that showed results or banners */
export const RESULTS_NOT_IMPRESSED = `${WHAT} The response ({{response}}) showed {{shown}}, so impressions were due.`;
/**
 * the message of a response rendered again (a cached response shown again) after its impressions, with
 * results, and no impression since
 */
export const NOT_IMPRESSED_AGAIN =
  'responseId "{{responseId}}" was rendered again ({{renderId}}, the response shown again after its impressions) but no impression of it followed before the page ended ({{ended}}). The provider\'s search controller resets a response\'s impression flags when it shows it again, so the tiles on screen are impressed again; the response ({{response}}) showed {{shown}}.';
/** the message of a response whose results are unknown, or may legitimately all be unimpressed */
export const NONE_IMPRESSED = `${WHAT} ({{why}}, hence info.)`;
export const IMPRESSION_FIX =
  'send {{impression}} with the uids of the visible tiles and data.responseId "{{responseId}}".';

/**
 * A rendered response of an ended page that no impression followed, with what it showed when the
 * sandbox issued it (`shown`: -1 when unknown, or when the client may legitimately have impressed none
 * of what it showed; `no-impression-of-results` reports the rest). A response that served nothing needs
 * no impression and gets no finding at all.
 */
export function unimpressedRender(
  r: Response,
  ctx: ResponseRuleContext,
): { data: FindingData; ids: string[]; shown: number; again: boolean } | undefined {
  if (!ctx.page.idle || !r.awaitingImpression) return undefined;
  // a render with an empty responseId (sent before the response arrived) names no response to impress:
  // `missing-render` reports the response whose events it left without a render, and names this render
  if (r.responseId === '') return undefined;
  // the page did send impressions of it, which the service rejected: `schema` names them and their fix
  // (asking for impressions here would point at the wrong fix), and fixing them fixes this
  if (r.facts.rejectedImpression) return undefined;
  // a widget's impressions sent with another widget's tag: they carry its responseId (one controller per
  // widget, its responseId its own), so they are its impressions; `missing-render` names the wrong tag
  if (impressedUnderOtherTag(r, ctx)) return undefined;
  // a response impressed before and rendered again since: the client impresses a cached response again
  const again = r.impressions > 0;
  const renders = r.facts.renders;
  // impressed, then rendered once: shown once, its impressions sent before its render (`order` names
  // them), not a response shown again after its impressions
  if (again && renders.length < 2) return undefined;
  const render = again ? renders[renders.length - 1]! : renders[0]!;
  // every showing of it that no impression followed (each of its renders, or those since its impressions)
  // replaced by another search of its listing before a tile could be a second in view: none was due
  if (
    renders.every(
      (e) => (again && e.time <= r.lastImpressionAt) || replacedBeforeImpression(r, e, ctx),
    )
  )
    return undefined;
  const issued = issuedFor(r, ctx);
  const own = issued && issuedKind(issued) === r.kind ? issued : undefined;
  // shown again, only a response the sandbox knows showed results, of a first page (the controller keeps
  // the impression flags of infinite scroll's later pages), is certain to be impressed again
  if (again && (!own || own.page > 1 || own.results.length === 0)) return undefined;
  let shown = own
    ? own.results.length +
      own.inline.length +
      Object.values(own.slots).reduce((n, uids) => n + uids.length, 0)
    : -1;
  // the no-results page, the empty widget: the provider's client renders it and impresses nothing
  if (shown === 0) return undefined;
  const why = shown > 0 ? mayHaveImpressedNone(r, ctx, own!, render) : undefined;
  if (why !== undefined) {
    if (again) return undefined;
    shown = -1;
  }
  const data = {
    responseId: r.responseId,
    renderId: render.id,
    ended: ended(ctx),
    impression: endpointOf(r.kind, 'impression'),
    ...(shown > 0
      ? {
          response: describeResponse(own!),
          shown: tilesAndBanners(own!.results.length, shown - own!.results.length),
        }
      : {
          why:
            why ??
            `${isWidgetKind(r.kind) ? 'A widget the shopper never scrolled to, or one without results,' : `A ${r.kind} response with zero results`} legitimately sends none`,
        }),
  };
  return { data, ids: [render.id], shown, again };
}

/** What a response showed, each in its own word: "12 tiles", "1 tile and 2 banners", "1 banner". */
function tilesAndBanners(tiles: number, banners: number): string {
  const parts = [
    ...(tiles > 0 ? [plural(tiles, 'tile')] : []),
    ...(banners > 0 ? [plural(banners, 'banner')] : []),
  ];
  return parts.join(' and ');
}

/**
 * Did the page send impressions with this widget response's responseId under another tag of its kind? Only
 * for widgets: a search or category response is one per responseId, whatever its events say.
 */
function impressedUnderOtherTag(r: Response, ctx: RuleContext): boolean {
  if (!isWidgetKind(r.kind)) return false;
  for (const o of ctx.page.responses.values())
    if (o !== r && o.kind === r.kind && o.responseId === r.responseId && o.impressions > 0)
      return true;
  return false;
}

/** a tile is impressed once visible for a second: a click sooner than this after the render may leave first */
const BEFORE_IMPRESSION_MS = 1_500;

/**
 * How soon after a render (by the renders' `context.timestamp`s, both of the client's clock) the listing's
 * render of another search leaves the first one's tiles never impressed: 1 s in view, plus 250 ms.
 *
 * Why (what the provider's real client sends, sections "Search render", "Impressions" and "Infinite
 * scroll, pagination, filters"; snap-preact createImpressionObserver and useIntersectionAdvanced; b092b31):
 * the client creates the render right after its store takes the response; its tiles are painted after
 * that, and a tile's 1 s clock starts only once the impression observer (threshold 0.7) first reports it
 * in view, a frame or more later, or at the observer's next 250 ms check of a tile not yet visible (one
 * fading in). The impression is made when the clock reaches 1 s; a tile removed sooner clears its timer.
 * A new search's render is created the same way, and its store update removes the old tiles in the next
 * commit, waiting for no observer. So the old tiles were in view for the gap between the two renders,
 * less their own start-up delay, plus the removal's, which is the shorter: under 1 s they were certainly
 * never impressed, and the 250 ms more is the old tiles' start-up delay (the observer's check interval)
 * that the removal does not share. From 1.25 s the impression was due: made before the tiles went, it
 * waits in the beacon's queue and is sent with the new render (the new search resets the controller's
 * impression flags, not the beacon's queue).
 */
export const REPLACED_BEFORE_IMPRESSION_MS = 1_250;

/**
 * Did the listing render another search's response within REPLACED_BEFORE_IMPRESSION_MS after `render` of
 * `r`, before rendering `r` again? Only a listing (search, category): two widgets of one profile may share
 * a page, each showing its own response, and the dropdown is not judged. A later page of the same query
 * does not replace it (infinite scroll appends it, page 1's tiles stay on screen), nor does anything of
 * another controller (the dropdown over the listing), nor a render without a timestamp.
 */
function replacedBeforeImpression(
  r: Response,
  render: TimelineEvent,
  ctx: ResponseRuleContext,
): boolean {
  if (isWidgetKind(r.kind) || r.kind === 'autocomplete' || render.tsMs === null) return false;
  const at = render.tsMs;
  const renders = ctx.pageShared(controllerRenders).get(controllerOf(r)) ?? [];
  // by timestamp, then arrival: this render among them (the last of its timestamp or before), then the next
  let i = countUpTo(renders, at, (x) => x.e.tsMs!) - 1;
  while (i >= 0 && renders[i]!.e !== render) i--;
  if (i < 0) return false;
  for (i++; i < renders.length; i++) {
    const next = renders[i]!;
    if (next.e.tsMs! - at >= REPLACED_BEFORE_IMPRESSION_MS || next.of === r) return false;
    if (otherRequests(r, next.of, ctx)) return true;
  }
  return false;
}

/**
 * Does the provider's client redirect to this response's only result? SC afterStore: with the
 * singleResult redirect on (its default), a search with a query, no filter of the shopper's and a total of
 * one result replaces the page with that product's, whatever banners came with it.
 */
function singleResultRedirect(own: IssuedResponse): boolean {
  return own.results.length === 1 && own.page === 1 && own.query !== '' && !own.filtered;
}

/**
 * Why the provider's client may have impressed none of what a response showed, when it may: a widget
 * the shopper never scrolled to; a single result (the client navigates to the product at once); a click
 * sooner than an impression could be made (the page left with it); infinite scroll restoring later pages
 * (the shopper lands on them, page 1's tiles never in view).
 */
function mayHaveImpressedNone(
  r: Response,
  ctx: RuleContext,
  own: IssuedResponse,
  render: TimelineEvent,
): string | undefined {
  if (isWidgetKind(r.kind)) return 'A widget the shopper never scrolled to legitimately sends none';
  if (r.kind === 'search' && singleResultRedirect(own))
    return 'A single result: the provider’s client may navigate to its product before any impression';
  // a click before a render again is one of the earlier view's
  const since = render === r.facts.renders[0] ? -Infinity : render.time;
  if (r.facts.clicks.some((c) => c.time >= since && c.time - render.time < BEFORE_IMPRESSION_MS))
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
  return `no event for ${duration(ctx.settings.noImpressionIdleMs)}, or judged as finished by a report, check or expectClean`;
}
