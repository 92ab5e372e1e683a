// Page timelines in the store: the summaries the list shows (from `GET /_sandbox/timelines`, then SSE
// `timeline` messages). Searching inside pages (uids, event types) is the server's: see server-matches.ts.
import { admin, ApiError } from '../api/client';
import {
  pageKey,
  type PageTimelineDto,
  type PageTimelineSummaryDto,
} from '../../../shared/timeline';

export { pageKey };

export interface PageStore {
  summaries: ReadonlyMap<string, PageTimelineSummaryDto>;
  /** bumps on every change, so derived lists can be memoised on it */
  version: number;
}

function splitPageKey(key: string): { siteId: string; pageLoadId: string } {
  const i = key.indexOf('/');
  return i === -1
    ? { siteId: '', pageLoadId: key }
    : { siteId: key.slice(0, i), pageLoadId: key.slice(i + 1) };
}

export function emptyPages(): PageStore {
  return { summaries: new Map(), version: 0 };
}

export function resetPages(): PageStore {
  return { ...emptyPages(), version: Date.now() };
}

function summarize(page: PageTimelineDto): PageTimelineSummaryDto {
  return {
    siteId: page.siteId,
    pageKind: page.pageKind,
    sessionId: page.sessionId,
    userId: page.userId,
    pageLoadId: page.pageLoadId,
    pageUrl: page.pageUrl,
    verdict: page.verdict,
    firstSeen: page.firstSeen,
    lastSeen: page.lastSeen,
    counts: page.counts,
    responseIds: page.responses.map((r) => r.responseId).filter(Boolean),
    kinds: [...new Set(page.responses.map((r) => r.kind))],
    rules: [...new Set(page.findings.map((f) => f.rule))],
  };
}

/** The server's cap on one list request; the sandbox keeps at most as many pages as events anyway. */
const ALL_PAGES = 100_000;

/**
 * The newest `limit` page summaries (the list needs no events), and how many pages there are: the UI
 * asks for the newest first, paints them, then for all (a million stored events are 100,000 pages).
 */
export async function loadPages(
  base: string,
  limit = ALL_PAGES,
): Promise<{ store: PageStore; total: number }> {
  const body = await admin('timelines', { base, query: { view: 'summary', limit } });
  const summaries = new Map<string, PageTimelineSummaryDto>();
  for (const page of body.pages) summaries.set(pageKey(page), page);
  return { store: { summaries, version: Date.now() }, total: body.total };
}

/** One full page with its events and findings, for the page view; null when it is not (or no longer) there. */
export async function loadPage(base: string, key: string): Promise<PageTimelineDto | null> {
  const { siteId, pageLoadId } = splitPageKey(key);
  try {
    if (pageLoadId)
      return await admin('timeline', { base, params: { pageLoadId }, query: { siteId } });
    // Rejected events without a readable pageLoadId share one page per site, which has no path of its own.
    const body = await admin('timelines', { base, query: { siteId, limit: ALL_PAGES } });
    return body.pages.find((p) => p.pageLoadId === '') ?? null;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/** Apply SSE `timeline` messages; a stale summary (fewer events than we hold) never replaces a newer one. */
export function applyPageMessages(store: PageStore, messages: unknown[]): PageStore {
  if (!messages.length) return store;
  const summaries = new Map(store.summaries);
  for (const data of messages) {
    const incoming = (
      'responses' in (data as object) ? summarize(data as PageTimelineDto) : data
    ) as PageTimelineSummaryDto;
    if (!incoming || typeof incoming.pageLoadId !== 'string') continue;
    const key = pageKey(incoming);
    const existing = summaries.get(key);
    if (existing && existing.counts.events > incoming.counts.events) continue;
    summaries.set(key, incoming);
  }
  return { ...store, summaries, version: store.version + 1 };
}
