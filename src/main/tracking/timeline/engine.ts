// The timeline engine: folds each tracked event (search, category, autocomplete, recommendations, bundles)
// into its page (siteId + pageLoadId) and response (kind + responseId + tag), marks what the event changed
// for the judge, and tells listeners the page changed. The pages and every read of them are
// timeline-pages.ts's; the rules run in judge.ts.
// Incremental: an event never touches other pages or history; `no-impression` waits on the sandbox clock.
import type { RecordedEvent } from '../../../shared/events';
import type { DroppedEvent } from '../../store/types';
import type { PageTimelineDto } from '../../../shared/timeline';
import {
  insertSorted,
  NO_ENTRIES,
  pageKey,
  readEvent,
  responseKey,
  type PageState,
  type TimelineEvent,
} from './model';
import {
  addFact,
  clickSource,
  dropLetGoSummary,
  insertSortedBy,
  newPage,
  responseFor,
  tally,
} from './page-state';
import { IdleQueue } from './idle-queue';
import { SiteOrigin } from './response-origins';
import { ReleasedPages } from './released-pages';
import { pageDto, pageSummary } from './dto';
import { Slicer } from '../../slices';
import { interactionIds, quickAddLines, readVisitEvent } from '../visits/events';
import { readIdentity } from '../visits/identity';
import { CONCURRENT_START_MS } from '../visits/rules';
import { SIBLING_EVENTS, someDirty, TALLYING } from './judge';
import { foldAs } from './page-memory';
import { TimelinePages } from './timeline-pages';
import type { ApplyOptions, OfflineLimits, TimelineEngineOptions } from './engine-options';

export type { PageRecords } from './page-memory';
export type { TimelineFilter } from './queries';
export type { ApplyOptions, OfflineLimits, TimelineEngineOptions } from './engine-options';

export class TimelineEngine extends TimelinePages {
  /** pages waiting to go idle, in deadline order (deadlines only grow as events arrive) */
  private readonly idle: IdleQueue;
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

  constructor(options: TimelineEngineOptions) {
    super(options);
    this.idle = new IdleQueue(options.clock, (page, at) => this.wentIdle(page, at));
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
    const visit = ev.accepted
      ? this.book.noteEvent(page.siteId, page.key, ev, readIdentity(rec), folded === 'visit')
      : undefined;
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
    if (visit && ev.event === 'addtocart') this.book.noteQuickQty(visit, quickAddLines(rec));

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
            ev.time,
            ev.dev,
          ),
      );
    }
    if (page.idle) {
      page.idle = false;
      this.judge.touchAll(page);
    }
    response.hear(ev.event);
    // the rules that read the other responses of the page (meta.needs.pageResponses) hear their events
    if (SIBLING_EVENTS.has(ev.event) && page.responses.size > 1)
      for (const o of page.responses.values())
        if (o !== response && o.kind === response.kind) o.hear(ev.event);
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
      // quiet, nothing to decide: judged while its events are here, then it lets them go (evaluate). With
      // nobody taking the change reports the batches no longer judge it, and a page let go unjudged would
      // be read back by the first read (the first failing-pages list after a big import).
      this.evaluate(page, false);
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
