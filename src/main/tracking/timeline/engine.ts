// The timeline engine: folds each tracked event (search, category, autocomplete, recommendations, bundles,
// and the visit's product, cart, order and login events) into its page (siteId + pageLoadId) and response
// (kind + responseId + tag), and tells listeners the page changed. It is composed of the pages it holds
// (held-pages.ts), the judge that runs the rules (judge.ts), the quiet pages' memory (quiet-pages.ts), the
// reads (page-reads.ts, site-reads.ts) and the queries (queries.ts).
// Incremental: an event never touches other pages or history; `no-impression` waits on the sandbox clock.
import type { RecordedEvent } from '../../../shared/events';
import type { DroppedEvent } from '../../store/types';
import type {
  PageTimelineDto,
  PageTimelineSummaryDto,
  PageVerdictDto,
  Verdict,
} from '../../../shared/timeline';
import type {
  OrderDto,
  OrderFilter,
  OrdersSummaryDto,
  VisitDto,
  VisitFilter,
} from '../../../shared/visits';
import type { ReadinessDto } from '../../../shared/readiness';
import type { TimelineSettings } from '../timeline-settings';
import { foldAs, pageKey, readEvent, responseKey, type TimelineEvent } from './model';
import { PAGE_LOAD_ID_REUSE_MS } from '../client-model';
import type { Page } from './page';
import type { Response } from './response';
import { IdleQueue } from './idle-queue';
import { ResponseOrigins } from './response-origins';
import { StreamedRelease } from './streamed-release';
import { pageSummary } from './dto';
import { Slicer } from '../../slices';
import {
  currencyOf,
  interactionIds,
  typedProducts,
  quickAddLines,
  readVisitEvent,
} from '../visits/events';
import { readIdentity } from '../visits/identity';
import { VisitBook, visitSessionOf, type Visit } from '../visits/book';
import { Judge, SIBLING_EVENTS, TALLYING } from './judge';
import { HeldPages } from './held-pages';
import { VerdictIndex, type IndexFilter } from './verdict-index';
import { QuietPages } from './quiet-pages';
import { PageReads, type Judgement } from './page-reads';
import { SiteReads } from './site-reads';
import { PageQueries, type TimelineFilter } from './queries';
import type { ProvenanceSource } from './rules/utils/provenance';
import {
  readinessInputs,
  type CreditedOrder,
  type ReadinessInputs,
  type ReadinessSite,
} from './readiness';
import type { ApplyOptions, OfflineLimits, TimelineEngineOptions } from './engine-options';
import type { Interaction } from '../visits/credit';

export type { PageRecords } from './quiet-pages';
export type { TimelineFilter } from './queries';
export type { ApplyOptions, OfflineLimits, TimelineEngineOptions } from './engine-options';

/** The real service's answer to a forwarded event is a verdict (accepted or rejected), not a failure to ask. */
const isVerdict = (rec: RecordedEvent) =>
  rec.upstream?.outcome === 'accepted' || rec.upstream?.outcome === 'rejected';

/** responseIds' first pages kept beyond `maxEvents` before the oldest are forgotten, all at once */
const ORIGINS_SLACK = 1_024;

export class TimelineEngine {
  /**
   * pages by verdict, site, rule and kind, for lists that cost what they return (live only: offline input
   * is read once)
   */
  private readonly index: VerdictIndex | undefined;
  private readonly pages: HeldPages;
  /** first page of a responseId on its site, of any kind (responseid-cross-kind) and per kind (responseid-reused) */
  private readonly origins = new ResponseOrigins();
  /** the visits beside the pages: identity, cart, orders and credit (src/main/tracking/visits) */
  private readonly book: VisitBook;
  private provenance: ProvenanceSource | undefined;
  /** runs the declared rules over a page */
  private readonly judge: Judge;
  /** lets a quiet page's events go and reads them back */
  private readonly quietPages: QuietPages;
  private readonly reads: PageReads;
  private readonly siteReads: SiteReads;
  /** which pages a filter keeps */
  private readonly queries: PageQueries;
  /** pages waiting to go idle, in deadline order (deadlines only grow as events arrive) */
  private readonly idle: IdleQueue;
  /** events applied so far (offline release counts recency in events, not in time) */
  private applied = 0;
  /** `check`'s stream of finished pages */
  private readonly streamed: StreamedRelease;
  /** sites some of whose events the real service answered (upstream-disagrees had verdicts to compare) */
  private readonly answered = new Set<string>();
  private changed = new Set<Page>();
  private flushScheduled: ReturnType<typeof setTimeout> | null = null;
  /** the store is being replayed at start (beginReplay): idle timers leave pages to letGoReplayed */
  private replaying = false;

