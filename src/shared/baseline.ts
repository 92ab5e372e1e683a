// The answer of a baseline comparison (README, "Baselines"): `diff --format json`, POST /_sandbox/diff
// and the package's expectMatchesBaseline all give this shape.

export type PageStatus = 'same' | 'changed' | 'added' | 'removed';

/** An endpoint of impressions (`search/impression`, …), whose items a comparison takes as the uids impressed. */
export function isImpression(endpoint: string): boolean {
  return endpoint.endsWith('/impression');
}

export interface DiffChange {
  /**
   * missing: an event of BASE not sent; extra: an event BASE did not have; field: a value that differs;
   * moved: an event sent alike in both, at another place among the page's events
   */
  change: 'missing' | 'extra' | 'field' | 'moved';
  /** the event's endpoint, `category/event` */
  event: string;
  /** field changes: the dotted path, e.g. `data.results[1].uid` */
  path?: string;
  base?: unknown;
  current?: unknown;
  /**
   * the event's place among the page's events in BASE (missing, field, moved) and in CURRENT (extra, field,
   * moved), from 0
   */
  baseIndex?: number;
  currentIndex?: number;
  /** moved: the endpoint of the event it now comes right after in CURRENT (absent when it now comes first) */
  after?: string;
  /**
   * missing and extra: the uids of the items the event names (a click's result, an impression's tiles, a
   * cart's lines, a product view's product), in order; absent when it names none
   */
  uids?: string[];
}

export interface DiffPage {
  status: PageStatus;
  /** CURRENT's URL of the page (BASE's for a removed page), as recorded */
  pageUrl: string;
  /**
   * the page as compared: its URL's path and query, the page's own ids by their name
   * (`/thanks?order={orderId}`), ignored parameters left out
   */
  page: string;
  kind: string;
  changes: DiffChange[];
  /** the page's siteId and load id in CURRENT (BASE's for a removed page): its timeline */
  siteId: string;
  /** the page's load id in CURRENT (BASE's for a removed page); '' when the recording has none (a baseline file) */
  pageLoadId: string;
  /** the page's events in order, BASE's and CURRENT's (endpoints): [] on the side the page is not on */
  baseEvents: string[];
  currentEvents: string[];
  /**
   * a changed page whose URL differs from BASE's only in these parameters, at the same place in the
   * journey: their values, or a parameter only one of the two URLs has (a cache buster a release added),
   * the rest of the URL alike: the two pages are paired and their events compared; a parameter new every
   * run (a timestamp, an order key) is left out with `--ignore query.NAME` (`ignore: ['query.NAME']`)
   */
  query?: QueryChange[];
  /**
   * a changed page whose URL path differs from BASE's only in one segment (the rest of the URL alike): the
   * two pages are paired and their events compared; a segment new every run (a checkout token) is left out
   * of matching with `--ignore context.pageUrl`
   */
  path?: PathChange;
}

/** The one segment of a URL path that differs between BASE's page and CURRENT's (1 = the first). */
export interface PathChange {
  segment: number;
  base: string;
  current: string;
}

/**
 * A URL parameter whose value differs between BASE's page and CURRENT's, as compared (`{orderId}` for one
 * of the page's ids); `base` or `current` absent: that side's URL has no such parameter.
 */
export interface QueryChange {
  name: string;
  base?: string;
  current?: string;
}

export interface DiffResult {
  same: boolean;
  pages: DiffPage[];
}

const pages = (n: number) => `${n} page${n === 1 ? '' : 's'}`;

/**
 * How many pages of a comparison differ, of what, as `diff`'s last line and the Compare screen say it: the
 * pages in both runs (of them, how many changed) and those in one only, with how many pages each run had
 * ("2 pages differ (1 changed of 3 in both runs, 1 only in BASE; 4 pages in BASE, 3 in CURRENT)"); null
 * when none differs.
 */
export function differingPages(result: Pick<DiffResult, 'pages'>): string | null {
  const counts = { changed: 0, added: 0, removed: 0, same: 0 };
  for (const page of result.pages) counts[page.status]++;
  const both = counts.changed + counts.same;
  const inBase = both + counts.removed;
  const inCurrent = both + counts.added;
  const differing = counts.changed + counts.added + counts.removed;
  if (differing === 0) return null;
  const parts = [`${counts.changed} changed of ${both} in both runs`];
  if (counts.removed) parts.push(`${counts.removed} only in BASE`);
  if (counts.added) parts.push(`${counts.added} only in CURRENT`);
  const each =
    inBase === inCurrent
      ? `${pages(inBase)} in each`
      : `${pages(inBase)} in BASE, ${inCurrent} in CURRENT`;
  return `${pages(differing)} differ${differing === 1 ? 's' : ''} (${parts.join(', ')}; ${each})`;
}
