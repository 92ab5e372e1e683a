// One page (siteId + pageLoadId): its identity, its responses and visit events, the tallies its page rules
// read, the findings and severity counts its rules left, and its events let go and taken back. Every field
// changes through a method here, one event in O(1); the engine decides when rules run.
import { KIND_EVENTS, type ResponseKind } from '../../../shared/kinds';
import type { TimelineRuleId, Verdict } from '../../../shared/timeline';
import type { VisitPageKind } from '../../../shared/visits';
import { timestampSkewMs } from '../../../shared/clock-offset';
import type { VisitEvent } from '../visits/events';
import { shownOnPage, type ShownOnPage } from '../visits/shown-on-page';
import type { Visit } from '../visits/book';
import {
  addCapped,
  capped,
  insertSorted,
  NO_ENTRIES,
  NO_IDS,
  withCapped,
  type Capped,
  type PageTallies,
  type TimelineEvent,
} from './model';
import type { Finding } from '../finding';
import { Response } from './response';
import { SiblingLog, UNHEARD_LOG } from './heard';
import { PageResponses } from './page-responses';

export class Page {
  /**
   * the live engine's page index (verdict-index.ts): the page's verdict and rules there, and whether it is
   * stale (undefined: the index does not know the page). Fields of the page, not an object of their own:
   * every page of a live engine has them.
   */
  indexVerdict: Verdict | null = null;
  indexRules: readonly TimelineRuleId[] = NO_ENTRIES;
  indexStale: boolean | undefined = undefined;
  readonly pageLoadId: string;
  /** the page's own ids and URL: its first accepted event's (a rejected one may hold garbage) */
  sessionId: string;
  userId: string;
  pageUrl: string;
  firstSeenMs: number | null = null;
  lastSeenMs: number | null = null;
  /** by kind + tag + responseId, in the order they first appeared on the page */
  readonly responses = new PageResponses();
  arrivals = 0;
  accepted = 0;
  rejected = 0;
  /** latest timestamp seen on the page, to mark late arrivals */
  maxTime = -Infinity;
  /** the time of its latest accepted event (readiness: was a render the last thing the page sent?) */
  maxAcceptedTime = -Infinity;
  renderedResponses = 0;
  /**
   * the kind of its rendered responses while they are all of one kind (null before the first): their
   * count is `renderedResponses`, with no table of kinds (`renderedOf`)
   */
  private renderedKind: ResponseKind | null = null;
  /**
   * rendered responses per kind (missing-render's severity depends on the page's other renders of its
   * kind); null until a second kind rendered (`renderedKind`). A plain object, not a Map: a Map of one
   * entry costs ~190 bytes, and a page holds only those it uses.
   */
  private renderedByKind: Partial<Record<ResponseKind, number>> | null = null;
  /** the page's accepted autocomplete renders in (time, seq) order: a repeated search sends no render */
  autocompleteRenders: TimelineEvent[] = NO_ENTRIES;
  /**
   * The page's yes-or-no states (`eventsLetGo`, `holdsEvents`, `visitDirty`, `idle`, `judgedAsFinished`),
   * a bit each in one number: a page has one field where it had five, and a live sandbox holds 100,000.
   */
  private flags = 0;
  /**
   * What the free-text filter reads of a page that let its events go, taken from those events as they
   * went: every item uid and parentId, lowercased, each framed by U+0000. Null while it holds them, or
   * when an id holds U+0000. Fields of the page, not an object of their own: a million events' pages hold
   * 100,000 of them (an object and an array each cost ~19 MB more).
   */
  letGoItemIds: string | null = null;
  /** with `letGoItemIds`: the types of its response events, a bit each (`RESPONSE_EVENTS`) */
  letGoEvents = 0;
  /** responses awaiting an impression (`Response.awaitingImpression`) */
  awaitingImpression = 0;
  /**
   * per kind, what its responses heard of each other (heard.ts); null until one heard a sibling, and a
   * kind's log made only then (`heardLog`)
   */
  private siblingLogs: Partial<Record<ResponseKind, SiblingLog>> | null = null;
  /** responses with watchesLatest: a later-timestamped event must re-run their rules */
  latestWatchers = 0;
  readonly tallies: PageTallies = {
    schema: null,
    refused: null,
    otherSessionIds: null,
    otherUserIds: null,
    notDev: NO_IDS,
    badTimestamp: NO_IDS,
    farTimestamp: NO_IDS,
    maxSkewMs: 0,
    farWithClockMoved: false,
    // there from the start, though empty: a member added later goes to a second object of the tallies
    rules: undefined,
  };
  /** page-scope findings, built when the page is read exactly (counted cheaply on every event) */
  pageFindings: Finding[] = NO_ENTRIES;
  /** product, cart, order and login events, in (time, seq) order */
  visitEvents: VisitEvent[] = NO_ENTRIES;
  /** visit-rule findings (src/main/tracking/visits/rules/), and whether they must be built again */
  visitFindings: Finding[] = NO_ENTRIES;
  /**
   * rule id → number of page-scope findings it has now (null until a page rule finds something); a plain
   * object, as `renderedByKind`
   */
  pageRuleCounts: Record<string, number> | null = null;
  /** rule id → the severity of its page-scope findings, of those the config set to another than the rule's own */
  pageRuleLevels: Record<string, Finding['severity']> | null = null;
  /** bumped whenever the tallies change; the value the page-scope counts were last taken at */
  tallyChanges = 0;
  private countedAt = -1;
  errors = 0;
  warnings = 0;
  infos = 0;
  /** sandbox time at which the page counts as idle */
  idleAt = Infinity;
  /** the engine's count of applied events when this page last got one (offline release) */
  lastApplied = 0;
  /** the visits the page is in, kept here for the visit book (visits/book.ts, `PageVisits`) */
  bookVisits: Visit | Visit[] | undefined = undefined;

