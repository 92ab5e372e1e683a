// The queries over the pages: which pages a filter keeps (by the lookup, the page index or every page),
// oldest first, each judged when it is reached. What a read returns is the pages as judged now: a read
// judges what changed since the last judging, so which read came first changes nothing of the answer.
import type { Verdict } from '../../../shared/timeline';
import type { ResponseKind } from '../../../shared/kinds';
import { wellFormed } from '../../../shared/text';
import type { HeldPages } from './held-pages';
import type { Page } from './page';
import type { VerdictIndex, IndexFilter } from './verdict-index';
import type { PagesById } from './pages-by-id';
import type { QuietPages } from './quiet-pages';
import { pageRules } from './dto';

export interface TimelineFilter {
  siteId?: string;
  verdict?: Verdict;
  sessionId?: string;
  pageLoadId?: string;
  /** free text: matched against pageUrl, ids, responseIds, rule ids and the uids its events reported */
  q?: string;
  /** pages holding at least one response of this kind */
  kind?: ResponseKind;
  /** pages holding at least one event of this type (render, impression, pageview, …) */
  event?: string;
  /** pages with at least one finding of this rule (at the severity it has; a rule set to off has none) */
  rule?: string;
}

/** What the queries ask of the engine: its pages, where to find them, and how to judge one now. */
export interface QueryDeps {
  pages: HeldPages;
  lookup: PagesById;
  index: VerdictIndex | undefined;
  memory: QuietPages;
  /** judge every page changed since it was last judged exactly, one per step */
  settle(): Generator<void>;
  /** pages idle by the clock the idle burst has not reached yet made idle, one per step */
  idleNow(): Generator<void>;
  /** judge the page exactly if it changed since */
  exactly(page: Page): void;
  /** `read` of the page judged as if it has ended */
  asFinished<T>(page: Page, read: (page: Page) => T): T;
}

export class PageQueries {
  constructor(private readonly deps: QueryDeps) {}

  /**
   * The newest `limit` pages of a verdict, a site, a rule and a kind (each optional), oldest first, with
   * how many there are and the verdict totals: the answer `list(filter)` gives, from the index rather than
   * every page. Call after `settle`.
   */
  byIndex(
    filter: IndexFilter,
    limit: number,
  ): { pages: Page[]; total: number; verdicts: Record<Verdict, number> } {
    const { index, pages } = this.deps;
    if (!index) throw new Error('byIndex: this engine keeps no page index');
    const { verdict, siteId, rule, kind } = filter;
    if (verdict === undefined && siteId === undefined && rule === undefined && kind === undefined)
      return { pages: pages.lastValues(limit), total: pages.size, verdicts: index.counts() };
    return index.select(filter, limit);
  }

  /** Pages matching the filter, oldest first (by first receive time, then first arrival). */
  list(filter: TimelineFilter = {}): Page[] {
    return [...this.matching(filter)];
  }

  /**
   * The same pages one at a time, each judged when it is reached: a reader of every page (report, list
   * after a catalog change re-judged them all) can give the event loop back between them.
   */
  *matching(filter: TimelineFilter = {}): Generator<Page> {
    for (const page of this.matchingSteps(filter)) if (page) yield page;
  }

  /**
   * `matching` with a null for each page passed over, so that a caller giving the event loop back between
   * slices is asked after every page, not only after those that match: a text or an event that few pages
   * hold passed over a million events' pages in one go (~20 s held by `?q=` on the store benchmark's data).
   */
  *matchingSteps(filter: TimelineFilter = {}, finished = false): Generator<Page | null> {
    const { index, lookup } = this.deps;
    const q = filter.q?.toLowerCase();
    for (const _ of this.deps.idleNow()) yield null;
    // one page or one session's pages come from the lookup, one kind's or one rule's from the index; every
    // filter is still applied to them
    let pages: Iterable<Page> | undefined = lookup.candidates(filter);
    const rule = finished ? undefined : filter.rule;
    if (pages === undefined && index && (rule !== undefined || filter.kind !== undefined)) {
      // the index knows a page's rules and kinds once it is judged: every page changed since it was last
      // read is, first. Pages judged as finished may have findings their live judging does not
      // (no-impression): for those, a rule's pages are found by reading every page.
      for (const _ of this.deps.settle()) yield null;
      pages = index.select({ rule, kind: filter.kind }, Infinity).pages;
    }
    for (const page of pages ?? this.deps.pages.values())
      yield this.passes(page, filter, q, finished) ? page : null;
  }

  /**
   * One page by pageLoadId (and siteId when two sites share it). A pageLoadId holding a lone surrogate cannot
   * travel in a URL: the UI asks for it with U+FFFD, so an id with U+FFFD finds those too, beside a page sent
   * with that id itself (the URL cannot tell them apart: the caller names them all).
   */
  find(pageLoadId: string, siteId?: string): Page[] {
    const exact = this.list({ pageLoadId, ...(siteId !== undefined && { siteId }) });
    if (!pageLoadId.includes('\uFFFD')) return exact;
    const alike = this.list(siteId !== undefined ? { siteId } : {}).filter(
      (p) => p.pageLoadId !== pageLoadId && wellFormed(p.pageLoadId) === pageLoadId,
    );
    return [...exact, ...alike];
  }

  /** `finished`: the rule filter reads the page as judged as finished, as the caller will show it. */
  private passes(
    page: Page,
    filter: TimelineFilter,
    q: string | undefined,
    finished: boolean,
  ): boolean {
    if (filter.siteId !== undefined && page.siteId !== filter.siteId) return false;
    if (filter.sessionId !== undefined && page.sessionId !== filter.sessionId) return false;
    if (filter.pageLoadId !== undefined && page.pageLoadId !== filter.pageLoadId) return false;
    if (filter.kind !== undefined && !page.hasKind(filter.kind)) return false;
    if (filter.event !== undefined && !this.filterRead(page, () => page.hasEvent(filter.event!)))
      return false;
    this.deps.exactly(page);
    if (filter.verdict !== undefined && page.verdict !== filter.verdict) return false;
    const rule = filter.rule;
    if (rule !== undefined) {
      const has = (p: Page) => pageRules(p).has(rule);
      if (!(finished ? this.deps.asFinished(page, has) : has(page))) return false;
    }
    return !q || this.filterRead(page, () => page.matches(q));
  }

  /** A filter's read of the page: a page that let its events go is read from their summary if it has one. */
  private filterRead(page: Page, read: () => boolean): boolean {
    return page.letGoItemIds !== null ? read() : this.deps.memory.withEvents(page, read);
  }
}
