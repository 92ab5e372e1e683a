// `no-impression`: a rendered (not redirected) responseId without any impression once the page went idle.
// Info by default: a response with zero results legitimately sends none. When the sandbox issued the search
// response it knows: results or banners shown and none impressed is a warning; a response with nothing to
// show (the no-results page, which the provider's client renders and never impresses) is not reported.
import { endpointOf, isWidgetKind } from '../../../../shared/kinds';
import { finding, plural, seconds, type ResponseRule } from './types';
import { describeResponse, issuedFor } from './provenance';

export const noImpression: ResponseRule = {
  id: 'no-impression',
  scope: 'response',
  check(r, ctx) {
    if (!ctx.page.idle || !r.awaitingImpression) return [];
    const render = r.facts.renders[0]!;
    const issued = r.kind === 'search' ? issuedFor(r, ctx) : undefined;
    const shown = issued
      ? issued.results.length +
        issued.inline.length +
        Object.values(issued.slots).reduce((n, uids) => n + uids.length, 0)
      : -1;
    if (shown === 0) return [];
    const message =
      `responseId "${r.responseId}" was rendered (${render.id}) but no impression of it arrived, and the page has been idle for ` +
      `${seconds(ctx.settings.noImpressionIdleMs)}. After a render the spec expects impressions of the tiles as they scroll into view ` +
      (shown > 0
        ? `The response (${describeResponse(issued!)}) showed ${plural(shown, 'tile or banner', 'tiles and banners')}, so impressions were due. `
        : `(${isWidgetKind(r.kind) ? 'a widget the shopper never scrolled to, or one without results,' : `a ${r.kind} response with zero results`} legitimately sends none, hence info). `) +
      `Fix: send ${endpointOf(r.kind, 'impression')} with the uids of the visible tiles and data.responseId "${r.responseId}".`;
    return [
      finding('no-impression', shown > 0 ? 'warning' : 'info', r.responseId, message, [render.id], {
        responseId: r.responseId,
      }),
    ];
  },
};