  constructor(
    readonly key: string,
    readonly siteId: string,
    ev: TimelineEvent,
    /** the page's place in the engine's page order (its creation): the order of lists read from indexes */
    readonly order: number,
  ) {
    this.pageLoadId = ev.pageLoadId;
    this.sessionId = ev.sessionId;
    this.userId = ev.userId;
    this.pageUrl = ev.pageUrl;
  }

  /**
   * Its events were let go (a live engine given `pageRecords`, the page judged while idle): its responses'
   * event lists and `autocompleteRenders` are empty until they are read back from the store.
   */
  get eventsLetGo(): boolean {
    return (this.flags & EVENTS_LET_GO) !== 0;
  }

  /** the store cannot give its events back as they were applied (see `pageRecords`): they stay held */
  get holdsEvents(): boolean {
    return (this.flags & HOLDS_EVENTS) !== 0;
  }

  /** the visit rules' findings must be built again */
  get visitDirty(): boolean {
    return (this.flags & VISIT_DIRTY) !== 0;
  }

  get idle(): boolean {
    return (this.flags & IDLE) !== 0;
  }

  /** judged as if it has ended while it was still waiting for impressions (reports, check) */
  get judgedAsFinished(): boolean {
    return (this.flags & JUDGED_AS_FINISHED) !== 0;
  }

  private flag(bit: number, on: boolean): void {
    this.flags = on ? this.flags | bit : this.flags & ~bit;
  }

  get verdict(): Verdict {
    return this.errors > 0 ? 'fail' : this.warnings > 0 ? 'warn' : 'pass';
  }

  /** The page's kind in its visit: its weightiest accepted event, in VISIT_PAGE_KINDS' order. */
  get pageKind(): VisitPageKind {
    let product = false;
    let cart = false;
    for (const v of this.visitEvents) {
      if (!v.base.accepted) continue;
      const kind = visitEndpointKind(v.endpoint);
      if (kind === 'order') return 'order';
      if (kind === 'product') product = true;
      else if (kind === 'cart') cart = true;
    }
    if (product) return 'product';
    if ((this.renderedOf('search') ?? 0) > 0 || this.hasAcceptedOf('search')) return 'search';
    if ((this.renderedOf('category') ?? 0) > 0 || this.hasAcceptedOf('category')) return 'category';
    return cart ? 'cart' : 'other';
  }

