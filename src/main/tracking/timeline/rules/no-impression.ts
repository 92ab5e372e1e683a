// `no-impression`: a rendered (not redirected) responseId without any impression once the page went idle.
import { endpointOf, isWidgetKind } from '../../../../shared/kinds';
import { finding, seconds, type ResponseRule } from './types';

export const noImpression: ResponseRule = {
  id: 'no-impression',
  scope: 'response',
  check(r, ctx) {
    if (!ctx.page.idle || !r.awaitingImpression) return [];
    const render = r.facts.renders[0]!;
    const message =
      `responseId "${r.responseId}" was rendered (${render.id}) but no impression of it arrived, and the page has been idle for ` +
      `${seconds(ctx.settings.noImpressionIdleMs)}. After a render the spec expects impressions of the tiles as they scroll into view ` +
      `(${isWidgetKind(r.kind) ? 'a widget the shopper never scrolled to, or one without results,' : `a ${r.kind} response with zero results`} legitimately sends none, hence info). ` +
      `Fix: send ${endpointOf(r.kind, 'impression')} with the uids of the visible tiles and data.responseId "${r.responseId}".`;
    return [
      finding('no-impression', 'info', r.responseId, message, [render.id], {
        responseId: r.responseId,
      }),
    ];
  },
};
