// What a listing's two renders of one response imply about the page between them, read by the rules that
// ask whether the client could have rendered it again: duplicate-render (its cache and store) and
// pageload-reused-late (a reload that kept the pageLoadId); how long after a page load another may share
// its pageLoadId (response-replaced: a second tab).
import type { TimelineEvent } from '../../model';
import type { Page } from '../../page';
import type { Response } from '../../response';
import { countUpTo } from '../../../../sorted';
import { PAGE_LOAD_ID_REUSE_MS } from '../../../client-model';

/**
 * How long the provider's client serves a search response from its cache (5 minutes in sessionStorage,
 * NetworkCache), with a minute for clocks: a re-visit after longer is a new request with a new responseId.
 */
export const CACHE_MS = 6 * 60_000;

/**
 * what a reloaded page may take to load its scripts, search and render, generous (a slow network, a cold
 * cache): pageload-reused-late's warning says the reload kept its pageLoadId past the client's 10 s, so it
 * must hold for a slow page too
 */
const LATE_RENDER_MS = 10_000;
/** the client's 10 s, plus what a reloaded page may take to render */
export const RELOAD_MS = PAGE_LOAD_ID_REUSE_MS + LATE_RENDER_MS;

const timeOf = (e: TimelineEvent) => e.time;
const baseTimeOf = (v: { base: { time: number } }) => v.base.time;

/**
 * Nothing happened on the page between renders `a` and `b` of one listing response that could make its
 * controller search again: no other response of the listing (its kind and tag) was rendered (an accepted
 * render), and no event of the page (an accepted one of its responses, or a visit event) was at another
 * page than `b`'s, as `pageOf` reads a URL (an SPA route away and back, where a controller made anew
 * searches with an empty store).
 */
export function nothingBetween(
  r: Response,
  page: Page,
  a: TimelineEvent,
  b: TimelineEvent,
  pageOf: (url: string) => string,
): boolean {
  const here = pageOf(b.pageUrl);
  // each list is in time order: only its events between the two are read (a response rendered again and
  // again read every event of the page for each pair of its renders)
  for (const o of page.responses.values()) {
    const listing = o !== r && o.kind === r.kind && o.tag === r.tag;
    const events = o.events;
    for (let i = countUpTo(events, a.time, timeOf); i < events.length; i++) {
      const e = events[i]!;
      if (e.time >= b.time) break;
      if (e.accepted && ((listing && e.event === 'render') || pageOf(e.pageUrl) !== here))
        return false;
    }
  }
  const visits = page.visitEvents;
  for (let i = countUpTo(visits, a.time, baseTimeOf); i < visits.length; i++) {
    const e = visits[i]!.base;
    if (e.time >= b.time) break;
    if (pageOf(e.pageUrl) !== here) return false;
  }
  return true;
}