  /**
   * The page's identity comes from its first accepted event. Returns the sessionId it had when that event
   * names another (the engine's lookup by session moves it), else undefined.
   */
  adoptIdentity(ev: TimelineEvent): string | undefined {
    if (!ev.accepted || this.accepted !== 0) return undefined;
    const was = this.sessionId;
    this.sessionId = ev.sessionId;
    this.userId = ev.userId;
    this.pageUrl = ev.pageUrl;
    return was === ev.sessionId ? undefined : was;
  }

  /**
   * A later part of a page `check` let go of (streamed-release.ts): its sessionId is its earlier part's,
   * that of the visit it was in, whatever its own first accepted event carried. Returns the one it had.
   */
  rejoin(sessionId: string): string {
    const was = this.sessionId;
    this.sessionId = sessionId;
    return was;
  }

  /**
   * An event arrived on the page (of a response, of the visit, or refused): it is numbered, marked late or
   * not, and counted into the tallies. True when it is later than every event before it and a response's
   * findings wait on such an event.
   */
  arrive(ev: TimelineEvent, applied: number, skewLimitMs: number): boolean {
    this.lastApplied = applied;
    ev.arrival = ++this.arrivals;
    ev.arrivedLate = ev.time < this.maxTime;
    const latest = ev.time > this.maxTime;
    if (latest) this.maxTime = ev.time;
    if (ev.accepted && ev.time > this.maxAcceptedTime) this.maxAcceptedTime = ev.time;
    this.tally(ev, skewLimitMs);
    this.tallyChanges++;
    if (ev.receivedMs !== null) {
      if (this.firstSeenMs === null || ev.receivedMs < this.firstSeenMs)
        this.firstSeenMs = ev.receivedMs;
      if (this.lastSeenMs === null || ev.receivedMs > this.lastSeenMs)
        this.lastSeenMs = ev.receivedMs;
    }
    this.flag(VISIT_DIRTY, true);
    return latest && this.latestWatchers > 0;
  }

  /** The tallies changed beyond the events (the real service answered): the page rules count again. */
  talliesChanged(): void {
    this.tallyChanges++;
  }

  /** Are the page rules' counts behind the tallies? Answers once per change (the caller counts them). */
  countDue(): boolean {
    if (this.countedAt === this.tallyChanges) return false;
    this.countedAt = this.tallyChanges;
    return true;
  }

  /** It got an event: it is not idle. True when it was (every rule must then run again). */
  wake(): boolean {
    if (!this.idle) return false;
    this.flag(IDLE, false);
    return true;
  }

  /** No event for its idle time: rules that wait for the page to end (no-impression) decide now. */
  goIdle(): void {
    this.flag(IDLE, true);
  }

  /** It goes idle after `at` (sandbox time) unless an event comes first. */
  idleAfter(at: number): void {
    this.idleAt = at;
  }

  /** Offline input ended: the page has ended, and says so if it was still waiting for impressions. */
  finish(): void {
    if (!this.idle && this.awaitingImpression > 0) this.flag(JUDGED_AS_FINISHED, true);
    this.flag(IDLE, true);
  }

  /** Judged for a moment as if it has ended (a report, a rule filter), then as it is again. */
  asIfFinished(on: boolean): void {
    this.flag(IDLE, on);
    this.flag(JUDGED_AS_FINISHED, on);
  }

  /** Its visit rules run when it is next judged (another page of its visit changed what they read). */
  touchVisit(): void {
    this.flag(VISIT_DIRTY, true);
  }

  /** Every rule of every response runs when it is next judged, and its visit's. */
  touchAll(): void {
    this.flag(VISIT_DIRTY, true);
    for (const r of this.responses.values()) r.touch();
  }

  /** Some response's rules must run before its findings are read. */
  someDirty(): boolean {
    for (const r of this.responses.values()) if (r.dirty) return true;
    return false;
  }