  constructor(private readonly options: TimelineEngineOptions) {
    this.index = options.offline || options.pageIndex === false ? undefined : new VerdictIndex();
    this.pages = new HeldPages(this.index);
    this.book = new VisitBook({
      attributionWindowMs: options.attributionWindowMs ?? 24 * 3_600_000,
      issuedQuery: (siteId, responseId) =>
        responseId === '' ? undefined : this.provenance?.issued(siteId, responseId)?.query,
      pageKey,
      credit: options.credit !== false,
    });
    this.judge = new Judge({
      settings: options.settings,
      levels: options.levels,
      origins: this.origins,
      book: this.book,
      provenance: () => this.provenance,
      index: this.index,
      shownOn: (key) => {
        const page = this.pages.get(key);
        return page && this.quietPages.withEvents(page, () => page.shown());
      },
    });
    this.quietPages = new QuietPages(options.pageRecords);
    this.idle = new IdleQueue(options.clock, (page, at) => this.wentIdle(page, at));
    this.reads = new PageReads({
      clock: options.clock,
      pages: this.pages,
      index: this.index,
      judge: this.judge,
      quiet: this.quietPages,
      idle: this.idle,
    });
    this.siteReads = new SiteReads(
      this.pages,
      this.book,
      this.reads,
      () => this.provenance,
      (siteId) => this.readinessInputs(siteId),
    );
    this.queries = new PageQueries({
      pages: this.pages,
      lookup: this.pages.byId,
      index: this.index,
      memory: this.quietPages,
      settle: () => this.reads.settle(),
      idleNow: () => this.idle.dueNow(),
      exactly: (page) => this.reads.exactly(page),
      asFinished: (page, read) => this.reads.asFinished(page, read),
    });
    this.streamed = new StreamedRelease({
      pages: this.pages,
      book: this.book,
      origins: this.origins,
      finish: (page) => this.finishPage(page),
      applied: () => this.applied,
      credit: options.credit !== false,
    });
  }

  get settings(): TimelineSettings {
    return this.options.settings;
  }

  /** Fold one recorded request in: the search-side kinds and the rest of the visit (product, cart, order, login). */
  apply(rec: RecordedEvent, opts: ApplyOptions = {}): void {
    const folded = foldAs(rec);
    if (folded === null) return;
    const ev = readEvent(rec);
    const page = this.pageOf(rec.siteId, ev);
    // a late event for a page that let its events go: they are taken back for good (it is live again)
    if (page.eventsLetGo) this.quietPages.takeBack(page);
    this.index?.touched(page);
    this.trim(page);
    if (page.arrive(ev, ++this.applied, this.settings.timestampSkewMs)) this.judge.touchAll(page);
    for (const rule of TALLYING) rule.tally!(page, rec);
    if (isVerdict(rec)) this.answered.add(rec.siteId);
    const visit = ev.accepted
      ? this.book.noteEvent(
          page.siteId,
          page.key,
          page,
          ev,
          readIdentity(rec),
          folded === 'visit',
          visitSessionOf(page, ev),
        )
      : undefined;
    if (folded === 'response') this.foldResponseEvent(page, rec, ev, visit);
    else if (folded === 'visit') {
      const v = readVisitEvent(rec, ev);
      page.addVisitEvent(v);
      if (visit) this.book.noteVisitEvent(visit, page.key, v);
      else if (!ev.accepted && v.cart)
        this.book.noteRefusedCartEvent(page.siteId, visitSessionOf(page, ev), v);
    } else page.addRefused();
    if (visit) this.touchLoadsBegunBefore(visit, page, ev.time);
    // Rules run when someone looks: at the change report, on reads, at finish. A burst of events on a
    // page (or offline input) runs them once, not once per event.
    if (!opts.quiet) this.notify(page);
  }

