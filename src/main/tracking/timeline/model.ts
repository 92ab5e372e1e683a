// The timeline engine's in-memory state: tracked events read out of recorded requests, grouped into
// pages (siteId + pageLoadId) and responses (kind + responseId + tag), each kept in timestamp order.
import { str } from '../values';
import { isObject } from '../../../shared/values';
import type { RecordedEvent } from '../../../shared/events';
import { isTimelineEndpoint, isWidgetKind, type ResponseKind } from '../../../shared/kinds';
import type {
  Severity,
  TimelineFindingDto,
  TimelineRuleId,
  Verdict,
} from '../../../shared/timeline';
import type { VisitEvent } from '../visits/events';
import type { InteractionSource } from '../visits/credit';
import { topLevelMember } from '../json-text';
import { ID_CAP } from '../finding';
import { ALL_HEARD, eventBit } from './heard';

/** An item of data.results / data.banners; parentId is absent on banners and inline banners. */
export interface Item {
  readonly uid: string;
  readonly parentId?: string;
}

/** One tracked event as the rules see it. */
export interface TimelineEvent {
  id: string;
  seq: number;
  /** arrival order on its page, 1-based */
  arrival: number;
  event: string;
  kind: ResponseKind;
  /** `data.tag` of recommendations and bundles events, '' for other kinds */
  tag: string;
  accepted: boolean;
  status: number;
  receivedAt: string | null;
  receivedMs: number | null;
  timestamp: string | null;
  /** `context.timestamp` in ms when it parses as RFC 3339, else null */
  tsMs: number | null;
  /** the time the event is ordered by: its timestamp, else its receive time */
  time: number;
  arrivedLate: boolean;
  responseId: string;
  results: readonly Item[];
  banners: readonly Item[];
  redirect?: string;
  sessionId: string;
  userId: string;
  pageLoadId: string;
  pageUrl: string;
  dev: boolean;
  errors: string[];
  /** of a refused request (404, 405, 413, 415): the path and Content-Type as sent */
  refusal?: { path: string; contentType: string };
}

/** A finding as rules produce it (the DTO shape). */
export type FindingDraft = TimelineFindingDto;

/** Up to ID_CAP ids plus the full count: findings stay small however noisy a page gets. */
export interface Capped {
  count: number;
  ids: string[];
}

export function capped(): Capped {
  return { count: 0, ids: NO_ENTRIES };
}

export function addCapped(c: Capped, id: string): void {
  c.count++;
  if (c.ids.length >= ID_CAP) return;
  if (c.ids === NO_ENTRIES) c.ids = [id];
  else c.ids.push(id);
}

/**
 * The empty list a page or a response starts with (its findings, capped ids, visit events, autocomplete
 * renders), one for all, frozen: a list is made when its first entry comes (a push that forgot to make it
 * throws). A list of their own, most never filled, cost ~30 MB at a million stored events' 100,000 pages.
 */
export const NO_ENTRIES = Object.freeze([]) as unknown as never[];

/**
 * Findings as a page or a response keeps them: none, the shared empty list; some, a list of their exact
 * length (a list grown by push keeps room for 17).
 */
export function keptFindings<T>(list: T[]): T[] {
  return list.length === 0 ? NO_ENTRIES : list.slice();
}

/**
 * A response's accepted events by kind, in its events' order: built in one pass over them when its rules
 * (or another response's) first read it, and dropped once the page is judged (`ResponseState.facts`).
 */
export interface ResponseFacts {
  renders: TimelineEvent[];
  redirects: TimelineEvent[];
  impressions: TimelineEvent[];
  clicks: TimelineEvent[];
  carts: TimelineEvent[];
  /** a render of this responseId that the service rejected */
  rejectedRender: boolean;
}