  /** The response `ev` belongs to, opened with `ev` when it is the first of its response on the page. */
  responseOf(ev: TimelineEvent): Response {
    let r = this.responses.find(ev.kind, ev.tag, ev.responseId);
    if (!r) {
      r = new Response(
        ev.responseId,
        ev.kind,
        ev.tag,
        ev.arrival,
        ev.pageUrl,
        ev.sessionId,
        this.siblingLogs?.[ev.kind] ?? UNHEARD_LOG,
      );
      this.responses.add(r);
    }
    return r;
  }

  /**
   * `ev` joins its response (`responseOf`), and the page counts what it changed. True when every rule of
   * the page must run again: it is the page's first rendered response of its kind (missing-render's
   * severity elsewhere changes), or the page was idle.
   */
  addToResponse(r: Response, ev: TimelineEvent): boolean {
    let all = false;
    if (r.add(ev)) all = this.rendered(r.kind);
    if (ev.accepted && ev.kind === 'autocomplete' && ev.event === 'render')
      this.autocompleteRendered(ev);
    this.awaitingImpression += r.updateAwaiting();
    // a category page's redirect goes to search/redirect: its category response checks events against it
    if (ev.kind === 'search' && ev.event === 'redirect')
      this.responses.find('category', '', ev.responseId)?.touch();
    return this.wake() || all;
  }

  /** The responses of `r`'s kind hear `event` too (the rules that read a page's other responses). */
  siblingsHear(r: Response, event: string): void {
    if (this.responses.size > 1) this.heardLog(r.kind).hear(event);
  }

  /**
   * What the page's responses of `kind` heard of each other, made the first time one hears: its
   * responses of that kind read it from then on (before, the shared log, which never hears anything).
   */
  private heardLog(kind: ResponseKind): SiblingLog {
    const logs = (this.siblingLogs ??= {});
    let log = logs[kind];
    if (log === undefined) {
      log = logs[kind] = new SiblingLog();
      for (const r of this.responses.values()) if (r.kind === kind) r.hearsFrom(log);
    }
    return log;
  }

  /** A product, cart, order or login event, kept in (time, seq) order. */
  addVisitEvent(v: VisitEvent): void {
    if (this.visitEvents === NO_ENTRIES) this.visitEvents = [];
    const list = this.visitEvents;
    let i = list.length;
    while (i > 0) {
      const p = list[i - 1]!.base;
      if (p.time < v.base.time || (p.time === v.base.time && p.seq < v.base.seq)) break;
      i--;
    }
    list.splice(i, 0, v);
    this.wake();
  }

  /** A refused request was counted (tallies): it belongs to no response. */
  addRefused(): void {
    this.wake();
  }

  /** The rules of a response left these findings (`watches`: some depend on a later event arriving). */
  setResponseFindings(r: Response, findings: Finding[], watches: boolean): void {
    this.count(r.findings, -1);
    r.findings = findings;
    this.count(findings, +1);
    if (watches !== r.watchesLatest) this.latestWatchers += watches ? 1 : -1;
    r.watchesLatest = watches;
  }

  setVisitFindings(findings: Finding[]): void {
    this.count(this.visitFindings, -1);
    this.visitFindings = findings;
    this.count(findings, +1);
    this.flag(VISIT_DIRTY, false);
  }

  /** A page rule's count of findings now, at its severity (`own`: the rule's own, when the config set another). */
  setPageRuleCount(
    rule: string,
    now: number,
    severity: Finding['severity'],
    own: Finding['severity'] = severity,
  ): void {
    if (now > 0 && severity !== own) (this.pageRuleLevels ??= {})[rule] = severity;
    else if (this.pageRuleLevels?.[rule] !== undefined) delete this.pageRuleLevels[rule];
    const before = this.pageRuleCounts?.[rule] ?? 0;
    if (now === before) return;
    this.bump(severity, now - before);
    (this.pageRuleCounts ??= {})[rule] = now;
  }

