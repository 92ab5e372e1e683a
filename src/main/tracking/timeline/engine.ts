// The timeline engine: folds each tracked event (search, category, autocomplete, recommendations, bundles)
// into its page (siteId + pageLoadId) and response (kind + responseId + tag), re-runs the rules of that one
// response and page, and tells listeners the page changed.
// Incremental: an event never touches other pages or history; `no-impression` waits on the sandbox clock.
import type { Clock } from '../../clock';
import type { TimelineSettings } from '../../config';
import type { RecordedEvent } from '../../../shared/events';
import type { DroppedEvent } from '../../store/types';
import type { PageTimelineDto, PageTimelineSummaryDto, Verdict } from '../../../shared/timeline';
import {
  insertSorted,
  NO_ENTRIES,
  pageKey,
  readEvent,
  responseKey,
  type PageState,
  type ResponseState,
  type TimelineEvent,
} from './model';
import { addFact, dropLetGoSummary, newPage, responseFor, tally } from './page-state';
import { IdleQueue } from './idle-queue';
import { PageIndex, type IndexFilter } from './page-index';
import { ResponseOrigins, SiteOrigin } from './response-origins';
import { ReleasedPages } from './released-pages';
import { PageLookup } from './page-lookup';
import type { ProvenanceSource } from './rules/provenance';
import { pageDto, pageSummary, verdictOf } from './dto';
import { pageKindOf } from './page-kind';
import { Slicer } from '../../slices';
import type { LevelSource } from '../../../shared/rule-levels';
import { VisitBook, type PageInfo } from '../visits/book';
import type { InteractionSource } from '../visits/credit';
import { interactionIds, readVisitEvent } from '../visits/events';
import { CONCURRENT_START_MS } from '../visits/rules';
import type { OrderDto, OrderFilter, VisitDto, VisitFilter } from '../../../shared/visits';
import { ChunkedMap } from '../../chunked';
import { SiteCounts } from '../site-counts';
import { Judge, someDirty, TALLYING } from './judge';
import { foldAs, PageMemory, type PageRecords } from './page-memory';
import { PageQueries, type TimelineFilter } from './queries';

export type { PageRecords } from './page-memory';
export type { TimelineFilter } from './queries';

export interface TimelineEngineOptions {
  clock: Clock;
  settings: TimelineSettings;
  /** called with the page's summary whenever a page changes (the core forwards it to the bus) */
  onChange?: (summary: PageTimelineSummaryDto) => void;
  /**
   * Whether anyone takes change reports now (default: always). Changed pages are judged either way (in
   * batches, so reads stay quick); while nobody listens, their summaries are neither built nor sent (the
   * core asks the bus whether a UI, a stream client or notifications listen).
   */
  reportChanges?: () => boolean;
  /**
   * Real wall-clock time, for `timestamp-skew` on live events: when the sandbox clock was moved, a browser
   * timestamp is compared with real time too, so time travel alone raises no finding.
   */
  realNow?: () => number;
  /**
   * Keep at most this many events (over all pages): the oldest pages are forgotten first, as the event
   * store's retention forgets their events. The page an event lands on is never dropped for it.
   */
  maxEvents?: number;
  /** keep at most this many pages (oldest forgotten first) */
  maxPages?: number;
  /**
   * Report changes at most every this many ms of real time (a page changed by a burst of events is
   * reported once, with its latest state; its rules run once) instead of after every event.
   * The sandbox batches; unit tests get every change at once.
   */
  batchChangesMs?: number;
  /** attribution window of order-line credit (config `attribution.windowHours`), default 24 h */
  attributionWindowMs?: number;
  /**
   * The user's per-rule severity (config `rules`, `accounts[].rules`; `check --rule`): findings carry
   * the effective severity and where it was set; `off` removes the rule. Rules never decide it.
   */
  levels?: LevelSource;
  /**
   * Offline input (`check`, imports of recordings): no idle timers; pages are judged as finished when
   * they are released or when the input ends.
   */
  offline?: boolean;
  /**
   * Keep the page index (live default; offline engines never do): lists by verdict, site, rule and kind
   * cost what they return, and reads skip pages judged exactly since they last changed. false: every read
   * judges every page (the reference the index is tested against).
   */
  pageIndex?: boolean;
  /**
   * Keep every click and quick add for the credit of order lines (default). false: `check`'s streamed
   * report has pages only, no orders, and no rule reads credit: clicks are not kept (a long recording's
   * clicks were most of what check held), quick adds still move the visit's cart on (cart-inconsistent's
   * exemption), and `orders()` of such an engine has no credit on any line.
   */
  credit?: boolean;
  /**
   * The store's events of one page (its siteId and body `context.pageLoadId`), oldest first. Given (the
   * live sandbox), a quiet page lets go of its events, and they are read back from here
   * whenever something reads them (its rules run again, its DTO, a free-text or event filter): a store of
   * a million events holds each once, not also as the rules' copy. A page whose events the store cannot
   * give back as they were applied (a body kept as text, an event retention already dropped) keeps them.
   */
  pageRecords?: PageRecords;
}

