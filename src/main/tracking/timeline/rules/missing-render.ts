// `missing-render`: impressions, clicks or carts for a response (kind + responseId + tag) the page never rendered.
import { endpointOf, isWidgetKind } from '../../../../shared/kinds';
import { finding, list, plural, quoted, type ResponseRule } from './types';

/** Only search and category pages backfill infinite scroll (one render for several responses). */
const BACKFILLS = new Set(['search', 'category']);

export const missingRender: ResponseRule = {
  id: 'missing-render',
  scope: 'response',
  check(r, ctx) {
    const f = r.facts;
    if (r.responseId === '') return [];
    // A redirect replaces the results page: the provider's client sends no render for it.
    if (f.renders.length > 0 || f.redirects.length > 0) return [];
    // A render the service rejected is reported by `schema`; fixing it fixes this too.
    if (f.rejectedRender) return [];
    if (f.impressions.length + f.clicks.length + f.carts.length === 0) return [];
    const orphans = r.events.filter(
      (e) =>
        e.accepted &&
        (e.event === 'impression' || e.event === 'clickthrough' || e.event === 'addtocart'),
    );
    const render = endpointOf(r.kind, 'render');
    const widget = isWidgetKind(r.kind);
    const others = [...ctx.page.responses.values()].filter(
      (o) => o !== r && o.rendered && o.kind === r.kind,
    );
    const otherRendered = BACKFILLS.has(r.kind) ? others.map((o) => o.responseId) : [];
    const kinds = [...new Set(orphans.map((e) => e.event))];
    const what = widget
      ? `responseId "${r.responseId}" and tag "${r.tag}"`
      : `responseId "${r.responseId}"`;
    let message =
      `${plural(orphans.length, 'event')} (${list(kinds)}: ${list(orphans.map((e) => e.id))}) carry ${what}, ` +
      `but this page sent no ${render} with ${widget ? 'that tag and responseId' : 'that responseId'}. The spec expects a render of each ${r.kind} response when its results are shown, ` +
      `before impressions and clicks on them. Fix: send ${render} with data.responseId "${r.responseId}"${widget ? ` and data.tag "${r.tag}"` : ''} when those results are displayed.`;
    // a widget's events carrying another widget's tag land here: say which tag the render had
    const otherTags = widget
      ? others.filter((o) => o.responseId === r.responseId).map((o) => o.tag)
      : [];
    if (otherTags.length > 0) {
      message += ` The page rendered responseId "${r.responseId}" with tag ${quoted(otherTags, 3)}: impressions, clicks and adds of a widget carry the tag of its own render.`;
    }
    if (otherRendered.length > 0) {
      message +=
        ` Reported as info because the page rendered other responses (${quoted(otherRendered, 3)}): ` +
        `the provider's client sends one render for several responses when infinite scroll backfills pages.`;
    }
    return [
      finding(
        'missing-render',
        otherRendered.length > 0 ? 'info' : 'error',
        r.responseId,
        message,
        orphans.map((e) => e.id),
        {
          responseId: r.responseId,
        },
      ),
    ];
  },
};