export class ResponseState {
  /** sorted by (time, seq) */
  events: TimelineEvent[] = [];
  findings: FindingDraft[] = NO_ENTRIES;
  /**
   * Each rule's findings as its check returned them when it last ran (before levels and the superseding
   * rule): a rule that listens to none of the events heard since keeps them and does not run again.
   */
  raw: FindingDraft[] = NO_ENTRIES;
  /** events.length when the rules last ran (-1: never) */
  evaluatedSize = -1;
  dirty = true;
  /** the events heard since its rules last ran, as `eventBit`s; ALL_HEARD: every rule runs */
  heard = ALL_HEARD;
  /** accepted render, no accepted impression, no redirect: a `no-impression` candidate */
  awaitingImpression = false;
  /** a finding of this response depends on whether a later event arrives on the page (click-not-impressed) */
  watchesLatest = false;
  /** its first accepted event was offered to the engine's responseId origins */
  originNoted = false;
  /** where its clicks and quick adds were made, shared by each the visit book keeps (null before one) */
  clickSource: InteractionSource | null = null;
  /** accepted renders, impressions and redirects, and accepted events of the five kinds the facts hold */
  renders = 0;
  impressions = 0;
  /** the types of its accepted events, as `eventBit`s (readiness: which endpoints the page sent) */
  sent = 0;
  redirects = 0;
  factEvents = 0;
  /**
   * The facts as last built, until the events change or the page is judged (kept for the life of every
   * page, the five arrays, each grown with room to spare, cost ~1.5 KB a page: more than its events).
   */
  private built: ResponseFacts | null = null;

  constructor(
    /** kind + tag + responseId: a page's responses are told apart by all three */
    readonly key: string,
    readonly responseId: string,
    readonly kind: ResponseKind,
    readonly tag: string,
    /** page arrival index of its first event (responses are listed in that order) */
    readonly firstArrival: number,
    readonly pageUrl: string,
    readonly sessionId: string,
  ) {}

  /** it has an accepted render */
  get rendered(): boolean {
    return this.renders > 0;
  }

  /** Its accepted events by kind (built on first read since its events changed). */
  get facts(): ResponseFacts {
    return (this.built ??= buildFacts(this.events));
  }

  /** Its events changed, or its page was judged: the facts are built again when next read. */
  dropFacts(): void {
    this.built = null;
  }

  /** An event of it arrived: the rules that listen to that event run when it is next judged. */
  hear(event: string): void {
    this.dirty = true;
    this.heard |= eventBit(event);
  }

  /** Something beyond its own events changed (the page ended, a catalog, a later event): every rule runs. */
  touch(): void {
    this.dirty = true;
    this.heard = ALL_HEARD;
  }
}

function buildFacts(events: readonly TimelineEvent[]): ResponseFacts {
  const f = emptyFacts();
  for (const ev of events) {
    if (!ev.accepted) {
      if (ev.event === 'render') f.rejectedRender = true;
    } else if (ev.event === 'render') f.renders.push(ev);
    else if (ev.event === 'impression') f.impressions.push(ev);
    else if (ev.event === 'clickthrough') f.clicks.push(ev);
    else if (ev.event === 'addtocart') f.carts.push(ev);
    else if (ev.event === 'redirect') f.redirects.push(ev);
  }
  return f;
}

/** Requests refused before validation (404, 405, 413, 415), grouped by status and what was wrong. */
export interface RefusedGroup {
  status: number;
  /** the path as sent */
  path: string;
  contentType: string;
  messages: string[];
  ids: Capped;
}

export interface SchemaGroup {
  event: string;
  messages: string[];
  ids: Capped;
}

/** Per-page tallies the page-scope rules read (so no rule scans the page's events). */
export interface PageTallies {
  /** rejected events grouped by event and messages (null until one: most pages have none) */
  schema: Map<string, SchemaGroup> | null;
  /** refused requests (`request-refused`): not validated at all (null until one) */
  refused: Map<string, RefusedGroup> | null;
  /** sessionIds / userIds other than the page's own (its first accepted event's), with their events */
  otherSessionIds: Map<string, Capped> | null;
  otherUserIds: Map<string, Capped> | null;
  notDev: Capped;
  badTimestamp: Capped;
  farTimestamp: Capped;
  maxSkewMs: number;
  /** forwarded events whose verdict the real service did not share (`upstream-disagrees`); lazily made */
  upstream?: UpstreamTally;
}

/** Disagreeing forwarded events grouped by endpoint and both answers (one finding per group). */
export interface UpstreamGroup {
  /** `search/impression` */
  endpoint: string;
  ours: { status: number; messages: string[] };
  theirs: { status: number; body: unknown; url: string };
  /** the first event's request body, for the bug report */
  body: unknown;
  ids: Capped;
}

