// `search-not-rendered` (warning): the sandbox answered a search (or category) request of this page load,
// and the page went on sending queued beacons long after, yet no event of the page names that response:
// its render was never sent.
//
// Why it is certain enough to warn: the provider's SearchController renders after every completed search,
// right after the store update (SC search(): `track.render({responseId})`), a no-results search included
// (1925c5f built that render from the request); the only searches it does not render are a cancelled one
// (middleware), a merchandising redirect (which sends search/redirect instead and leaves) and an error.
// The search request names its page load (SC: `params.tracking.pageLoadId` from the tracker's context),
// and the render waits in the beacon's 300 ms queue with the page's impressions and adds: a queued request
// of the same page that arrives more than FLUSHED_MS after the response was answered was flushed after the
// render was queued, so the render would have gone with it. What it exempts: responses with a redirect (a
// merchandising redirect is not rendered; search/redirect has rules of its own); autocomplete responses
// (the dropdown skips a repeated search's render, and one typed over may never be shown); infinite-scroll
// backfill pages (pages 2…N fetched with page 1 on load share page 1's render: a later page of the same
// query answered within BACKFILL_MS of a lower one); pages that sent no queued request after it (the page
// was left: a single-result redirect may lose its queued render with the page); count-only requests
// (resultsPerPage=0: the Finder's counts, which it never renders); a middleware that cancels a completed
// search cannot be told apart, hence a warning.
import type { RecordedEvent } from '../../../../shared/events';
import { issuedKind, type IssuedResponse } from '../../../search/responses';
import type { Page } from '../page';
import { parseRfc3339 } from '../model';
import {
  finding,
  defineRule,
  plural,
  duration,
  type RuleContext,
  type RuleMeta,
  judgedIn,
} from './types';
import { tallySlot } from './utils/tally-slot';
import { countOnly, quotedQuery } from './utils/provenance';
import { fetchedBy } from './utils/backfill';
import { FLUSHED_MS } from './utils/queued-render';

/** the beacon's queued events: render, impression and addtocart (clickthroughs are sent at once) */
const QUEUED = new Set(['render', 'impression', 'addtocart']);

const meta: RuleMeta<'page'> = {
  id: 'search-not-rendered',
  judges: ['page'],
  title: 'Search answered but never rendered',
  description:
    'A search or category response the sandbox answered to this page load has no render (nor any other event), although the page went on sending queued beacons: the storefront dropped the render, for example on a no-results page.',
  expects:
    'Every completed search is rendered once on the page that asked for it, a search with no results included; only a merchandising redirect sends search/redirect instead.',
  ...judgedIn(
    ['search', 'category'],
    ['search.zero-results-render', 'search.render', 'search.request-context'],
  ),
  defaultSeverity: 'warning',
  messages: {
    notRendered:
      'The sandbox answered this page load’s {{kind}} for {{query}} (response "{{responseId}}", {{results}}) at {{issued}}, and the page went on: {{laterId}} arrived {{after}} later from the beacon’s queue, where the render would have waited. No event of this page names "{{responseId}}": its render was never sent. The provider’s controller renders every completed search, a no-results one included, so the provider never sees this search.',
  },
  fix: 'Send the render of every search the page completes, {responseId} only, right after its results are in the store (a no-results page included), as the provider’s controller does.',
  listens: ['render', 'impression', 'addtocart'],
  needs: { provenance: true },
  judgesOnlyWith: ['issued'],
};

/**
 * the page's latest queued request (by arrival: its seq): its id and when it arrived (sandbox time, as
 * recorded); the time is read only when the page load asked the sandbox for something
 */
interface LatestQueued {
  id: string;
  seq: number;
  receivedAt: string;
}

const latestQueued = tallySlot<LatestQueued>();

function tally(page: Page, rec: RecordedEvent): boolean {
  if (!rec.accepted || !QUEUED.has(rec.event)) return false;
  const t = latestQueued.of(page);
  // made with the page's first (no function made for every request to make it)
  if (t === undefined) {
    latestQueued.make(page, () => ({ id: rec.id, seq: rec.seq, receivedAt: rec.receivedAt }));
    return false;
  }
  // a request is tallied again when the real service's answer comes late: the latest stays the latest
  if (rec.seq < t.seq) return false;
  t.id = rec.id;
  t.seq = rec.seq;
  t.receivedAt = rec.receivedAt;
  // the count reads the provenance as well: it is recounted on every event anyway
  return false;
}

/** when the page's latest queued request arrived, in ms, if it has one with a readable time */
function latestMs(page: Page): { id: string; ms: number } | undefined {
  const t = latestQueued.of(page);
  const ms = t ? parseRfc3339(t.receivedAt) : null;
  return t && ms !== null ? { id: t.id, ms } : undefined;
}

/** the page's responses whose render never came: the search-kind ones this page load asked for */
function unrendered(page: Page, ctx: RuleContext): IssuedResponse[] {
  const asked = ctx.provenance?.issuedTo(page.siteId, page.pageLoadId);
  if (!asked || asked.length === 0) return [];
  const latest = latestMs(page);
  if (!latest) return [];
  const out: IssuedResponse[] = [];
  for (const r of asked) {
    const kind = issuedKind(r);
    if (kind !== 'search' && kind !== 'category') continue;
    if (r.redirect !== null || countOnly(r) || latest.ms - r.issuedAt <= FLUSHED_MS) continue;
    if (named(page, r.responseId) || fetchedBy(r, asked)?.how === 'backfill') continue;
    out.push(r);
  }
  return out;
}

function named(page: Page, responseId: string): boolean {
  for (const r of page.responses.values()) if (r.responseId === responseId) return true;
  return false;
}

export const searchNotRendered = defineRule({
  meta,
  tally,
  count: (page, ctx) => unrendered(page, ctx).length,
  page(page, ctx) {
    const latest = latestMs(page);
    if (!latest) return [];
    return unrendered(page, ctx).map((r) =>
      finding(
        meta,
        r.responseId,
        {
          messageId: 'notRendered',
          data: {
            kind: issuedKind(r),
            query: quotedQuery(r),
            responseId: r.responseId,
            results: r.results.length === 0 ? 'no results' : plural(r.results.length, 'result'),
            issued: new Date(r.issuedAt).toISOString(),
            laterId: latest.id,
            after: duration(latest.ms - r.issuedAt),
          },
        },
        [latest.id],
        {
          responseId: r.responseId,
          // a category page's search is the category controller's; a no-results page's render is the
          // one storefronts drop (1925c5f)
          behaviour:
            issuedKind(r) === 'category'
              ? 'category.events'
              : r.results.length === 0
                ? 'search.zero-results-render'
                : 'search.render',
        },
      ),
    );
  },
});