  /** The page rules' findings as an exact judging built them (their severities are counted already). */
  setPageFindings(findings: Finding[]): void {
    this.pageFindings = findings;
  }

  /**
   * Its events go (the store keeps them; `takeBack` or a read brings them back), with what the free-text
   * and event filters read of them kept in their place.
   */
  letEventsGo(): void {
    this.keepLetGoSummary();
    this.dropEvents();
    this.flag(EVENTS_LET_GO, true);
    this.trimTallies();
  }

  /**
   * A quiet page is kept for hours: the ids its tallies grew by push (which keeps room for 17 and grows by
   * half) are kept at their length. A later event grows them again.
   */
  private trimTallies(): void {
    const t = this.tallies;
    trimmed(t.notDev);
    trimmed(t.badTimestamp);
    trimmed(t.farTimestamp);
    if (t.otherSessionIds) for (const c of t.otherSessionIds.values()) trimmed(c);
    if (t.otherUserIds) for (const c of t.otherUserIds.values()) trimmed(c);
  }

  /** The store cannot give its events back as they were applied: the page keeps them for good. */
  keepEvents(): void {
    this.flag(HOLDS_EVENTS, true);
  }

  /** Its events are back for good (a late event came): what it kept of them goes. */
  tookBack(): void {
    this.flag(EVENTS_LET_GO, false);
    this.letGoItemIds = null;
    this.letGoEvents = 0;
  }

  /** Before its events are read back from the store: every list is empty, ready for `putBack`. */
  emptyEvents(): void {
    for (const r of this.responses.values()) r.letEventsGo([]);
    this.autocompleteRenders = [];
  }

  /** One of its events read back from the store (counted when it first came). */
  putBack(ev: TimelineEvent): void {
    const r = this.responses.find(ev.kind, ev.tag, ev.responseId);
    if (!r) return;
    r.putBack(ev);
    if (ev.accepted && ev.event === 'render' && ev.kind === 'autocomplete')
      insertSorted(this.autocompleteRenders, ev);
  }

  /** A read of its let-go events is over: they go again (shared frozen lists). */
  dropEvents(): void {
    for (const r of this.responses.values()) r.letEventsGo(LET_GO);
    this.autocompleteRenders = LET_GO;
  }

  /** Free text over the page's URL, ids, responseIds and rule ids (rules must have run). */
  matches(q: string): boolean {
    const has = (s: string | undefined) => holds(s, q);
    if (has(this.pageUrl) || has(this.pageLoadId) || has(this.sessionId) || has(this.userId))
      return true;
    for (const r of this.responses.values()) {
      if (has(r.responseId)) return true;
      for (const f of r.findings) if (f.rule.includes(q)) return true;
    }
    // the items its events reported: a uid (or parent id) typed into the search finds the page
    if (this.itemsMatch(q)) return true;
    return (
      this.pageFindings.some((f) => f.rule.includes(q)) ||
      this.visitFindings.some((f) => f.rule.includes(q)) ||
      this.visitEvents.some(
        (v) => has(v.orderId ?? undefined) || v.items.some((i) => has(i.uid) || has(i.parentId)),
      )
    );
  }

  /** Does the page hold an event of this type (render, impression, pageview, transaction, …)? */
  hasEvent(event: string): boolean {
    if (this.letGoItemIds !== null) {
      const bit = RESPONSE_EVENTS.indexOf(event);
      if (bit >= 0 && (this.letGoEvents & (1 << bit)) !== 0) return true;
    } else
      for (const r of this.responses.values())
        if (r.events.some((e) => e.event === event)) return true;
    return this.visitEvents.some((v) => v.endpoint.endsWith(`/${event}`));
  }

  /**
   * What it showed the shopper, for the visit rules of a page after it (`ShownOnPage`; undefined when it
   * showed nothing they read). Read from its events, so only while it holds them.
   */
  shown(): ShownOnPage | undefined {
    return shownOnPage(this.responses.values(), this.visitEvents, this.pageUrl);
  }