export interface ApplyOptions {
  /** the event is arriving now (not replayed from the store or read from a file) */
  live?: boolean;
  /** do not call onChange (replaying the store at start) */
  quiet?: boolean;
}

/** What `check` keeps of cross-page state at most (`bound`). */
export interface OfflineLimits {
  maxVisits: number;
  maxResponses: number;
  /** keys of released pages remembered (an event for one of them is noted as judging it in parts) */
  maxReleased: number;
}

export class TimelineEngine {
  private readonly pages = new ChunkedMap<string, PageState>();
  /** pages per siteId: a reset of the one site that holds every page empties everything at once */
  private readonly sitePages = new SiteCounts();
  /** first page of a responseId on its site, of any kind (responseid-cross-kind) and per kind (responseid-reused) */
  private readonly origins = new ResponseOrigins();
  /** pages by pageLoadId and by sessionId (one page, one session's pages) */
  private readonly lookup = new PageLookup();
  /** pages waiting to go idle, in deadline order (deadlines only grow as events arrive) */
  private readonly idle: IdleQueue;
  private totalEvents = 0;
  /** pages created so far (a new page's place in page order) */
  private created = 0;
  /** events applied so far (offline release counts recency in events, not in time) */
  private applied = 0;
  /** pages released while offline input went on (an event for one reopens it: noted) */
  private released: ReleasedPages | undefined;
  private reopened = { count: 0, first: [] as string[] };
  private readonly forgotten = { visits: 0, responses: 0, released: 0 };
  private changed = new Set<PageState>();
  private flushScheduled: ReturnType<typeof setTimeout> | null = null;
  /** the store is being replayed at start (beginReplay): idle timers leave pages to letGoReplayed */
  private replaying = false;
  private provenance: ProvenanceSource | undefined;
  /** the visits beside the pages: identity, cart, orders and credit (src/main/tracking/visits) */
  private readonly book: VisitBook;
  /**
   * pages by verdict, site, rule and kind, for lists that cost what they return (live only: offline input
   * is read once)
   */
  private readonly index: PageIndex | undefined;

  /** runs the declared rules over a page (judge.ts) */
  private readonly judge: Judge;
  /** lets a quiet page's events go and reads them back (page-memory.ts) */
  private readonly memory: PageMemory;
  /** which pages a filter keeps (queries.ts) */
  private readonly queries: PageQueries;

