// The timelines list as flat rows (session headers newest first, each with its pages in visit order: the
// category page, then the search, then the product page) after filters, so a virtualised list can render
// 10,000+ events' worth of pages by drawing only what is on screen.
import {
  followingCount,
  type PageTimelineSummaryDto,
  type TimelineRuleId,
  type Verdict,
} from '../../../shared/timeline';
import type { ResponseKind } from '../../../shared/kinds';
import { pageKey, type PageStore } from './pages';

export interface TimelineFilters {
  siteId: string;
  verdict: '' | Verdict;
  /** pages with at least one response of this kind (search, category, autocomplete, …) */
  kind: string;
  /** pages with at least one event of this type (render, impression, …) */
  event: string;
  /** over responseId, uid, pageUrl (and ids, rule ids) */
  text: string;
  /** pages with a finding of this rule (a rule id) */
  rule: string;
}

export const NO_FILTERS: TimelineFilters = {
  siteId: '',
  verdict: '',
  kind: '',
  event: '',
  text: '',
  rule: '',
};

export interface SessionRow {
  type: 'session';
  key: string;
  siteId: string;
  sessionId: string;
  userId: string;
  pages: number;
  verdict: Verdict;
  lastSeen: string | null;
  collapsed: boolean;
}

export interface PageRow {
  type: 'page';
  key: string;
  page: PageTimelineSummaryDto;
  /**
   * The finding counts the row shows: the page's, less the findings of wider-scope rules (session or
   * site, such as production mode's dev-flag) when an earlier page of its session already showed them.
   */
  counts: Pick<PageTimelineSummaryDto['counts'], 'errors' | 'warnings' | 'infos'>;
  /** Of those, how many follow from another finding (the page's `following`): the row says so. */
  following: number;
  /**
   * Of those left out, the errors and warnings (they make the page's verdict): the row names them as the
   * session's, shown on its first page, so that no row reads WARN or FAIL with nothing beside it.
   */
  elsewhere?: { errors: number; warnings: number };
}

export type Row = SessionRow | PageRow;

export interface RowsResult {
  rows: Row[];
  /** pages shown after filters */
  shown: number;
  total: number;
  sites: string[];
  /** how many sites the rows shown hold: with more than one, each session's header names its site */
  sitesShown: number;
  verdicts: Record<Verdict, number>;
}

const RANK: Record<Verdict, number> = { pass: 0, warn: 1, fail: 2 };

function worst(a: Verdict, b: Verdict): Verdict {
  return RANK[a] >= RANK[b] ? a : b;
}

function time(s: string | null): number {
  const t = s ? Date.parse(s) : NaN;
  return Number.isFinite(t) ? t : 0;
}

/**
 * Does the page pass every filter but the verdict (whose tabs count the pages of each)? Text and event
 * type are searched by the server, inside the pages (uids, bodies' ids): `found` holds the keys it
 * answered (null: no such filter in force).
 */
export function matchesFilters(
  page: PageTimelineSummaryDto,
  filters: TimelineFilters,
  found: ReadonlySet<string> | null,
): boolean {
  if (filters.siteId && page.siteId !== filters.siteId) return false;
  if (filters.kind && !page.kinds?.includes(filters.kind as ResponseKind)) return false;
  if (filters.rule && !page.rules.includes(filters.rule as TimelineRuleId)) return false;
  return found === null || found.has(pageKey(page));
}

export function sessionKey(p: { siteId: string; sessionId: string }): string {
  return `s:${p.siteId}/${p.sessionId}`;
}

export function buildRows(
  store: PageStore,
  filters: TimelineFilters,
  collapsed: ReadonlySet<string>,
  found: ReadonlySet<string> | null = null,
): RowsResult {
  const sites = new Set<string>();
  const verdicts: Record<Verdict, number> = { pass: 0, warn: 0, fail: 0 };
  const sessions = new Map<
    string,
    { row: SessionRow; pages: PageTimelineSummaryDto[]; latest: number }
  >();
  let shown = 0;

  for (const page of store.summaries.values()) {
    sites.add(page.siteId);
    if (!matchesFilters(page, filters, found)) continue;
    verdicts[page.verdict] += 1;
    if (filters.verdict && page.verdict !== filters.verdict) continue;
    shown += 1;
    const sKey = sessionKey(page);
    let s = sessions.get(sKey);
    if (!s) {
      s = {
        row: {
          type: 'session',
          key: sKey,
          siteId: page.siteId,
          sessionId: page.sessionId,
          userId: page.userId,
          pages: 0,
          verdict: 'pass',
          lastSeen: null,
          collapsed: collapsed.has(sKey),
        },
        pages: [],
        latest: 0,
      };
      sessions.set(sKey, s);
    }
    s.pages.push(page);
    s.row.pages += 1;
    s.row.verdict = worst(s.row.verdict, page.verdict);
    const seen = time(page.lastSeen ?? page.firstSeen);
    if (seen >= s.latest) {
      s.latest = seen;
      s.row.lastSeen = page.lastSeen ?? page.firstSeen;
    }
  }

  const ordered = [...sessions.values()].sort(
    (a, b) => b.latest - a.latest || (a.row.key < b.row.key ? -1 : 1),
  );
  const rows: Row[] = [];
  for (const s of ordered) {
    rows.push(s.row);
    if (s.row.collapsed) continue;
    // a session reads as the shopper's visit: its pages oldest first, whatever their kinds
    s.pages.sort(
      (a, b) => time(a.firstSeen) - time(b.firstSeen) || (a.pageLoadId < b.pageLoadId ? -1 : 1),
    );
    let scopedShown = false;
    for (const page of s.pages) {
      const { errors, warnings, infos } = page.counts;
      const less = scopedShown ? page.scoped : undefined;
      scopedShown ||= page.scoped !== undefined;
      const counts = less
        ? {
            errors: errors - less.errors,
            warnings: warnings - less.warnings,
            infos: infos - less.infos,
          }
        : { errors, warnings, infos };
      // a wider rule's finding never follows from another; were it to, the row counts no more than it shows
      const following = Math.min(
        followingCount(page.following),
        counts.errors + counts.warnings + counts.infos,
      );
      const row: PageRow = { type: 'page', key: pageKey(page), page, counts, following };
      if (less && less.errors + less.warnings > 0)
        row.elsewhere = { errors: less.errors, warnings: less.warnings };
      rows.push(row);
    }
  }
  const sitesShown = new Set(ordered.map((s) => s.row.siteId)).size;
  return {
    rows,
    shown,
    total: store.summaries.size,
    sites: [...sites].sort(),
    sitesShown,
    verdicts,
  };
}
