// The pages of a timeline engine and what reads see of them: each page held (by key, pageLoadId, session,
// and in the page index), judged when read (the judge), its events let go and read back (page memory),
// found by the queries, and shown as judged now or as if it has ended. The engine (engine.ts) folds
// events in and decides when pages change; everything a read needs is here.
import type { TimelineSettings } from '../timeline-settings';
import type { PageTimelineDto, PageTimelineSummaryDto, Verdict } from '../../../shared/timeline';
import { pageKey, type PageState } from './model';
import { PageIndex, type IndexFilter } from './page-index';
import { ResponseOrigins } from './response-origins';
import { PageLookup } from './page-lookup';
import type { ProvenanceSource } from './rules/provenance';
import { allFindings, pageDto, pageSummary, verdictOf, warningsOf } from './dto';
import { pageKindOf } from './page-kind';
import { VisitBook, type PageInfo } from '../visits/book';
import type {
  OrderDto,
  OrderFilter,
  OrdersSummaryDto,
  VisitDto,
  VisitFilter,
} from '../../../shared/visits';
import { orderJson, ordersJson } from '../visits/order-findings';
import { summarizeOrders, summed } from '../visits/order-summary';
import { ChunkedMap } from '../../chunked';
import { SiteCounts } from '../site-counts';
import { Judge, someDirty } from './judge';
import { ruleMeta } from './rule-list';
import { PageMemory } from './page-memory';
import { PageQueries, type TimelineFilter } from './queries';
import type { TimelineEngineOptions } from './engine-options';
import type { ReadinessDto } from '../../../shared/readiness';
import { ReadinessMemo, ReadinessTally, sightPage, type ReadinessSite } from './readiness';

export abstract class TimelinePages {
  protected readonly pages = new ChunkedMap<string, PageState>();

  /** pages per siteId: a reset of the one site that holds every page empties everything at once */
  protected readonly sitePages = new SiteCounts();

  /** first page of a responseId on its site, of any kind (responseid-cross-kind) and per kind (responseid-reused) */
  protected readonly origins = new ResponseOrigins();

  /** pages by pageLoadId and by sessionId (one page, one session's pages) */
  protected readonly lookup = new PageLookup();

  protected totalEvents = 0;

  /** pages created so far (a new page's place in page order) */
  protected created = 0;

  protected provenance: ProvenanceSource | undefined;

  /** the visits beside the pages: identity, cart, orders and credit (src/main/tracking/visits) */
  protected readonly book: VisitBook;

  /**
   * pages by verdict, site, rule and kind, for lists that cost what they return (live only: offline input
   * is read once)
   */
  protected readonly index: PageIndex | undefined;

  /** what each page's findings count against in readiness, while they are the same (readiness.ts) */
  private readonly readinessMemo = new ReadinessMemo();

  /** runs the declared rules over a page (judge.ts) */
  protected readonly judge: Judge;

  /** lets a quiet page's events go and reads them back (page-memory.ts) */
  protected readonly memory: PageMemory;

  /** which pages a filter keeps (queries.ts) */
  protected readonly queries: PageQueries;

  constructor(protected readonly options: TimelineEngineOptions) {
    this.index = options.offline || options.pageIndex === false ? undefined : new PageIndex();
    this.book = new VisitBook({
      attributionWindowMs: options.attributionWindowMs ?? 24 * 3_600_000,
      issuedQuery: (siteId, responseId) =>
        responseId === '' ? undefined : this.provenance?.issued(siteId, responseId)?.query,
      pageKey,
    });
    this.judge = new Judge({
      settings: options.settings,
      levels: options.levels,
      origins: this.origins,
      book: this.book,
      provenance: () => this.provenance,
      index: this.index,
    });
    this.memory = new PageMemory(options.pageRecords);
    this.queries = new PageQueries({
      pages: this.pages,
      lookup: this.lookup,
      index: this.index,
      memory: this.memory,
      settle: () => this.settle(),
      judgeExactly: (page) => this.judgeExactly(page),
      asFinished: (page, read) => this.asFinished(page, read),
    });
  }

  get settings(): TimelineSettings {
    return this.options.settings;
  }

  /** Let the search-provenance rules see issued responses and catalogs (the core sets it once search is up). */
  setProvenance(source: ProvenanceSource): void {
    this.provenance = source;
    this.invalidate();
  }

  /** Facts outside the events changed (a site's catalog was re-indexed): its pages' rules run again when read. */
  invalidate(siteId?: string): void {
    for (const page of this.pages.values())
      if (siteId === undefined || page.siteId === siteId) this.judge.touchAll(page);
  }