  /** An event of a response: the page takes it, the visit and the responseId origins hear of it. */
  private foldResponseEvent(
    page: Page,
    rec: RecordedEvent,
    ev: TimelineEvent,
    visit: Visit | undefined,
  ): void {
    const responses = page.responses.size;
    const response = page.responseOf(ev);
    if (page.responses.size > responses) this.index?.kindAdded(page, response.kind);
    // most events are neither a click nor a quick add: they cost the visit nothing
    if (ev.event === 'clickthrough' || ev.event === 'addtocart') {
      if (visit) this.noteInteraction(visit, page, response, rec, ev, ev.event);
      else if (!ev.accepted) this.noteLostInteraction(page, response, rec, ev, ev.event);
    }
    if (page.addToResponse(response, ev)) this.judge.touchAll(page);
    // the rules that read the other responses of the page (meta.needs.pageResponses) hear their events
    if (SIBLING_EVENTS.has(ev.event)) page.siblingsHear(response, ev.event);
    // the first accepted event of a responseId on its page may be its first on the site
    if (response.firstOrigin(ev)) {
      if (ev.event !== 'render' && visit) this.continuedFrom(page, response, ev, visit);
      this.origins.note(page, ev);
    }
    this.scheduleIdle(page, ev.receivedMs ?? this.options.clock.now());
  }

  /**
   * A response's first event on this page, not its render, whose responseId was rendered on another page
   * load of the same session, at the same URL, within PAGE_LOAD_ID_REUSE_MS, on a page load that holds
   * nothing but that render, with no page load of the session at another URL begun between them: one
   * document's events under two pageLoadIds (the client keeps one per document, B getPageLoadId, and hands
   * a new document at the same href within those seconds the stored one, unless a page load elsewhere
   * stored its own meanwhile: back from a product page is a new document). Both responses are told, so
   * their rules can say so (the render's, of the first page its events went on to). Read once per response
   * and page, only when a page's response begins without its render (rare).
   */
  private continuedFrom(page: Page, response: Response, ev: TimelineEvent, visit: Visit): void {
    const origin = this.origins.ofKind(page.siteId, ev.responseId, ev.kind);
    if (!origin || origin.pageKey === page.key || origin.sessionId !== ev.sessionId) return;
    if (origin.event !== 'render' || origin.pageUrl !== ev.pageUrl) return;
    if (ev.time < origin.time || ev.time - origin.time > PAGE_LOAD_ID_REUSE_MS) return;
    const from = this.pages.byId.page(page.siteId, origin.pageLoadId);
    const r = from?.responses.get(responseKey(response.kind, response.tag, response.responseId));
    // the render's page holds nothing else (a pageLoadId per event): a page that went on to impressions or
    // a click had its own life, and a new document at its URL after a click is the shopper coming back
    if (!from || !r || from.accepted !== r.renders) return;
    const elsewhere = (key: string) => {
      const other = this.pages.get(key);
      return other !== undefined && other.pageUrl !== ev.pageUrl;
    };
    if (visit.loads.beganBetween(origin.time, ev.time, [page.key, from.key], elsewhere)) return;
    response.renderedOn = {
      pageLoadId: from.pageLoadId,
      eventId: origin.eventId,
      time: origin.time,
    };
    // the render's page names the first page its events went on to
    if (r.continuedOn) return;
    r.continuedOn = { pageLoadId: page.pageLoadId, eventId: ev.id, time: ev.time };
    this.judge.touchAll(from);
    this.index?.touched(from);
  }

  /**
   * The visit keeps every click and quick add of its shopper (the credit of its order lines). Without
   * credit (`check`'s report) a quick add only moves the cart on and notes its prices, and a click is kept
   * for the rules that read the visit's clicks (`pageview-not-clicked`) while a page can still read it.
   */
  private noteInteraction(
    visit: Visit,
    page: Page,
    response: Response,
    rec: RecordedEvent,
    ev: TimelineEvent,
    event: Interaction['event'],
  ): void {
    const lines = event === 'addtocart' ? quickAddLines(rec) : [];
    const currency = event === 'addtocart' ? currencyOf(rec) : '';
    if (this.options.credit === false && event === 'addtocart')
      this.book.noteQuickAdd(visit, interactionIds(rec), lines, ev.id, currency);
    else
      this.book.noteInteraction(
        visit,
        interaction(visit, page, response, rec, ev, event),
        lines,
        currency,
      );
  }

