// Tracked events as the timeline rules read them, read out of recorded requests, and the small records
// a page keeps of them (capped id lists, tallies); the page and its responses are page.ts and response.ts.
import { str } from '../values';
import { isObject } from '../../../shared/values';
import { isRefusal, type RecordedEvent } from '../../../shared/events';
import { isTimelineEndpoint, isWidgetKind, type ResponseKind } from '../../../shared/kinds';
import type { Severity } from '../../../shared/timeline';
import type { RequestFields } from '../../store/types';
import { isVisitEndpoint } from '../visits/events';
import { topLevelMember } from '../json-text';
import { ID_CAP } from '../finding';
import { isoUtcMs, parseRfc3339 } from '../../../shared/rfc3339';

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
  /** the sandbox clock's offset from real time at receipt (RecordedEvent.clockOffsetMs); absent when 0 */
  clockOffsetMs?: number;
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
  /** of a rejected event: one of its validation errors is in its `context` (the rest are in its data) */
  contextRejected?: true;
  /** of a rejected event whose body was a JSON array (payloads batched by hand): how many it held */
  arrayBody?: number;
  /**
   * of an accepted addtocart: each of its `results`' price as sent, in their order (0 where none is a
   * number). Only quick adds keep one: the rest of the items' fields are not kept (keptItem)
   */
  prices?: readonly number[];
}

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
 * The one empty tally of ids a page starts with (events not in development mode, bad or far timestamps),
 * frozen: `withCapped` makes the page one of its own at its first id. Three of their own for every page, most
 * never filled, were three objects more for every page a scavenge copies.
 */
export const NO_IDS: Capped = Object.freeze({ count: 0, ids: NO_ENTRIES });

/** `c` with `id` counted: `c` itself, or a tally of its own when `c` is the shared empty one. */
export function withCapped(c: Capped, id: string): Capped {
  const own = c === NO_IDS ? capped() : c;
  addCapped(own, id);
  return own;
}

/**
 * Findings as a page or a response keeps them: none, the shared empty list; some, a list of their exact
 * length (a list grown by push keeps room for 17).
 */
export function keptFindings<T>(list: T[]): T[] {
  return list.length === 0 ? NO_ENTRIES : list.slice();
}

/** Requests refused before validation (404, 405, 413, 415), grouped by status and what was wrong. */
export interface RefusedGroup {
  status: number;
  /** the path as sent */
  path: string;
  /** the `category/event` its path names (of a path that is no endpoint: the parts it had, or `/`) */
  endpoint: string;
  contentType: string;
  messages: string[];
  ids: Capped;
}

export interface SchemaGroup {
  /** the timeline's name of the event (`clickthrough`, `add`) */
  event: string;
  /** the endpoint it was sent to (`search/clickthrough`, `cart/add`) */
  endpoint: string;
  messages: string[];
  /** an event of it was rejected over its context (`TimelineEvent.contextRejected`) */
  context: boolean;
  /** an event of it was a JSON array of payloads (`TimelineEvent.arrayBody`): the most one held */
  array?: number;
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
  /** one of farTimestamp arrived after the sandbox clock was moved: far from real time as well */
  farWithClockMoved: boolean;
  /** forwarded events whose verdict the real service did not share (`upstream-disagrees`); lazily made */
  upstream?: UpstreamTally;
  /** what page rules keep of their own, each in the slot its module asked for (rules/utils/tally-slot.ts) */
  rules?: unknown[];
}

/**
 * An accepted event of the page, by id, with what a page-scope rule quotes of it. A tally keeps the first
 * such event only: it runs again for a request whose late answer arrived, and must count it once.
 */