  /** Forget the oldest pages (Map order is insertion order) while over a limit; never `keep`. */
  protected trim(keep: PageState): void {
    const maxEvents = this.options.maxEvents ?? Infinity;
    const maxPages = this.options.maxPages ?? Infinity;
    while (this.totalEvents > maxEvents || this.pages.size > maxPages) {
      const [key, oldest] = this.pages.oldest()!;
      if (oldest === keep) return;
      this.forget(key, oldest);
      this.book.forgetPage(oldest.siteId, key);
    }
  }

  /** The page goes from the engine and its indexes. */
  protected forget(key: string, page: PageState): void {
    this.pages.delete(key);
    this.sitePages.removed(page.siteId);
    this.index?.removed(page);
    this.lookup.removed(page);
    this.totalEvents -= page.arrivals;
  }

  size(): number {
    return this.pages.size;
  }

  /**
   * Judge every page that changed since it was last judged exactly, one per step (a caller reading them
   * all gives the loop back between steps). After it, `byVerdict` answers for every page.
   */
  *settle(): Generator<void> {
    // an engine without the index judges every page when it is read: nothing to settle
    if (!this.index) return;
    for (const page of this.index.stale) {
      if (this.pages.get(page.key) === page) this.evaluate(page, true);
      else this.index.removed(page);
      yield;
    }
  }

  /** The newest `limit` pages of a verdict, a site, a rule and a kind (queries.ts). Call after `settle`. */
  byIndex(filter: IndexFilter, limit: number) {
    return this.queries.byIndex(filter, limit);
  }

  /** Pages matching the filter, oldest first (by first receive time, then first arrival). */
  list(filter: TimelineFilter = {}): PageState[] {
    return this.queries.list(filter);
  }

  /** The same pages one at a time, each judged when it is reached. */
  matching(filter: TimelineFilter = {}): Generator<PageState> {
    return this.queries.matching(filter);
  }

  /** `matching` with a null for each page passed over (a caller gives the loop back between slices). */
  matchingSteps(filter: TimelineFilter = {}, finished = false): Generator<PageState | null> {
    return this.queries.matchingSteps(filter, finished);
  }

  /**
   * The page as if it has ended, as reports, expectClean and check judge it: a rule that waits for the
   * page to settle (no-impression) decides now, and the DTO says so; the live page stays pending.
   */
  finishedDto(page: PageState): PageTimelineDto {
    return this.asFinished(page, (p) => this.dtoOf(p));
  }

  /** The verdict `finishedDto` would carry, without building the DTO (a report counts them first). */
  finishedVerdict(page: PageState): Verdict {
    return this.asFinished(page, verdictOf);
  }

  /** `read` reads the page's events back itself if it needs them (a verdict does not). */
  protected asFinished<T>(page: PageState, read: (page: PageState) => T): T {
    this.judgeExactly(page);
    if (page.idle || page.awaitingImpression === 0) return read(page);
    // judged twice over (as ended, then as it is): its events are read back once for both
    return this.memory.withEvents(page, () => this.judgedAsFinished(page, read));
  }

  protected judgedAsFinished<T>(page: PageState, read: (page: PageState) => T): T {
    page.idle = true;
    page.judgedAsFinished = true;
    this.judge.touchAll(page);
    this.evaluate(page, true);
    const answer = read(page);
    page.idle = false;
    page.judgedAsFinished = false;
    this.judge.touchAll(page);
    this.evaluate(page, true);
    return answer;
  }

  pagesDto(filter: TimelineFilter = {}): PageTimelineDto[] {
    // each page judged by the list, just now
    return this.list(filter).map((p) => this.dtoOf(p));
  }

  /**
   * The page with its events and findings (read back from the store when it let them go), judged as it is
   * now: a list picks its pages first and builds their DTOs after, giving the loop back in between, and a
   * beacon applied meanwhile must not show in the events without its findings (a page listed with its
   * impression but still judged as clicked without it).
   */
  pageDto(page: PageState): PageTimelineDto {
    this.judgeExactly(page);
    return this.dtoOf(page);
  }

  /** The DTO of the page as it was last judged, its events read back if it let them go. */
  protected dtoOf(page: PageState): PageTimelineDto {
    return this.memory.withEvents(page, () => pageDto(page));
  }

  /** The page's summary, judged as it is now (as `pageDto`). */
  summary(page: PageState): PageTimelineSummaryDto {
    this.judgeExactly(page);
    return pageSummary(page);
  }

  /** One page by pageLoadId (and siteId when two sites share it). */
  find(pageLoadId: string, siteId?: string): PageState[] {
    return this.queries.find(pageLoadId, siteId);
  }

  /**
   * The page's rules as an exact read needs them. A page the page index knows to be judged exactly
   * since its last change is skipped: nothing its rules read has changed (a page rule reads only the
   * page's own tallies and the settings), so running them again would give the same findings.
   */
  protected judgeExactly(page: PageState): void {
    if (page.indexed?.stale === false) return;
    this.evaluate(page, true);
  }