  /**
   * A click or quick add the service rejected is kept by its session's visit (when the visit has begun):
   * it earns no credit, but an order line it would have credited names it, and the order its finding.
   */
  private noteLostInteraction(
    page: Page,
    response: Response,
    rec: RecordedEvent,
    ev: TimelineEvent,
    event: Interaction['event'],
  ): void {
    const sessionId = visitSessionOf(page, ev);
    if (this.options.credit === false || sessionId === '') return;
    const visit = this.book.visitOf(page.siteId, sessionId);
    if (!visit) return;
    const i = interaction(visit, page, response, rec, ev, event);
    if (i.ids.length === 0) return;
    this.book.noteLostInteraction(visit, { ...i, why: ev.errors[0] ?? `answered ${ev.status}` });
  }

  /**
   * The event's page; a page `check` released already that gets another event is noted (reopened), and
   * rejoins its visit with its first accepted event.
   */
  private pageOf(siteId: string, ev: TimelineEvent): Page {
    const page = this.pages.pageOf(siteId, ev);
    if (page.arrivals === 0) this.streamed.opened(page);
    if (ev.accepted && page.accepted === 0) this.streamed.rejoin(page, ev);
    return page;
  }

  /** Forget the oldest pages while over a limit; never `keep`. The oldest responseIds' first pages too. */
  private trim(keep: Page): void {
    const maxEvents = this.options.maxEvents ?? Infinity;
    const maxPages = this.options.maxPages ?? Infinity;
    // a responseId's first page is kept while the retention could hold one of its events: as many
    // responseIds as events, the first seen longest ago forgotten first, ORIGINS_SLACK at a time (a
    // sandbox kept running all day held one per response it ever took)
    if (this.origins.size > maxEvents + ORIGINS_SLACK) this.origins.forgetOldest(maxEvents);
    while (this.pages.eventCount > maxEvents || this.pages.size > maxPages) {
      const oldest = this.pages.oldest()!;
      if (oldest === keep) return;
      this.forgetPage(oldest);
    }
  }

  /** The page goes from the engine, and from its visit. */
  private forgetPage(page: Page): void {
    this.pages.forget(page);
    this.book.forgetPage(page.siteId, page.key, page);
  }

  /** The real service answered a forwarded event (recorded on `rec.upstream`): compare the verdicts. */
  upstreamAnswered(rec: RecordedEvent): void {
    // only verdicts are compared; a flood of not-sent requests must not cost a page lookup each
    if (!isVerdict(rec)) return;
    const folded = foldAs(rec);
    if (folded !== 'visit' && folded !== 'response') return;
    this.answered.add(rec.siteId);
    const page = this.pages.byId.page(rec.siteId, readEvent(rec).pageLoadId);
    if (page && TALLYING.some((rule) => rule.tally!(page, rec))) {
      this.index?.touched(page);
      page.talliesChanged();
      this.notify(page);
    }
  }

  /** a change report has somewhere to go */
  private get reporting(): boolean {
    return this.options.onChange !== undefined && (this.options.reportChanges?.() ?? true);
  }

  /**
   * An event of a page later than the start of a page load the visit began after it: that page's visit
   * rules read whether this one went on (`click-not-sent`: a listing that went on opened the product in
   * another tab), so they run again. Only the visit's latest page loads are looked at.
   */
  private touchLoadsBegunBefore(visit: Visit, page: Page, time: number): void {
    const first = visit.pages.get(page.key)?.first;
    if (first === undefined || time <= first) return;
    for (const key of visit.loads.begunBetween(first, time)) {
      const later = key === page.key ? undefined : this.pages.get(key);
      if (!later || later.visitDirty) continue;
      later.touchVisit();
      this.index?.touched(later);
      this.notify(later);
    }
  }

