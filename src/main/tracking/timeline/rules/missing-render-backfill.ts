// `missing-render-backfill`: events of a response the page never rendered, on a page that rendered other
// responses of the same search: the provider's client sends one render (page 1's) when infinite scroll
// restores several pages, so the later pages' responseIds legitimately have none. Info, with why.
import { finding, defineRule, type RuleMeta, judgedIn } from './types';
import { UNRENDERED_FIX, UNRENDERED_MESSAGES, unrenderedEvents } from './utils/unrendered';

const meta: RuleMeta<'response'> = {
  id: 'missing-render-backfill',
  judges: ['response'],
  title: 'Events without a render, beside a rendered page',
  description:
    'Impressions, clickthroughs or addtocarts of a search or category responseId never rendered on a page that rendered other responses of the same query (infinite-scroll backfill), when the response is not known to be page 1, nor an id the sandbox never issued beside rendered responses it issued, nor an earlier page load’s responseId that the client’s cache could not have restored there or that the page only clicked or added (missing-render’s: a stale responseId).',
  expects:
    'One render per response shown; infinite scroll restoring several pages may send page 1’s only.',
  ...judgedIn(['search', 'category'], ['search.backfill']),
  // a response whose only events are clicks of tiles impressed under another response is no restored page:
  // the click carried a responseId not its tile's (click-under-other-response)
  explainedBy: ['click-under-other-response'],
  explainedWholly: ['click-under-other-response'],
  defaultSeverity: 'info',
  messages: { backfill: UNRENDERED_MESSAGES.backfill },
  fix: 'Nothing if the page restored infinite-scroll pages; otherwise send a render for every response whose results are displayed.',
  fixes: { backfill: UNRENDERED_FIX },
  listens: ['render', 'redirect', 'impression', 'clickthrough', 'addtocart'],
  needs: { provenance: true, origins: true },
  notJudged: {
    autocomplete: 'no infinite scroll, so no backfill: missing renders are errors',
    recommendations: 'a widget has no backfill: missing renders are errors',
    bundles: 'a widget has no backfill: missing renders are errors',
  },
};

export const missingRenderBackfill = defineRule({
  meta,
  response(r, ctx) {
    const found = ctx.shared(unrenderedEvents);
    return found?.backfill
      ? [
          finding(meta, r.responseId, { messageId: 'backfill', data: found.data }, found.ids, {
            responseId: r.responseId,
          }),
        ]
      : [];
  },
});