export interface UpstreamTally {
  /** event ids already compared (an answer is counted once, however often it is read back) */
  seen: Set<string>;
  groups: Map<string, UpstreamGroup>;
}

export interface PageState {
  /** the live engine's page index (page-index.ts): the page's verdict and rules there, and stale */
  indexed?: { verdict: Verdict | null; stale: boolean; rules: readonly TimelineRuleId[] };
  /** the page's place in the engine's page order (its creation): the order of lists read from indexes */
  order: number;
  key: string;
  siteId: string;
  pageLoadId: string;
  sessionId: string;
  userId: string;
  pageUrl: string;
  firstSeenMs: number | null;
  lastSeenMs: number | null;
  responses: Map<string, ResponseState>;
  arrivals: number;
  accepted: number;
  rejected: number;
  /** latest timestamp seen on the page, to mark late arrivals */
  maxTime: number;
  renderedResponses: number;
  /**
   * rendered responses per kind (missing-render's severity depends on the page's other renders of its
   * kind); null until one. A plain object, not a Map: a Map of one entry costs ~190 bytes, and a page
   * holds only those it uses.
   */
  renderedByKind: Partial<Record<ResponseKind, number>> | null;
  /** the page's accepted autocomplete renders in (time, seq) order: a repeated search sends no render */
  autocompleteRenders: TimelineEvent[];
  /**
   * Its events were let go (a live engine given `pageRecords`, the page judged while idle): its responses'
   * event lists and `autocompleteRenders` are empty until the engine reads them back from the store.
   */
  released: boolean;
  /** the store cannot give its events back as they were applied (see `pageRecords`): they stay held */
  holdsEvents: boolean;
  /**
   * What the free-text filter reads of a page that let its events go (`released`), taken from those events
   * as they went (`keepLetGoSummary`): every item uid and parentId, lowercased, each framed by U+0000. Null
   * while it holds them, or when an id holds U+0000. Fields of the page, not an object of their own: a
   * million events' pages hold 100,000 of them (an object and an array each cost ~19 MB more).
   */
  letGoItemIds: string | null;
  /** with `letGoItemIds`: the types of its response events, a bit each (`RESPONSE_EVENTS`) */
  letGoEvents: number;
  awaitingImpression: number;
  /** responses with watchesLatest: a later-timestamped event must re-run their rules */
  latestWatchers: number;
  tallies: PageTallies;
  /** page-scope findings, built when the page is read (counted cheaply on every event) */
  pageFindings: FindingDraft[];
  /** product, cart, order and login events, in (time, seq) order */
  visitEvents: VisitEvent[];
  /** visit-rule findings (src/main/tracking/visits/rules/), and whether they must be built again */
  visitFindings: FindingDraft[];
  visitDirty: boolean;
  /**
   * rule id → number of page-scope findings it has now (null until a page rule finds something); a plain
   * object, as `renderedByKind`
   */
  pageRuleCounts: Record<string, number> | null;
  /** bumped whenever the tallies change; the value the page-scope counts were last taken at */
  tallyChanges: number;
  countedAt: number;
  errors: number;
  warnings: number;
  infos: number;
  idle: boolean;
  /** judged as if it has ended while it was still waiting for impressions (reports, check) */
  judgedAsFinished?: boolean;
  /** sandbox time at which the page counts as idle */
  idleAt: number;
  /** the engine's count of applied events when this page last got one (offline release) */
  lastApplied: number;
}

export function pageKey(siteId: string, pageLoadId: string): string {
  return `${siteId}\u0000${pageLoadId}`;
}

// RFC 3339 date-time: a T (or space) separator and an explicit offset are required.
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

export function parseRfc3339(ts: string | null): number | null {
  if (ts === null || !RFC3339.test(ts)) return null;
  const ms = Date.parse(ts);
  return Number.isFinite(ms) ? ms : null;
}

/** Items read from a rejected body: the first this many. */
const MAX_REJECTED_ITEMS = 1_000;
const NONE: never[] = [];

/**
 * The items of an accepted body are used as they are (validated: objects with a string uid), so the engine
 * holds no copy of them; a rejected body's are read defensively.
 */
