// Strings that repeat from event to event (site, category, event, path, the client's initiator, a page's
// url and ids, its responseId, an item's long ids) are stored once. JSON.parse gives every event its own
// copies of values longer than 10 characters, and a sandbox kept running all day holds a million events: at
// 1.5 KB an event, these copies are a fifth of it. Shorter values of a body are one string already.
// Values only: every field keeps its text, only equal strings become one string.
// An imported event comes from the import's reader thread, copied across as a structured clone, which makes
// a string of every value however short (JSON.parse makes one string of each short value, the clone does
// not): a million events imported kept their own copy of each short page id, session id and responseId
// beside every event, ~54 MB. Imported events share their values whatever their length.
import type { RecordedEvent, ValidationIssue } from '../../shared/events';
import { isObject } from '../../shared/values';

/** Distinct strings kept for sharing at most; when full it starts again (ids of past pages never stay). */
const MAX_POOLED = 10_000;

/** JSON.parse gives string values up to this long one string per value already (V8's json-parser.cc) */
const LONG_ID = 10;

/** The one empty `errors` of accepted events (frozen: an event's errors are never added to after it is stored). */
const NO_ERRORS = Object.freeze([]) as unknown as ValidationIssue[];

/** a page's context, as the timelines and visits keep it */
const TIMELINE_CONTEXT_KEYS = ['pageUrl', 'userId', 'sessionId', 'pageLoadId', 'shopperId'];
/** the context as the store keeps it: with the client that sent it */
const STORED_CONTEXT_KEYS = [...TIMELINE_CONTEXT_KEYS, 'initiator'];

export class StringPool {
  private pool = new Map<string, string>();

  /** `max`: distinct strings kept at most */
  constructor(private readonly max = MAX_POOLED) {}

  share(s: string): string {
    const held = this.pool.get(s);
    if (held !== undefined) return held;
    if (this.pool.size >= this.max) this.pool = new Map();
    this.pool.set(s, s);
    return s;
  }

  /**
   * Share the event's repeated strings in place (before it is stored, indexed and handed on). `cloned`: it
   * was copied from another thread (an import): short values are shared too.
   */
  shareEvent(e: RecordedEvent, cloned = false): void {
    // from the request's path and headers: a string of their own for each event
    e.siteId = this.share(e.siteId);
    e.category = this.share(e.category);
    e.event = this.share(e.event);
    e.path = this.share(e.path);
    if (e.userAgent !== undefined) e.userAgent = this.share(e.userAgent);
    if (e.origin !== undefined) e.origin = this.share(e.origin);
    if (e.contentType !== undefined) e.contentType = this.share(e.contentType);
    if (e.errors.length === 0) e.errors = NO_ERRORS;
    this.shareBody(e.body, STORED_CONTEXT_KEYS, cloned ? 0 : LONG_ID);
  }

  /**
   * Share, in place, the strings of an event read from a file by `check` that its timeline keeps while its
   * page is open: the page's url and ids, its shopper, its responseId and its items. The rest of the event
   * (its path, site, endpoint, client, errors) is read once and let go when the event has been applied.
   */
  shareRead(e: RecordedEvent): void {
    this.shareBody(e.body, TIMELINE_CONTEXT_KEYS, LONG_ID);
  }

  /** `longer`: values of at most this many characters are left as they are (one string already) */
  private shareBody(body: unknown, contextKeys: readonly string[], longer: number): void {
    if (!isObject(body)) return;
    const context = body.context;
    if (isObject(context))
      for (const key of contextKeys) {
        const v = context[key];
        if (typeof v === 'string' && v.length > longer) context[key] = this.share(v);
      }
    const data = body.data;
    if (!isObject(data)) return;
    // a page's render, impressions and clicks carry one responseId; the store keeps it beside each event
    const responseId = data.responseId;
    if (typeof responseId === 'string' && responseId.length > longer)
      data.responseId = this.share(responseId);
    for (const list of [data.results, data.items])
      if (Array.isArray(list))
        for (const item of list) if (isObject(item)) this.shareItem(item, longer);
  }

  /**
   * A product's ids repeat across events and shoppers (a page's impressions list what its render listed,
   * the best sellers are on every shopper's page). A uid of more than `longer` characters (LONG_ID: a
   * Shopify gid, a UUID) is shared, with its item's sku and parentId: such ids are a large part of a stored
   * event. V8's JSON.parse already makes one string of each shorter value; looking up every id, or reading
   * every item's sku, would cost `check` more than it saves. A cloned event passes 0: every uid is shared.
   */
  private shareItem(item: Record<string, unknown>, longer: number): void {
    const type = item.type;
    if (typeof type === 'string' && type.length > longer) item.type = this.share(type);
    const uid = item.uid;
    if (typeof uid !== 'string') return;
    if (uid.length > longer) {
      item.uid = this.share(uid);
      if (typeof item.sku === 'string') item.sku = this.share(item.sku);
    }
    // a product's parentId is mostly its uid: one string for both
    const parentId = item.parentId;
    if (parentId === uid) item.parentId = item.uid;
    else if (typeof parentId === 'string' && parentId.length > longer)
      item.parentId = this.share(parentId);
  }
}