  private notify(page: Page): void {
    const onChange = this.options.onChange;
    if (!onChange) return;
    if (this.options.batchChangesMs === undefined) {
      this.reads.evaluate(page, false);
      if (this.reporting) onChange(pageSummary(page));
      return;
    }
    this.changed.add(page);
    if (!this.flushScheduled) {
      this.flushScheduled = setTimeout(() => this.flushChanges(), this.options.batchChangesMs);
      this.flushScheduled.unref?.();
    }
  }

  /**
   * Judge every page changed since the last flush (those still present) and report it to whoever
   * listens. A flush after a burst (an import) can hold thousands of pages: once a slice has run its
   * budget, the rest waits for the next turn of the loop.
   */
  flushChanges(): void {
    if (this.flushScheduled) clearTimeout(this.flushScheduled);
    this.flushScheduled = null;
    const slice = new Slicer();
    const reporting = this.reporting;
    // Nobody takes the reports, so judging now buys nothing: the page index keeps these pages stale, every
    // read settles them exactly, in slices, and a page is judged when it goes quiet, before it lets its
    // events go (wentIdle). Judging a busy page on every tick stalled answers (docs/benchmarks.md).
    if (!reporting) return this.changed.clear();
    for (const page of this.changed) {
      if (slice.due) {
        this.flushScheduled = setTimeout(() => this.flushChanges(), 0);
        this.flushScheduled.unref?.();
        return;
      }
      this.changed.delete(page);
      if (!this.pages.holds(page)) continue;
      this.reads.evaluate(page, false);
      if (reporting) this.options.onChange?.(pageSummary(page));
    }
  }

  /** Offline input is complete: every page counts as idle (so `no-impression` can be decided). */
  finish(): void {
    for (const page of this.pages.values()) this.finishPage(page);
  }

  private finishPage(page: Page): void {
    page.finish();
    this.judge.touchAll(page);
    this.reads.evaluate(page, true);
  }

  /** `check`'s stream: the oldest quiet pages judged as finished and handed over (streamed-release.ts). */
  release<P>(maxOpen: number, recent: number, dtoOf: (page: Page) => P): Generator<P> {
    return this.streamed.release(maxOpen, recent, dtoOf);
  }

  /** `check`'s stream: what is kept besides the open pages has a ceiling. */
  bound(limits: OfflineLimits): void {
    this.streamed.bound(limits);
  }

  /** What `bound` forgot so far. */
  forgottenState(): { visits: number; responses: number; released: number; late: number } {
    return this.streamed.forgottenState();
  }

  /** Offline input ended: every page left, judged as finished, handed over and forgotten. */
  releaseAll<P>(dtoOf: (page: Page) => P): Generator<P> {
    return this.streamed.releaseAll(dtoOf);
  }

  /** pageLoadIds of pages that got events after they were released (first 10), and how many */
  reopenedPages(): { count: number; first: string[] } {
    return this.streamed.reopenedPages();
  }

  /** Forget every page, or those of one site. */
  reset(siteId?: string): void {
    if (siteId === undefined) this.answered.clear();
    else this.answered.delete(siteId);
    this.pages.clear(siteId);
    this.book.reset(siteId);
    this.origins.reset(siteId);
    if (siteId === undefined) this.idle.clear();
  }

  /**
   * The store is about to be replayed into the engine: quiet applies, `letGoReplayed` now and then, and
   * `endReplay` at its end. The idle timers its applies set may fire meanwhile (the journal is read a
   * megabyte at a time, each read a turn of the event loop); a page whose timer fires is left to
   * `letGoReplayed`, which judges it before it lets its events go, rather than let go unjudged by its
   * timer (then the first list of failing pages after a restart read every page's events back: 23 s for
   * a million events).
   */
  beginReplay(): void {
    this.replaying = true;
  }

  /** The replay is over: every quiet page is judged and lets its events go, and idle timers act again. */
  endReplay(): void {
    this.letGoReplayed(0);
    this.replaying = false;
  }