  /** Does it hold a response of this kind? */
  hasKind(kind: ResponseKind): boolean {
    if (this.renderedOf(kind) !== undefined) return true;
    for (const r of this.responses.values()) if (r.kind === kind) return true;
    return false;
  }

  private tally(ev: TimelineEvent, skewLimitMs: number): void {
    const t = this.tallies;
    if (!ev.accepted) {
      this.rejected++;
      if (ev.refusal) {
        const sig = `${ev.status}\u0000${ev.refusal.path}\u0000${ev.refusal.contentType}\u0000${ev.errors.join('\u0000')}`;
        const refused = (t.refused ??= new Map());
        let group = refused.get(sig);
        if (!group)
          refused.set(
            sig,
            (group = {
              status: ev.status,
              path: ev.refusal.path,
              endpoint: `${ev.kind}/${ev.event}`,
              contentType: ev.refusal.contentType,
              messages: ev.errors,
              ids: capped(),
            }),
          );
        addCapped(group.ids, ev.id);
        return;
      }
      const endpoint = `${ev.kind}/${ev.event}`;
      const sig = `${endpoint}\u0000${ev.errors.join('\u0000')}`;
      const schema = (t.schema ??= new Map());
      let group = schema.get(sig);
      if (!group)
        schema.set(
          sig,
          (group = {
            event: ev.event,
            endpoint,
            messages: ev.errors,
            context: false,
            ids: capped(),
          }),
        );
      if (ev.contextRejected) group.context = true;
      if (ev.arrayBody !== undefined) group.array = Math.max(group.array ?? 0, ev.arrayBody);
      addCapped(group.ids, ev.id);
      return;
    }
    this.accepted++;
    // the page's own ids are its first accepted event's: only the others are kept
    if (ev.sessionId !== this.sessionId)
      bump((t.otherSessionIds ??= new Map()), ev.sessionId, ev.id);
    if (ev.userId !== this.userId) bump((t.otherUserIds ??= new Map()), ev.userId, ev.id);
    if (!ev.dev) t.notDev = withCapped(t.notDev, ev.id);
    if (ev.timestamp !== null && ev.tsMs === null)
      t.badTimestamp = withCapped(t.badTimestamp, ev.id);
    if (ev.tsMs !== null && ev.receivedMs !== null) {
      // from the recorded event alone (its clock offset included): live, replayed and in `check` the same
      const skew = timestampSkewMs(ev.receivedMs, ev.tsMs, ev.clockOffsetMs);
      if (skew > skewLimitMs) {
        t.farTimestamp = withCapped(t.farTimestamp, ev.id);
        t.maxSkewMs = Math.max(t.maxSkewMs, skew);
        if (ev.clockOffsetMs !== undefined) t.farWithClockMoved = true;
      }
    }
  }

  /** Its rendered responses of `kind` (undefined: none). */
  private renderedOf(kind: ResponseKind): number | undefined {
    if (this.renderedByKind !== null) return this.renderedByKind[kind];
    return this.renderedKind === kind ? this.renderedResponses : undefined;
  }

  /** One more rendered response of `kind`; true when it is the page's first of that kind. */
  private rendered(kind: ResponseKind): boolean {
    this.renderedResponses++;
    let byKind = this.renderedByKind;
    if (byKind === null) {
      const only = this.renderedKind;
      if (only === null) {
        this.renderedKind = kind;
        return true;
      }
      if (only === kind) return false;
      byKind = this.renderedByKind = { [only]: this.renderedResponses - 1 };
    }
    const n = (byKind[kind] ?? 0) + 1;
    byKind[kind] = n;
    return n === 1;
  }

  /**
   * duplicate-render of autocomplete asks which render came before each one on the page: a render landing
   * between two others changes the answer for the next one only, so only that response runs again.
   */
  private autocompleteRendered(ev: TimelineEvent): void {
    if (this.autocompleteRenders === NO_ENTRIES) this.autocompleteRenders = [];
    const list = this.autocompleteRenders;
    const i = insertSorted(list, ev);
    const next = list[i + 1];
    if (next) this.responses.find(next.kind, next.tag, next.responseId)?.touch();
  }

