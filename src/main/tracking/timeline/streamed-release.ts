// `check` reading its input as a stream: pages that saw no recent event are judged as finished, handed
// over and forgotten, and what the engine keeps besides its open pages (visits, responseId origins, the
// released pages' ids) has a ceiling, so memory stays bounded whatever the input's length.
import type { ReleaseReach, VisitBook } from '../visits/book';
import { CLICK_FOLLOW_MS, CONCURRENT_START_MS } from '../visits/rules';
import type { OfflineLimits } from './engine-options';
import type { HeldPages } from './held-pages';
import type { Page } from './page';
import { ReleasedPages } from './released-pages';
import type { ResponseOrigins } from './response-origins';

export interface StreamedReleaseDeps {
  pages: HeldPages;
  book: VisitBook;
  origins: ResponseOrigins;
  /** the page has ended: judged as finished */
  finish(page: Page): void;
  /** events applied so far (recency is counted in events, not in time) */
  applied(): number;
  /** the clicks are kept for the credit of orders (else only while a page left to judge can read them) */
  credit: boolean;
}

/**
 * How far (in the client's time) an event of a visit may arrive behind the one of the visit that arrived
 * last and still be read against the visit's clicks and pages as the live sandbox reads it. The provider's
 * client sends each event within a second or so of making it (the 300 ms queue; clicks and page views at
 * once), and an export or a HAR is in the order the requests came.
 */
export const ARRIVAL_LAG_MS = 60_000;

export class StreamedRelease {
  /** pages released while the input went on (an event for one reopens it: noted) */
  private released: ReleasedPages | undefined;
  private readonly reopened = { count: 0, first: [] as string[] };
  /** reopened pages whose first accepted event has not come yet (`rejoin`) */
  private readonly rejoining = new Set<Page>();
  private readonly forgotten = { visits: 0, responses: 0, released: 0 };

  private readonly reach: ReleaseReach;

  constructor(private readonly deps: StreamedReleaseDeps) {
    this.reach = {
      keepWithinMs: CONCURRENT_START_MS,
      readsBackMs: CLICK_FOLLOW_MS,
      lagMs: ARRIVAL_LAG_MS,
      clicks: !deps.credit,
    };
  }

  /** A new page (no arrivals yet) of a pageLoadId released already: noted as reopened. */
  opened(page: Page): void {
    if (!this.released?.has(page.siteId, page.pageLoadId)) return;
    this.rejoining.add(page);
    this.reopened.count++;
    // each page named once (a page let go of twice is judged in three parts)
    const first = this.reopened.first;
    if (first.length < 10 && !first.includes(page.pageLoadId)) first.push(page.pageLoadId);
  }

  /**
   * The first accepted event of a page released already (`opened`): the later part takes the sessionId of
   * the visit its earlier part was in, as the live page kept its first event's, so an event whose sessionId
   * drifted stays in that visit and is `context-drift` there, not a visit of its own.
   */
  rejoin(page: Page, ev: { userId: string }): void {
    if (this.rejoining.size === 0 || !this.rejoining.delete(page)) return;
    const sessionId = this.deps.book.releasedSessionOf(page.siteId, page.key, ev.userId);
    if (sessionId !== undefined) this.deps.pages.rejoined(page, sessionId);
  }

  /**
   * While more than `maxOpen` pages are kept, the oldest that saw no event among the last `recent`
   * applied are judged as finished, handed over and forgotten (their visits stay in the book, so later
   * orders keep their credit). Looks at most 256 pages per call.
   */
  *release<P>(maxOpen: number, recent: number, dtoOf: (page: Page) => P): Generator<P> {
    const { pages } = this.deps;
    if (pages.size <= maxOpen) return;
    this.released ??= new ReleasedPages();
    let looked = 0;
    for (const page of pages.values()) {
      if (pages.size <= maxOpen || looked++ >= 256) return;
      if (this.deps.applied() - page.lastApplied < recent) continue;
      yield this.forgetJudged(page, dtoOf);
      this.released.add(page.siteId, page.pageLoadId);
    }
  }

  /**
   * Besides the open pages, keep at most `maxVisits` visits, `maxResponses` first pages of responseIds
   * and the keys of `maxReleased` released pages (oldest forgotten first). Counts what was forgotten.
   */
  bound(limits: OfflineLimits): void {
    this.forgotten.visits += this.deps.book.forgetOldestVisits(limits.maxVisits);
    this.forgotten.responses += this.deps.origins.forgetOldest(limits.maxResponses);
    if (this.released) this.forgotten.released += this.released.forgetOldest(limits.maxReleased);
  }

  /** What `bound` forgot so far, and the events that came later than what a release kept of their visit. */
  forgottenState(): { visits: number; responses: number; released: number; late: number } {
    return { ...this.forgotten, late: this.deps.book.lateArrivals };
  }

  /** The input ended: every page left, judged as finished, handed over and forgotten. */
  *releaseAll<P>(dtoOf: (page: Page) => P): Generator<P> {
    for (const page of this.deps.pages.values()) yield this.forgetJudged(page, dtoOf);
  }

  /** pageLoadIds of pages that got events after they were released (first 10), and how many */
  reopenedPages(): { count: number; first: string[] } {
    return { count: this.reopened.count, first: [...this.reopened.first] };
  }

  private forgetJudged<P>(page: Page, dtoOf: (page: Page) => P): P {
    if (this.rejoining.size > 0) this.rejoining.delete(page);
    this.deps.finish(page);
    const dto = dtoOf(page);
    this.deps.pages.forget(page);
    // what it showed stays with its visit for the page after it, as the live sandbox reads it there
    this.deps.book.pageReleased(page.key, page, this.reach, page.shown());
    return dto;
  }
}