  /**
   * The store replayed into the engine at start (quiet applies; idle timers leave pages to it): quiet pages
   * none of the last `recent` events touched let their events go, so the replay of a million events
   * never holds them all. Before it lets them go, such a page's responses are judged, while their events
   * are here: judged on the first read instead, every page read its events back from the store (a
   * million events: 34 s for the first list of failing pages after a restart). It goes idle first if its
   * idle time has passed (its timer, set by the replay, would make it so right after the start). What
   * the rest of the store may still change is left to the first read: the visit's findings (a later
   * page of the visit may come), and what the page rules say (judged with its visit).
   */
  letGoReplayed(recent: number): void {
    const now = this.options.clock.now();
    for (const page of this.pages.values()) {
      if (page.eventsLetGo || this.applied - page.lastApplied < recent || !this.reads.isQuiet(page))
        continue;
      if (!page.idle && page.awaitingImpression > 0 && now >= page.idleAt) {
        page.goIdle();
        this.judge.touchAll(page);
      }
      if (this.options.pageRecords && page.someDirty()) {
        try {
          this.judge.run(page, true, false);
        } catch {
          // a rule that throws on this page must not stop the sandbox from starting: the page keeps its
          // events, and all its rules run again when it is read, where the error shows as it did before
          this.judge.touchAll(page);
          continue;
        }
      }
      this.quietPages.letGo(page);
    }
  }