function items(list: unknown, valid: boolean): readonly Item[] {
  if (!Array.isArray(list) || list.length === 0) return NONE;
  if (valid) return list as Item[];
  const out: Item[] = [];
  for (const v of list) {
    if (out.length >= MAX_REJECTED_ITEMS) break;
    if (isObject(v)) out.push({ uid: str(v.uid), parentId: str(v.parentId) });
  }
  return out;
}

/** Is this recorded request one the timelines check (search, category, autocomplete, recommendations, bundles)? */
export function isTimelineEvent(rec: RecordedEvent): boolean {
  return isTimelineEndpoint(rec.category, rec.event);
}

/** Refused before validation: the status says what was wrong with the request itself, not its body. */
export const REFUSAL_STATUSES: ReadonlySet<number> = new Set([404, 405, 413, 415]);

export function isRefusal(rec: Pick<RecordedEvent, 'accepted' | 'status'>): boolean {
  return !rec.accepted && REFUSAL_STATUSES.has(rec.status);
}

/** The key of a response on its page. */
export function responseKey(kind: string, tag: string, responseId: string): string {
  return `${kind}\u0000${tag}\u0000${responseId}`;
}

export function emptyFacts(): ResponseFacts {
  return {
    renders: [],
    redirects: [],
    impressions: [],
    clicks: [],
    carts: [],
    rejectedRender: false,
  };
}

/** Read the fields the rules need; tolerant of anything a rejected body may hold. `arrival` is set by the engine. */
export function readEvent(rec: RecordedEvent): TimelineEvent {
  const body = isObject(rec.body) ? rec.body : {};
  // a body kept as text (too deep, or rejected and bulky) is placed on its page by its context alone
  const textCtx = typeof rec.body === 'string' ? topLevelMember(rec.body, 'context') : undefined;
  const ctx = isObject(body.context) ? body.context : isObject(textCtx) ? textCtx : {};
  const data = isObject(body.data) ? body.data : {};
  const timestamp = typeof ctx.timestamp === 'string' ? ctx.timestamp : null;
  const tsMs = parseRfc3339(timestamp);
  const receivedMs = rec.receivedAt ? Date.parse(rec.receivedAt) : NaN;
  const received = Number.isFinite(receivedMs) ? receivedMs : null;
  const results = items(data.results, rec.accepted);
  const banners = items(data.banners, rec.accepted);
  return {
    id: rec.id,
    seq: rec.seq,
    arrival: 0,
    arrivedLate: false,
    event: rec.event,
    kind: rec.category as ResponseKind,
    tag: isWidgetKind(rec.category) ? str(data.tag) : '',
    accepted: rec.accepted,
    status: rec.status,
    receivedAt: received === null ? null : rec.receivedAt,
    receivedMs: received,
    timestamp,
    tsMs,
    time: tsMs ?? received ?? 0,
    responseId: str(data.responseId),
    results,
    banners,
    ...(typeof data.redirect === 'string' && { redirect: data.redirect }),
    sessionId: str(ctx.sessionId),
    userId: str(ctx.userId),
    pageLoadId: str(ctx.pageLoadId),
    pageUrl: str(ctx.pageUrl),
    dev: ctx.dev === true,
    errors: rec.accepted ? NONE : rec.errors.map((e) => e.message),
    ...(isRefusal(rec) && { refusal: { path: rec.path, contentType: rec.contentType ?? '' } }),
  };
}

/** Order by timestamp, ties (and equal timestamps) by arrival. */
export function before(a: TimelineEvent, b: TimelineEvent): boolean {
  return a.time < b.time || (a.time === b.time && a.seq < b.seq);
}

/** Insert keeping (time, seq) order; O(1) for the usual in-order arrival. Returns the index. */
export function insertSorted(list: TimelineEvent[], ev: TimelineEvent): number {
  let i = list.length;
  while (i > 0 && before(ev, list[i - 1]!)) i--;
  list.splice(i, 0, ev);
  return i;
}

/** Index of `ev` in a (time, seq)-sorted list, by binary search; -1 when absent. */
export function indexSorted(list: readonly TimelineEvent[], ev: TimelineEvent): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(list[mid]!, ev)) lo = mid + 1;
    else hi = mid;
  }
  return list[lo] === ev ? lo : -1;
}

export function severityWeight(s: Severity): number {
  return s === 'error' ? 0 : s === 'warning' ? 1 : 2;
}