export interface TallyMark {
  id: string;
  time: number;
  /** context.pageUrl, or the product a pageview named */
  value: string;
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

/**
 * siteId and pageLoadId framed by U+0000, as one flat string: a template literal made a rope, which a page
 * kept beside the flat copy its first lookup made of it.
 */
export function pageKey(siteId: string, pageLoadId: string): string {
  return [siteId, pageLoadId].join('\u0000');
}

export { parseRfc3339 } from '../../../shared/rfc3339';

/** Items read from a rejected body: the first this many. */
const MAX_REJECTED_ITEMS = 1_000;
const NONE: never[] = [];

/**
 * The items of an accepted body are used as they are (validated: objects with a string uid), so the engine
 * holds no copy of them; a rejected body's are read defensively.
 */
function items(list: unknown, valid: boolean): readonly Item[] {
  if (!Array.isArray(list) || list.length === 0) return NONE;
  if (valid) return list.map(keptItem);
  const out: Item[] = [];
  for (const v of list) {
    if (out.length >= MAX_REJECTED_ITEMS) break;
    if (isObject(v)) out.push({ uid: str(v.uid), parentId: str(v.parentId) });
  }
  return out;
}

/**
 * An accepted item as a page keeps it: what the rules read of it (uid, parentId, and through `itemType`
 * and `itemSku` its type and sku), each as sent. One shape for every item, and none of the rest of the
 * body's entry (prices, quantities, extra fields): a page holds its items until it is judged, and every
 * collection meanwhile copies what it holds.
 */
function keptItem(v: unknown): Item {
  // an export's own `accepted` is taken as recorded: an entry that is no object reads as one without fields
  const o = isObject(v) ? v : NO_FIELDS;
  return { uid: o.uid, parentId: o.parentId, type: o.type, sku: o.sku } as Item;
}

const NO_FIELDS: Record<string, unknown> = Object.freeze({});

/**
 * What the engine makes of a request on its page: a visit event, an event of one of its responses, a
 * refused request (404, 405, 413, 415: counted on its page even when its path names no endpoint), or
 * nothing. Every one of the three counts among the page's arrivals.
 */
export function foldAs(rec: RequestFields): 'visit' | 'response' | 'refused' | null {
  if (isVisitEndpoint(rec.category, rec.event)) return 'visit';
  if (isTimelineEndpoint(rec.category, rec.event)) return 'response';
  return isRefusal(rec) ? 'refused' : null;
}

/** The key of a response on its page. */
export function responseKey(kind: string, tag: string, responseId: string): string {
  return `${kind}\u0000${tag}\u0000${responseId}`;
}

/** Read the fields the rules need; tolerant of anything a rejected body may hold. `arrival` is set by the engine. */
export function readEvent(rec: RecordedEvent): TimelineEvent {
  const body = isObject(rec.body) ? rec.body : {};
  // a body kept as text (too deep, or rejected and bulky) is placed on its page by its context alone
  const textCtx = typeof rec.body === 'string' ? topLevelMember(rec.body, 'context') : undefined;
  // a JSON array of payloads (batched by hand, which the service refuses) is placed by its first one's
  const list = Array.isArray(rec.body) ? (rec.body as unknown[]) : undefined;
  const listCtx = list && isObject(list[0]) ? list[0].context : undefined;
  const ctx = isObject(body.context)
    ? body.context
    : isObject(textCtx)
      ? textCtx
      : isObject(listCtx)
        ? listCtx
        : {};
  const data = isObject(body.data) ? body.data : {};
  const timestamp = typeof ctx.timestamp === 'string' ? ctx.timestamp : null;
  const tsMs = parseRfc3339(timestamp);
  const received = receivedMs(rec.receivedAt);
  const results = items(data.results, rec.accepted);
  const banners = items(data.banners, rec.accepted);
  const ev: TimelineEvent = {
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
    sessionId: str(ctx.sessionId),
    userId: str(ctx.userId),
    pageLoadId: str(ctx.pageLoadId),
    pageUrl: str(ctx.pageUrl),
    dev: ctx.dev === true,
    errors: rec.accepted ? NONE : rec.errors.map((e) => e.message),
  };
  // set after, not spread into the literal: an object literal with a spread is built by a slower path
  if (typeof data.redirect === 'string') ev.redirect = data.redirect;
  if (rec.accepted && rec.event === 'addtocart' && results.length > 0)
    ev.prices = (data.results as unknown[]).map((v) => {
      const price = isObject(v) ? v.price : undefined;
      return typeof price === 'number' ? price : 0;
    });
  if (received !== null && typeof rec.clockOffsetMs === 'number' && rec.clockOffsetMs !== 0)
    ev.clockOffsetMs = rec.clockOffsetMs;
  if (list && !rec.accepted) ev.arrayBody = list.length;
  if (isRefusal(rec)) ev.refusal = { path: rec.path, contentType: rec.contentType ?? '' };
  else if (!rec.accepted && rec.errors.some((e) => CONTEXT_PATH.test(e.path)))
    ev.contextRejected = true;
  return ev;
}

/** a validation error's path within an event's `context` (`context`, `context.userId`) */
const CONTEXT_PATH = /^context(\.|\[|$)/;

/** A receive time (ISO 8601) in ms; null when there is none or it does not parse. */
function receivedMs(receivedAt: string | null | undefined): number | null {
  if (!receivedAt) return null;
  const ms = isoUtcMs(receivedAt) ?? Date.parse(receivedAt);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * The time an event is ordered by (`TimelineEvent.time`) from its `context.timestamp` and receive time as
 * a page's DTO gives them: what `check`'s readers of a page see as the engine saw it.
 */
export function eventTime(timestamp: string | null, receivedAt: string | null): number {
  return parseRfc3339(timestamp) ?? receivedMs(receivedAt) ?? 0;
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
