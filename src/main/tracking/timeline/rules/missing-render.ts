// `missing-render`: impressions, clicks or carts for a responseId the page never rendered.
import { finding, list, plural, quoted, type ResponseRule } from './types';

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
    const otherRendered = [...ctx.page.responses.values()]
      .filter((o) => o !== r && o.rendered)
      .map((o) => o.responseId);
    const kinds = [...new Set(orphans.map((e) => e.event))];
    let message =
      `${plural(orphans.length, 'event')} (${list(kinds)}: ${list(orphans.map((e) => e.id))}) carry responseId "${r.responseId}", ` +
      `but this page sent no search/render with that responseId. The spec expects a render of each search response when its results are shown, ` +
      `before impressions and clicks on them. Fix: send search/render with data.responseId "${r.responseId}" when those results are displayed.`;
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
