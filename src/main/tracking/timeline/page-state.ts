// A page's state and how one event updates it (tallies, events by kind, responses), in O(1) per event;
// plus the free-text match of the page list. The engine decides when rules run.
import {
  addCapped,
  capped,
  insertSorted,
  NO_ENTRIES,
  responseKey,
  ResponseState,
  type Capped,
  type PageState,
  type TimelineEvent,
} from './model';
import { KIND_EVENTS } from '../../../shared/kinds';
import type { InteractionSource } from '../visits/credit';
import { eventBit } from './heard';

export function newPage(key: string, siteId: string, ev: TimelineEvent, order: number): PageState {
  return {
    order,
    key,
    siteId,
    pageLoadId: ev.pageLoadId,
    sessionId: ev.sessionId,
    userId: ev.userId,
    pageUrl: ev.pageUrl,
    firstSeenMs: null,
    lastSeenMs: null,
    responses: new Map(),
    arrivals: 0,
    accepted: 0,
    rejected: 0,
    maxTime: -Infinity,
    renderedResponses: 0,
    renderedByKind: null,
    autocompleteRenders: NO_ENTRIES,
    released: false,
    holdsEvents: false,
    letGoItemIds: null,
    letGoEvents: 0,
    awaitingImpression: 0,
    latestWatchers: 0,
    tallies: {
      schema: null,
      refused: null,
      otherSessionIds: null,
      otherUserIds: null,
      notDev: capped(),
      badTimestamp: capped(),
      farTimestamp: capped(),
      maxSkewMs: 0,
    },
    pageFindings: NO_ENTRIES,
    visitEvents: NO_ENTRIES,
    visitFindings: NO_ENTRIES,
    visitDirty: false,
    pageRuleCounts: null,
    tallyChanges: 0,
    countedAt: -1,
    errors: 0,
    warnings: 0,
    infos: 0,
    idle: false,
    idleAt: Infinity,
    lastApplied: 0,
  };
}

/** Up to this many responses on a page, an event's response is found by comparing, not by its key. */
const FEW_RESPONSES = 8;

export function responseFor(page: PageState, ev: TimelineEvent): ResponseState {
  // a page has a few responses: compared field by field, no key is built for every event
  if (page.responses.size <= FEW_RESPONSES)
    for (const held of page.responses.values())
      if (held.responseId === ev.responseId && held.kind === ev.kind && held.tag === ev.tag)
        return held;
  const key = responseKey(ev.kind, ev.tag, ev.responseId);
  let r = page.responses.get(key);
  if (!r) {
    r = new ResponseState(
      key,
      ev.responseId,
      ev.kind,
      ev.tag,
      ev.arrival,
      ev.pageUrl,
      ev.sessionId,
    );
    page.responses.set(key, r);
  }
  return r;
}

/** Count the event into the page's tallies; `realNow` is given for live events (see timestamp-skew). */
export function tally(
  page: PageState,
  ev: TimelineEvent,
  skewLimitMs: number,
  realNow?: () => number,
): void {
  const t = page.tallies;
  if (!ev.accepted) {
    page.rejected++;
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
            contentType: ev.refusal.contentType,
            messages: ev.errors,
            ids: capped(),
          }),
        );
      addCapped(group.ids, ev.id);
      return;
    }
    const sig = `${ev.event}\u0000${ev.errors.join('\u0000')}`;
    const schema = (t.schema ??= new Map());
    let group = schema.get(sig);
    if (!group) schema.set(sig, (group = { event: ev.event, messages: ev.errors, ids: capped() }));
    addCapped(group.ids, ev.id);
    return;
  }
  page.accepted++;
  // the page's own ids are its first accepted event's: only the others are kept
  if (ev.sessionId !== page.sessionId) bump((t.otherSessionIds ??= new Map()), ev.sessionId, ev.id);
  if (ev.userId !== page.userId) bump((t.otherUserIds ??= new Map()), ev.userId, ev.id);
  if (!ev.dev) addCapped(t.notDev, ev.id);
  if (ev.timestamp !== null && ev.tsMs === null) addCapped(t.badTimestamp, ev.id);
  if (ev.tsMs !== null && ev.receivedMs !== null) {
    let skew = Math.abs(ev.receivedMs - ev.tsMs);
    if (realNow) skew = Math.min(skew, Math.abs(realNow() - ev.tsMs));
    if (skew > skewLimitMs) {
      addCapped(t.farTimestamp, ev.id);
      t.maxSkewMs = Math.max(t.maxSkewMs, skew);
    }
  }
}

/**
 * The response got `ev` (already among its events): its facts are built again when next read; keep its
 * counts and the page's render bookkeeping. True when this is the page's first rendered response of its
 * kind (missing-render's severity elsewhere changes).
 */