  /**
   * The store dropped its oldest event (retention): a page that let its events go, and whose pageLoadId
   * the event had, may no longer read them all back, so it goes as the engine's own trim would have let it
   * go (a page holding its events stays). Told only the event's site and page: nothing is read back.
   */
  storeDropped(dropped: DroppedEvent): void {
    if (dropped.pageLoadId === undefined) return;
    const page = this.pages.byId.page(dropped.siteId, dropped.pageLoadId);
    if (!page?.eventsLetGo) return;
    this.forgetPage(page);
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

  size(): number {
    return this.pages.size;
  }

  /** Judge every page changed since it was last judged exactly, one per step (page-reads.ts). */
  settle(): Generator<void> {
    return this.reads.settle();
  }

  /** The newest `limit` pages of a verdict, a site, a rule and a kind (queries.ts). Call after `settle`. */
  byIndex(filter: IndexFilter, limit: number) {
    return this.queries.byIndex(filter, limit);
  }

  /** Pages matching the filter, oldest first (by first receive time, then first arrival). */
  list(filter: TimelineFilter = {}): Page[] {
    return this.queries.list(filter);
  }

  /** The same pages one at a time, each judged when it is reached. */
  matching(filter: TimelineFilter = {}): Generator<Page> {
    return this.queries.matching(filter);
  }

  /** `matching` with a null for each page passed over (a caller gives the loop back between slices). */
  matchingSteps(filter: TimelineFilter = {}, finished = false): Generator<Page | null> {
    return this.queries.matchingSteps(filter, finished);
  }

  /** One page by pageLoadId (and siteId when two sites share it). */
  find(pageLoadId: string, siteId?: string): Page[] {
    return this.queries.find(pageLoadId, siteId);
  }

  /** The page as if it has ended, as reports, expectClean and check judge it (page-reads.ts). */
  finishedDto(page: Page): PageTimelineDto {
    return this.reads.finishedDto(page);
  }

  /** The verdict `finishedDto` would carry, without building the DTO (a report counts them first). */
  finishedVerdict(page: Page): Verdict {
    return this.reads.finishedVerdict(page);
  }

  /** The verdict and findings' rules and severities `finishedDto` would carry (page-reads.ts). */
  finishedJudgement(page: Page): Judgement {
    return this.reads.finishedJudgement(page);
  }

  /** `finishedDto` without the events (page-reads.ts). */
  finishedVerdictDto(page: Page): PageVerdictDto {
    return this.reads.finishedVerdictDto(page);
  }

  pagesDto(filter: TimelineFilter = {}): PageTimelineDto[] {
    // each page judged by the list, just now
    return this.list(filter).map((p) => this.reads.dtoOf(p));
  }

  /** The page with its events and findings, judged as it is now (page-reads.ts). */
  pageDto(page: Page): PageTimelineDto {
    return this.reads.pageDto(page);
  }

  /** The page's summary, judged as it is now. */
  summary(page: Page): PageTimelineSummaryDto {
    return this.reads.summary(page);
  }

  /**
   * What a site's rules had beyond its traffic (readiness: which behaviours no rule could judge): its
   * catalog and companion search as the provenance says, its rule levels, the real service's answers.
   */
  readinessInputs(siteId: string): ReadinessInputs {
    return readinessInputs(this.provenance, siteId, this.options.levels, this.answered.has(siteId));
  }

  /** Integration readiness of a site, one step per page judged or read, then the answer (site-reads.ts). */
  readinessSteps(site: ReadinessSite, finished = false): Generator<void, ReadinessDto> {
    return this.siteReads.readinessSteps(site, finished);
  }

  /** The site's orders that have a credited line, oldest first, with what puts their credit in doubt. */
  creditedOrders(siteId: string): Generator<CreditedOrder> {
    return this.siteReads.creditedOrders(siteId);
  }

  /** Visits (README, "The whole visit and its credit"), newest last. */
  visits(filter: VisitFilter = {}): VisitDto[] {
    return this.siteReads.visits(filter);
  }

  /** One entry per order/transaction, newest last, each line with its credit. */
  orders(filter: OrderFilter = {}): OrderDto[] {
    return this.siteReads.orders(filter);
  }

  /** The visits as JSON, each built when it is read (site-reads.ts). */
  visitJson(filter: VisitFilter = {}): Iterable<string> {
    return this.siteReads.visitJson(filter);
  }

  /** The orders as JSON, each with the findings that concern it. */
  orderJson(filter: OrderFilter = {}): Iterable<string> {
    return this.siteReads.orderJson(filter);
  }

  /** One order by the eventId of its order/transaction, as JSON; undefined when there is none. */
  orderJsonOf(eventId: string): string | undefined {
    return this.siteReads.orderJsonOf(eventId);
  }

  /** What a revenue report would show of the orders (`breathe` gives the event loop back now and then). */
  ordersSummary(
    filter: OrderFilter,
    breathe?: () => Promise<void> | void,
  ): Promise<OrdersSummaryDto> {
    return this.siteReads.ordersSummary(filter, breathe);
  }

  dispose(): void {
    this.idle.dispose();
    if (this.flushScheduled) clearTimeout(this.flushScheduled);
    this.flushScheduled = null;
    this.changed.clear();
  }

  private scheduleIdle(page: Page, receivedMs: number): void {
    page.idleAfter(receivedMs + this.settings.noImpressionIdleMs);
    // a page that may let its events go is told when it has been quiet for as long
    if ((page.awaitingImpression > 0 || this.options.pageRecords) && !this.options.offline)
      this.idle.push(page, page.idleAt);
  }

  private wentIdle(page: Page, at: number): void {
    // the replay at start lets its quiet pages go itself, judged (beginReplay)
    if (this.replaying) return;
    // stale entries: the page saw newer events, or was reset
    if (page.idleAt !== at || !this.pages.holds(page)) return;
    if (page.idle || page.awaitingImpression === 0) {
      // quiet, nothing to decide: judged while its events are here, then it lets them go (evaluate). With
      // nobody taking the change reports the batches no longer judge it, and a page let go unjudged would
      // be read back by the first read (the first failing-pages list after a big import).
      this.reads.evaluate(page, false);
      return;
    }
    page.goIdle();
    this.judge.touchAll(page);
    // A clock moved on an hour makes every page idle at once: while nobody takes reports, they are
    // judged when read rather than all now (that burst of judging, and its garbage, stalled the sandbox).
    if (!this.reporting) return;
    this.reads.evaluate(page, true);
    this.options.onChange?.(pageSummary(page));
  }
}

/** A click or quick add as its visit keeps it: where it was made (shared by the response's clicks), who, when, what. */
function interaction(
  visit: Visit,
  page: Page,
  response: Response,
  rec: RecordedEvent,
  ev: TimelineEvent,
  event: Interaction['event'],
): Interaction {
  const ids = interactionIds(rec);
  const i: Interaction = {
    source: response.sourceOfClick(page, ev),
    event,
    eventId: ev.id,
    // the visit's own string when it knows the userId: one copy however many clicks
    userId: visit.userIds.find((u) => u === ev.userId) ?? ev.userId,
    time: ev.time,
    ids,
  };
  // added to the few that need it, not spread into every literal: a visit holds every click of its shopper,
  // and a spread in the literal makes each of them larger
  if (typeof ids === 'string' && typedProducts(rec)) i.product = true;
  return i;
}