  /** A response of that kind with at least one accepted event on the page. */
  private hasAcceptedOf(kind: string): boolean {
    for (const r of this.responses.values()) if (r.kind === kind && r.factEvents > 0) return true;
    return false;
  }

  private count(findings: readonly Finding[], sign: 1 | -1): void {
    for (const f of findings) this.bump(f.severity, sign);
  }

  private bump(severity: Finding['severity'], by: number): void {
    if (severity === 'error') this.errors += by;
    else if (severity === 'warning') this.warnings += by;
    else this.infos += by;
  }

  private itemsMatch(q: string): boolean {
    // the ids are framed by a character none of them holds (else there is no summary), so a q holding it
    // matches none, and any other q matches the text only within one id
    const ids = this.letGoItemIds;
    if (ids !== null) return !q.includes(FRAME) && ids.includes(q);
    for (const r of this.responses.values())
      for (const ev of r.events) {
        for (const item of ev.results)
          if (holds(item.uid, q) || holds(item.parentId, q)) return true;
        for (const item of ev.banners) if (holds(item.uid, q)) return true;
      }
    return false;
  }

  /**
   * What `matches` and `hasEvent` read of the page's response events, kept on it when it lets them go:
   * without it, `?q=` or `?event=` over a million stored events read every page's events back from the
   * store (~20 s). Kept only when every id is free of the frame character and every event type has its
   * bit; else none, and the filters read that page's events back.
   */
  private keepLetGoSummary(): void {
    this.letGoItemIds = null;
    this.letGoEvents = 0;
    const ids = new Set<string>();
    let events = 0;
    const add = (s: string | undefined) => {
      if (typeof s === 'string' && s !== '') ids.add(s.toLowerCase());
    };
    for (const r of this.responses.values())
      for (const ev of r.events) {
        const bit = RESPONSE_EVENTS.indexOf(ev.event);
        if (bit < 0) return;
        events |= 1 << bit;
        for (const item of ev.results) {
          add(item.uid);
          add(item.parentId);
        }
        for (const item of ev.banners) add(item.uid);
      }
    // one join: a flat string (a template literal around it made a rope the first search flattened again)
    const framed = ['', ...ids, ''];
    if (framed.some((id) => id.includes(FRAME))) return;
    this.letGoItemIds = framed.join(FRAME);
    this.letGoEvents = events;
  }
}

const FRAME = '\u0000';

/** the bits of `Page.flags` */
const EVENTS_LET_GO = 1;
const HOLDS_EVENTS = 2;
const VISIT_DIRTY = 4;
const IDLE = 8;
const JUDGED_AS_FINISHED = 16;

/** The types of response events (every kind's, KIND_EVENTS): a bit each in `letGoEvents`. */
const RESPONSE_EVENTS = [...new Set(Object.values(KIND_EVENTS).flat())];

/** The lists of a page that let its events go: frozen, so a write that forgot to read them back throws. */
const LET_GO = Object.freeze([]) as unknown as TimelineEvent[];

/** Does `s` hold the lowercased text `q`, whatever its case? */
function holds(s: string | undefined, q: string): boolean {
  return typeof s === 'string' && s.toLowerCase().includes(q);
}

function bump(map: Map<string, Capped>, value: string, id: string): void {
  let c = map.get(value);
  if (!c) map.set(value, (c = capped()));
  addCapped(c, id);
}

/** `c`'s ids copied to a list of their exact length (the shared empty tally is left as it is). */
function trimmed(c: Capped): void {
  if (c.ids.length > 0) c.ids = c.ids.slice();
}

/** The page kind a visit endpoint makes its page at least (order, product, cart); none for a login. */
export function visitEndpointKind(endpoint: string): VisitPageKind | undefined {
  if (endpoint === 'order/transaction') return 'order';
  if (endpoint === 'product/pageview') return 'product';
  return endpoint.startsWith('cart/') ? 'cart' : undefined;
}