export function addFact(page: PageState, r: ResponseState, ev: TimelineEvent): boolean {
  r.dropFacts();
  if (!ev.accepted) return false;
  const bit = eventBit(ev.event);
  if (bit > 0) r.sent |= bit;
  if (ev.event === 'render') {
    r.renders++;
    if (ev.kind === 'autocomplete') trackAutocompleteRender(page, ev);
  } else if (ev.event === 'impression') r.impressions++;
  else if (ev.event === 'redirect') r.redirects++;
  else if (ev.event !== 'clickthrough' && ev.event !== 'addtocart') return false;
  r.factEvents++;
  let firstRenderOfPage = false;
  // its first accepted render: the page has one more rendered response
  if (ev.event === 'render' && r.renders === 1) {
    page.renderedResponses++;
    const byKind = (page.renderedByKind ??= {});
    const n = (byKind[r.kind] ?? 0) + 1;
    byKind[r.kind] = n;
    firstRenderOfPage = n === 1;
  }
  const awaiting = r.rendered && r.impressions === 0 && r.redirects === 0;
  if (awaiting !== r.awaitingImpression) page.awaitingImpression += awaiting ? 1 : -1;
  r.awaitingImpression = awaiting;
  return firstRenderOfPage;
}

/**
 * duplicate-render of autocomplete asks which render came before each one on the page: a render landing
 * between two others changes the answer for the next one only, so only that response runs again.
 */
function trackAutocompleteRender(page: PageState, ev: TimelineEvent): void {
  if (page.autocompleteRenders === NO_ENTRIES) page.autocompleteRenders = [];
  const list = page.autocompleteRenders;
  const i = insertSorted(list, ev);
  const next = list[i + 1];
  if (next) {
    const r = page.responses.get(responseKey(next.kind, next.tag, next.responseId));
    if (r) r.touch();
  }
}

function bump(map: Map<string, Capped>, value: string, id: string): void {
  let c = map.get(value);
  if (!c) map.set(value, (c = capped()));
  addCapped(c, id);
}

/** Free text over the page's URL, ids, responseIds and rule ids (rules must have run). */
export function matches(page: PageState, q: string): boolean {
  const has = (s: string | undefined) => holds(s, q);
  if (has(page.pageUrl) || has(page.pageLoadId) || has(page.sessionId) || has(page.userId))
    return true;
  for (const r of page.responses.values()) {
    if (has(r.responseId)) return true;
    for (const f of r.findings) if (f.rule.includes(q)) return true;
  }
  // the items its events reported: a uid (or parent id) typed into the search finds the page
  if (itemsMatch(page, q)) return true;
  return (
    page.pageFindings.some((f) => f.rule.includes(q)) ||
    page.visitFindings.some((f) => f.rule.includes(q)) ||
    page.visitEvents.some(
      (v) => has(v.orderId ?? undefined) || v.items.some((i) => has(i.uid) || has(i.parentId)),
    )
  );
}

const FRAME = '\u0000';

function itemsMatch(page: PageState, q: string): boolean {
  // the ids are framed by a character none of them holds (else there is no summary), so a q holding it
  // matches none, and any other q matches the text only within one id
  const ids = page.letGoItemIds;
  if (ids !== null) return !q.includes(FRAME) && ids.includes(q);
  for (const r of page.responses.values())
    for (const ev of r.events) {
      for (const item of ev.results) if (holds(item.uid, q) || holds(item.parentId, q)) return true;
      for (const item of ev.banners) if (holds(item.uid, q)) return true;
    }
  return false;
}

/** Does `s` hold the lowercased text `q`, whatever its case? */
function holds(s: string | undefined, q: string): boolean {
  return typeof s === 'string' && s.toLowerCase().includes(q);
}

/** The types of response events (every kind's, KIND_EVENTS): a bit each in `letGoEvents`. */
const RESPONSE_EVENTS = [...new Set(Object.values(KIND_EVENTS).flat())];

/**
 * What `matches` and `hasEvent` read of the page's response events, kept on it when it lets them go:
 * without it, `?q=` or `?event=` over a million stored events read every page's events back from the
 * store (~20 s). Kept only when every id is free of the frame character and every event type has its bit;
 * else none, and the filters read that page's events back.
 */
export function keepLetGoSummary(page: PageState): void {
  dropLetGoSummary(page);
  const ids = new Set<string>();
  let events = 0;
  const add = (s: string | undefined) => {
    if (typeof s === 'string' && s !== '') ids.add(s.toLowerCase());
  };
  for (const r of page.responses.values())
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
  page.letGoItemIds = framed.join(FRAME);
  page.letGoEvents = events;
}

/** The page let its events go no longer (they are back for good): what it kept of them goes. */
export function dropLetGoSummary(page: PageState): void {
  page.letGoItemIds = null;
  page.letGoEvents = 0;
}

/** Does the page hold an event of this type (render, impression, pageview, transaction, …)? */
export function hasEvent(page: PageState, event: string): boolean {
  if (page.letGoItemIds !== null) {
    const bit = RESPONSE_EVENTS.indexOf(event);
    if (bit >= 0 && (page.letGoEvents & (1 << bit)) !== 0) return true;
  } else
    for (const r of page.responses.values())
      if (r.events.some((e) => e.event === event)) return true;
  return page.visitEvents.some((v) => v.endpoint.endsWith(`/${event}`));
}

/** Insert keeping (time, seq) order of the element's event; O(1) for in-order arrival. */
export function insertSortedBy<T>(
  list: T[],
  item: T,
  ev: (x: T) => { time: number; seq: number },
): void {
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
export function clickSource(
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