  /**
   * Re-run the rules of the page's dirty responses (all of them when `exact`) and its page rules. A quiet
   * page lets its events go (`pageRecords`); one that let them go reads them back while its responses'
   * rules run.
   */
  protected evaluate(page: PageState, exact: boolean): void {
    if (page.released && someDirty(page))
      this.memory.withEvents(page, () => this.judge.page(page, exact));
    else this.judge.page(page, exact);
    if (this.quiet(page)) this.memory.letGo(page);
  }

  /**
   * No event for the idle time (`noImpressionIdleMs` since its last one's receipt): a page that could let
   * its events go. One still getting events keeps them, so a long page is not read back for every event.
   */
  protected quiet(page: PageState): boolean {
    return page.idle || this.options.clock.now() >= page.idleAt;
  }

  /**
   * Integration readiness of a site (readiness.ts), from its pages as judged now and its orders' credit:
   * one step per page judged or read (a caller gives the loop back between slices), then the answer.
   */
  *readinessSteps(site: ReadinessSite): Generator<void, ReadinessDto> {
    for (const _ of this.settle()) yield;
    const tally = new ReadinessTally();
    const served = (kind: string, responseId: string) => {
      const issued = this.provenance?.issued(site.siteId, responseId);
      if (!issued || (issued.kind ?? 'search') !== kind) return undefined;
      const slots = Object.values(issued.slots).reduce((n, uids) => n + uids.length, 0);
      return {
        results: issued.results.length,
        shown: issued.results.length + issued.inline.length + slots,
      };
    };
    let read = 0;
    for (const page of this.pages.values()) {
      if (page.siteId !== site.siteId) continue;
      this.judgeExactly(page);
      sightPage(tally, page, this.readinessMemo, () => warningsOf(page), served);
      if (++read % 64 === 0) yield;
    }
    for (const pageLoadId of this.creditedOrderPages(site.siteId)) {
      tally.credited(pageLoadId);
      // one credited order shows the behaviour: the rest need not be built
      break;
    }
    return tally.result(site);
  }

  /** The pages of the site's orders that have a credited line, oldest first. */
  *creditedOrderPages(siteId: string): Generator<string> {
    for (const entry of this.book.listOrders({ siteId })) {
      // an order's JSON says "credit": null for a line without one
      if (!entry.json.includes('"credit":{')) continue;
      yield (JSON.parse(entry.json) as OrderDto).pageLoadId;
    }
  }

  /** Visits (README, "The whole visit and its credit"), newest last. */
  visits(filter: VisitFilter = {}): VisitDto[] {
    return [...this.visitJson(filter)].map((j) => JSON.parse(j) as VisitDto);
  }

  /** One entry per order/transaction, newest last, each line with its credit. */
  orders(filter: OrderFilter = {}): OrderDto[] {
    return [...this.orderJson(filter)].map((j) => JSON.parse(j) as OrderDto);
  }

  /**
   * The same visits as JSON, each built when it is read and kept until the visit or its pages change
   * (the admin API streams them in slices: 10,000 visits must not hold the event loop).
   */
  visitJson(filter: VisitFilter = {}): Iterable<string> {
    return this.book.listVisits(filter, (key) => this.pageInfo(key));
  }

  /** The orders as JSON, each with the findings that concern it (read from its order page as judged now). */
  orderJson(filter: OrderFilter = {}): Iterable<string> {
    return ordersJson(this.book.listOrders(filter), this.pageFindings);
  }

  /** One order by the eventId of its order/transaction, as JSON; undefined when there is none. */
  orderJsonOf(eventId: string): string | undefined {
    const entry = this.book.order(eventId);
    return entry && orderJson(entry, this.pageFindings);
  }

  /** What a revenue report would show of the orders (`breathe` gives the event loop back now and then). */
  ordersSummary(
    filter: OrderFilter,
    breathe?: () => Promise<void> | void,
  ): Promise<OrdersSummaryDto> {
    return summarizeOrders(summed(this.book.listOrders(filter), this.pageFindings), breathe);
  }

  private readonly pageFindings = (key: string) => {
    const page = this.pages.get(key);
    if (!page) return undefined;
    this.judgeExactly(page);
    return allFindings(page).map((f) => {
      const meta = ruleMeta(f.rule);
      return { ...f, fix: meta?.fix, wholeVisit: meta?.appliesTo.includes('visit') };
    });
  };

  protected pageInfo(key: string): PageInfo | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    this.evaluate(page, false);
    return { kind: pageKindOf(page), verdict: verdictOf(page), pageUrl: page.pageUrl };
  }
}