  constructor(private readonly options: TimelineEngineOptions) {
    this.index = options.offline || options.pageIndex === false ? undefined : new PageIndex();
    this.idle = new IdleQueue(options.clock, (page, at) => this.wentIdle(page, at));
    this.book = new VisitBook({
      attributionWindowMs: options.attributionWindowMs ?? 24 * 3_600_000,
      issuedQuery: (siteId, responseId) =>
        responseId === '' ? undefined : this.provenance?.issued(siteId, responseId)?.query,
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

  /** Fold one recorded request in: the search-side kinds and the rest of the visit (product, cart, order, login). */
  apply(rec: RecordedEvent, opts: ApplyOptions = {}): void {
    const folded = foldAs(rec);
    if (folded === null) return;
    const ev = readEvent(rec);
    const page = this.pageFor(rec.siteId, ev);
    // a late event for a page that let its events go: they are taken back for good (it is live again)
    if (page.released) {
      this.memory.readBack(page);
      page.released = false;
      dropLetGoSummary(page);
    }
    this.index?.touched(page);
    page.lastApplied = ++this.applied;
    page.arrivals++;
    this.totalEvents++;
    this.trim(page);
    ev.arrival = page.arrivals;
    ev.arrivedLate = ev.time < page.maxTime;
    if (ev.time > page.maxTime && page.latestWatchers > 0) this.judge.touchAll(page);
    if (ev.time > page.maxTime) page.maxTime = ev.time;
    tally(page, ev, this.settings.timestampSkewMs, opts.live ? this.options.realNow : undefined);
    for (const rule of TALLYING) rule.tally!(page, rec);
    page.tallyChanges++;
    if (ev.receivedMs !== null) {
      if (page.firstSeenMs === null || ev.receivedMs < page.firstSeenMs)
        page.firstSeenMs = ev.receivedMs;
      if (page.lastSeenMs === null || ev.receivedMs > page.lastSeenMs)
        page.lastSeenMs = ev.receivedMs;
    }

    page.visitDirty = true;
    const visit = ev.accepted ? this.book.noteEvent(page.siteId, page.key, ev) : undefined;
    if (folded === 'refused') {
      // counted on its page (request-refused) and found by id; it belongs to no response
      if (page.idle) page.idle = false;
      if (!opts.quiet) this.notify(page);
      return;
    }
    if (folded === 'visit') {
      const v = readVisitEvent(rec, ev);
      if (page.visitEvents === NO_ENTRIES) page.visitEvents = [];
      insertSortedBy(page.visitEvents, v, (x) => x.base);
      if (visit) this.book.noteVisitEvent(visit, page.key, v);
      if (page.idle) page.idle = false;
      if (!opts.quiet) this.notify(page);
      return;
    }
    const responses = page.responses.size;
    const response = responseFor(page, ev);
    if (page.responses.size > responses) this.index?.kindAdded(page, response.kind);
    if (visit && this.options.credit === false) {
      if (ev.event === 'addtocart') this.book.noteQuickAdd(visit, interactionIds(rec));
    } else if (visit && (ev.event === 'clickthrough' || ev.event === 'addtocart'))
      // the visit keeps every click of its shopper: where it was made is shared by the response's clicks
      this.book.noteInteraction(visit, {
        source: clickSource(page, response, ev),
        event: ev.event === 'clickthrough' ? 'clickthrough' : 'addtocart',
        eventId: ev.id,
        userId: visit.userIds.find((u) => u === ev.userId) ?? ev.userId,
        time: ev.time,
        ids: interactionIds(rec),
      });

    insertSorted(response.events, ev);
    // a category page's redirect goes to search/redirect: its category response checks events against it
    if (ev.kind === 'search' && ev.event === 'redirect') {
      const category = page.responses.get(responseKey('category', '', ev.responseId));
      if (category) category.touch();
    }
    if (addFact(page, response, ev)) this.judge.touchAll(page);
    // a response's first accepted event is the only one that can be the first of its responseId anywhere
    if (ev.accepted && ev.responseId && !response.originNoted) {
      response.originNoted = true;
      // kept for every responseId of the input (offline too): the page's strings, not copies
      this.origins.note(
        page.siteId,
        ev.responseId,
        ev.kind,
        () =>
          new SiteOrigin(
            page.siteId,
            page.pageLoadId,
            ev.pageUrl === page.pageUrl ? page.pageUrl : ev.pageUrl,
            ev.sessionId === page.sessionId ? page.sessionId : ev.sessionId,
            ev.id,
            ev.kind,
            ev.event,
          ),
      );
    }
    if (page.idle) {
      page.idle = false;
      this.judge.touchAll(page);
    }
    response.hear(ev.event);
    this.scheduleIdle(page, ev.receivedMs ?? this.options.clock.now());
    // Rules run when someone looks: at the change report, on reads, at finish. A burst of events on a
    // page (or offline input) runs them once, not once per event.
    if (!opts.quiet) this.notify(page);
  }

  /** The real service answered a forwarded event (recorded on `rec.upstream`): compare the verdicts. */
  upstreamAnswered(rec: RecordedEvent): void {
    const outcome = rec.upstream?.outcome;
    // only verdicts are compared; a flood of not-sent requests must not cost a page lookup each
    if (outcome !== 'accepted' && outcome !== 'rejected') return;
    const folded = foldAs(rec);
    if (folded !== 'visit' && folded !== 'response') return;
    const page = this.pages.get(pageKey(rec.siteId, readEvent(rec).pageLoadId));
    if (page && TALLYING.some((rule) => rule.tally!(page, rec))) {
      this.index?.touched(page);
      page.tallyChanges++;
      this.notify(page);
    }
  }

  /** a change report has somewhere to go */
  private get reporting(): boolean {
    return this.options.onChange !== undefined && (this.options.reportChanges?.() ?? true);
  }

  private notify(page: PageState): void {
    const onChange = this.options.onChange;
    if (!onChange) return;
    if (this.options.batchChangesMs === undefined) {
      this.evaluate(page, false);
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
    for (const page of this.changed) {
      if (slice.due) {
        this.flushScheduled = setTimeout(() => this.flushChanges(), 0);
        this.flushScheduled.unref?.();
        return;
      }
      this.changed.delete(page);
      if (this.pages.get(page.key) !== page) continue;
      this.evaluate(page, false);
      if (reporting) this.options.onChange?.(pageSummary(page));
    }
  }

  /** Offline input is complete: every page counts as idle (so `no-impression` can be decided). */
  finish(): void {
    for (const page of this.pages.values()) this.finishPage(page);
  }

  private finishPage(page: PageState): void {
    if (!page.idle && page.awaitingImpression > 0) page.judgedAsFinished = true;
    page.idle = true;
    this.judge.touchAll(page);
    this.evaluate(page, true);
  }

  /**
   * Offline input read as a stream (`check`): while more than `maxOpen` pages are kept, the oldest that
   * saw no event among the last `recent` applied are judged as finished, handed over and forgotten (their
   * visits stay in the book, so later orders keep their credit). Looks at most 256 pages per call.
   */
  *release(maxOpen: number, recent: number): Generator<PageTimelineDto> {
    if (this.pages.size <= maxOpen) return;
    this.released ??= new ReleasedPages();
    let looked = 0;
    for (const [key, page] of this.pages) {
      if (this.pages.size <= maxOpen || looked++ >= 256) return;
      if (this.applied - page.lastApplied < recent) continue;
      yield this.forgetJudged(key, page);
      this.released.add(page.siteId, page.pageLoadId);
    }
  }

  /**
   * Offline input too big to hold: besides the open pages, keep at most `maxVisits` visits,
   * `maxResponses` first pages of responseIds and the keys
   * of `maxReleased` released pages (oldest forgotten first), so memory has a ceiling whatever
   * the input's length. Counts what was forgotten (`forgottenState`).
   */
  bound(limits: OfflineLimits): void {
    this.forgotten.visits += this.book.forgetOldestVisits(limits.maxVisits);
    this.forgotten.responses += this.origins.forgetOldest(limits.maxResponses);
    if (this.released) this.forgotten.released += this.released.forgetOldest(limits.maxReleased);
  }

  /** What `bound` forgot so far. */
  forgottenState(): { visits: number; responses: number; released: number } {
    return { ...this.forgotten };
  }

  /** Offline input ended: every page left, judged as finished, handed over and forgotten. */
  *releaseAll(): Generator<PageTimelineDto> {
    for (const [key, page] of this.pages) yield this.forgetJudged(key, page);
  }

  /** pageLoadIds of pages that got events after they were released (first 10), and how many */
  reopenedPages(): { count: number; first: string[] } {
    return { count: this.reopened.count, first: [...this.reopened.first] };
  }

  private forgetJudged(key: string, page: PageState): PageTimelineDto {
    this.finishPage(page);
    const dto = pageDto(page);
    this.forget(key, page);
    this.book.pageReleased(key, CONCURRENT_START_MS);
    return dto;
  }

  /** Forget every page, or those of one site. */
  reset(siteId?: string): void {
    if (siteId === undefined || this.sitePages.holdsAll(siteId, this.pages.size)) {
      // every page goes: the collections are emptied at once, not page by page (a million events hold
      // ~100,000 pages: forgetting them one at a time held the event loop ~0.7 s)
      this.pages.clear();
      this.sitePages.clear();
      this.index?.clear();
      this.lookup.clear();
      this.totalEvents = 0;
    }
    for (const [key, page] of this.pages) {
      if (siteId !== undefined && page.siteId !== siteId) continue;
      this.forget(key, page);
    }
    this.book.reset(siteId);
    this.origins.reset(siteId);
    if (siteId === undefined) this.idle.clear();
  }

  /** Forget the oldest pages (Map order is insertion order) while over a limit; never `keep`. */
  private trim(keep: PageState): void {
    const maxEvents = this.options.maxEvents ?? Infinity;
    const maxPages = this.options.maxPages ?? Infinity;
    while (this.totalEvents > maxEvents || this.pages.size > maxPages) {
      const [key, oldest] = this.pages.entries().next().value!;
      if (oldest === keep) return;
      this.forget(key, oldest);
      this.book.forgetPage(oldest.siteId, key);
    }
  }

  /** The page goes from the engine and its indexes. */
  private forget(key: string, page: PageState): void {
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
   * The page as if it has ended (CONTRACT.md "Strictness"): a rule that waits for the page to settle
   * (no-impression) decides now, and the DTO says so; the live page stays pending, as it was.
   */
  finishedDto(page: PageState): PageTimelineDto {
    return this.asFinished(page, (p) => this.dtoOf(p));
  }

  /** The verdict `finishedDto` would carry, without building the DTO (a report counts them first). */
  finishedVerdict(page: PageState): Verdict {
    return this.asFinished(page, verdictOf);
  }

  /** `read` reads the page's events back itself if it needs them (a verdict does not). */
  private asFinished<T>(page: PageState, read: (page: PageState) => T): T {
    this.judgeExactly(page);
    if (page.idle || page.awaitingImpression === 0) return read(page);
    // judged twice over (as ended, then as it is): its events are read back once for both
    return this.memory.withEvents(page, () => this.judgedAsFinished(page, read));
  }

  private judgedAsFinished<T>(page: PageState, read: (page: PageState) => T): T {
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
  private dtoOf(page: PageState): PageTimelineDto {
    return this.memory.withEvents(page, () => pageDto(page));
  }

  /** The page's summary, judged as it is now (as `pageDto`). */
  summary(page: PageState): PageTimelineSummaryDto {
    this.judgeExactly(page);
    return pageSummary(page);
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
      if (page.released || this.applied - page.lastApplied < recent || !this.quiet(page)) continue;
      if (!page.idle && page.awaitingImpression > 0 && now >= page.idleAt) {
        page.idle = true;
        this.judge.touchAll(page);
      }
      if (this.options.pageRecords && someDirty(page)) {
        try {
          this.judge.page(page, true, false);
        } catch {
          // a rule that throws on this page must not stop the sandbox from starting: the page keeps its
          // events, and all its rules run again when it is read, where the error shows as it did before
          this.judge.touchAll(page);
          continue;
        }
      }
      this.memory.letGo(page);
    }
  }

  /**
   * The store dropped its oldest event (retention): a page that let its events go, and whose pageLoadId
   * the event had, may no longer read them all back, so it goes as the engine's own trim would have let it
   * go (a page holding its events stays). Told only the event's site and page: nothing is read back.
   */
  storeDropped(dropped: DroppedEvent): void {
    if (dropped.pageLoadId === undefined) return;
    const page = this.lookup.page(dropped.siteId, dropped.pageLoadId);
    if (!page?.released) return;
    this.forget(page.key, page);
    this.book.forgetPage(page.siteId, page.key);
  }

  /** One page by pageLoadId (and siteId when two sites share it). */
  find(pageLoadId: string, siteId?: string): PageState[] {
    return this.queries.find(pageLoadId, siteId);
  }

  dispose(): void {
    this.idle.dispose();
    if (this.flushScheduled) clearTimeout(this.flushScheduled);
    this.flushScheduled = null;
    this.changed.clear();
  }

  private pageFor(siteId: string, ev: TimelineEvent): PageState {
    // found through the lookup by the event's pageLoadId: a page key is built only for a new page
    let page = this.lookup.page(siteId, ev.pageLoadId);
    if (!page) {
      const key = pageKey(siteId, ev.pageLoadId);
      page = newPage(key, siteId, ev, this.created++);
      // none of the key: the lookup, kept with the pages, has none of its pageLoadId on the site
      this.pages.setNew(key, page);
      this.sitePages.added(siteId);
      this.lookup.added(page);
      if (this.released?.has(siteId, ev.pageLoadId) && this.reopened.count++ < 10)
        this.reopened.first.push(ev.pageLoadId);
    }
    // The page's identity comes from its first accepted event (a rejected one may hold garbage).
    if (ev.accepted && page.accepted === 0) {
      if (page.sessionId !== ev.sessionId) {
        const was = page.sessionId;
        page.sessionId = ev.sessionId;
        this.lookup.sessionChanged(page, was);
      }
      page.userId = ev.userId;
      page.pageUrl = ev.pageUrl;
    }
    return page;
  }

  /**
   * The page's rules as an exact read needs them. A page the page index knows to be judged exactly
   * since its last change is skipped: nothing its rules read has changed (a page rule reads only the
   * page's own tallies and the settings), so running them again would give the same findings.
   */
  private judgeExactly(page: PageState): void {
    if (page.indexed?.stale === false) return;
    this.evaluate(page, true);
  }

  /**
   * Re-run the rules of the page's dirty responses (all of them when `exact`) and its page rules. A quiet
   * page lets its events go (`pageRecords`); one that let them go reads them back while its responses'
   * rules run.
   */
  private evaluate(page: PageState, exact: boolean): void {
    if (page.released && someDirty(page))
      this.memory.withEvents(page, () => this.judge.page(page, exact));
    else this.judge.page(page, exact);
    if (this.quiet(page)) this.memory.letGo(page);
  }

  /**
   * No event for the idle time (`noImpressionIdleMs` since its last one's receipt): a page that could let
   * its events go. One still getting events keeps them, so a long page is not read back for every event.
   */
  private quiet(page: PageState): boolean {
    return page.idle || this.options.clock.now() >= page.idleAt;
  }

  /** Visits (CONTRACT.md, "The whole visit"), newest last. */
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

  orderJson(filter: OrderFilter = {}): Iterable<string> {
    return this.book.listOrders(filter);
  }

  private pageInfo(key: string): PageInfo | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    this.evaluate(page, false);
    return { kind: pageKindOf(page), verdict: verdictOf(page), pageUrl: page.pageUrl };
  }

  private scheduleIdle(page: PageState, receivedMs: number): void {
    page.idleAt = receivedMs + this.settings.noImpressionIdleMs;
    // a page that may let its events go is told when it has been quiet for as long
    if ((page.awaitingImpression > 0 || this.options.pageRecords) && !this.options.offline)
      this.idle.push(page, page.idleAt);
  }

  private wentIdle(page: PageState, at: number): void {
    // the replay at start lets its quiet pages go itself, judged (beginReplay)
    if (this.replaying) return;
    // stale entries: the page saw newer events, or was reset
    if (page.idleAt !== at || this.pages.get(page.key) !== page) return;
    if (page.idle || page.awaitingImpression === 0) {
      // quiet, nothing to decide: it lets its events go (its rules read them back if they run again)
      this.memory.letGo(page);
      return;
    }
    page.idle = true;
    this.judge.touchAll(page);
    // A clock moved on an hour makes every page idle at once: while nobody takes reports, they are
    // judged when read rather than all now (that burst of judging, and its garbage, stalled the sandbox).
    if (!this.reporting) return;
    this.evaluate(page, true);
    this.options.onChange?.(pageSummary(page));
  }
}

/** Insert keeping (time, seq) order of the element's event; O(1) for in-order arrival. */
function insertSortedBy<T>(list: T[], item: T, ev: (x: T) => { time: number; seq: number }): void {
  const e = ev(item);
  let i = list.length;
  while (i > 0) {
    const p = ev(list[i - 1]!);
    if (p.time < e.time || (p.time === e.time && p.seq < e.seq)) break;
    i--;
  }
  list.splice(i, 0, item);
}

/** Where a click of `response` was made: the response's own while its page URL stays (a new one if it moved). */
function clickSource(
  page: PageState,
  response: ResponseState,
  ev: TimelineEvent,
): InteractionSource {
  const held = response.clickSource;
  if (held && held.pageUrl === ev.pageUrl) return held;
  return (response.clickSource = {
    kind: response.kind,
    tag: response.tag,
    responseId: response.responseId,
    pageKey: page.key,
    pageLoadId: page.pageLoadId,
    pageUrl: ev.pageUrl === page.pageUrl ? page.pageUrl : ev.pageUrl,
  });
}
