// A recording as a baseline comparison sees it: sessions of pages in order, each page's events reduced to
// what is compared (normalize.ts), one string each, the impressions of one response as one (impressions.ts).
// Raw bodies are not kept: a recording of 100,000 events holds their compared text only.
import type { IgnoreUse } from './ignore-use';
import { REFUSALS, type RecordedEvent } from '../../shared/events';
import { isObject } from '../../shared/values';
import { VISIT_PAGE_KINDS } from '../../shared/visits';
import { isTimelineEndpoint } from '../../shared/kinds';
import { isVisitEndpoint } from '../tracking/visits/events';
import { mergedImpressions, sortImpressed } from './impressions';
import { isImpression } from '../../shared/baseline';
import { addVolatile, pageLocation } from '../../shared/page-location';
import {
  comparedFields,
  fieldsText,
  pageMatching,
  responsePlace,
  type IgnorePath,
  type PageMatching,
} from './normalize';

export interface RecEvent {
  /** `category/event` */
  event: string;
  /** the compared fields, canonical JSON */
  text: string;
}

export interface RecPage {
  /** search, category, product, cart, order, … (the page's weightiest event) */
  kind: string;
  /** the page's URL as recorded (its first event's context.pageUrl) */
  pageUrl: string;
  /**
   * What the page is matched by beside its kind: its URL's path and query, volatile ids as `{orderId}`,
   * ignored parameters left out ('' when `--ignore context.pageUrl` matches pages by kind and place only)
   */
  location: string;
  /** the page as compared, to be read: its location also when URLs do not count (`--ignore context.pageUrl`) */
  shown: string;
  siteId: string;
  pageLoadId: string;
  events: RecEvent[];
}

export interface RecSession {
  pages: RecPage[];
}

export interface Recording {
  sessions: RecSession[];
  /** a baseline file's: the ignore paths it was written with (left out of it), as given */
  ignore?: string[];
  /**
   * a baseline file written before orderIds were compared by their form (it has none): a comparison with
   * it leaves them out of the other recording too, as that version did
   */
  withoutOrderIds?: true;
}

/**
 * The compared field of an event the service did not accept: its answer (`"415 Unsupported Media Type"`,
 * `"400 rejected"`). A beacon refused or rejected is lost in production, so a run whose pages send the same
 * bodies but are refused (a Content-Type changed, a field renamed) is not the same tracking; an accepted
 * event has no such field, so a baseline written before it was compared still matches an accepted run.
 */
export const ANSWER = 'answer';

function answerOf(rec: RecordedEvent): string {
  const name = REFUSALS.get(rec.status);
  return name ? `${rec.status} ${name}` : `${rec.status} rejected`;
}

/** The compared fields with the answer among them, keys in the order every compared object has (sorted). */
function withAnswer(fields: Record<string, unknown>, answer: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of [...Object.keys(fields), ANSWER].sort())
    out[key] = key === ANSWER ? answer : fields[key];
  return out;
}

/** What a page is matched by: its kind and its location. */
export function pageKey(page: RecPage): string {
  return `${page.kind} ${page.location}`;
}

interface OpenPage extends RecPage {
  categories: Set<string>;
  responses: Map<string, string>;
  /** the page's volatile values (sessionId, userId, pageLoadId, responseIds, orderIds) by value */
  volatile: Map<string, string>;
  /** a volatile value came after an event whose URL has a query: its compared URL is read again at the end */
  late: boolean;
}

const VOLATILE_CONTEXT_IDS = ['sessionId', 'userId', 'pageLoadId'] as const;

/** Notes the volatile values of an event on its page; true when one is new. */
function noteVolatile(page: OpenPage, context: Record<string, unknown>, data: unknown): boolean {
  let added = false;
  const note = (value: unknown, name: string) => {
    if (addVolatile(page.volatile, value, name)) added = true;
  };
  for (const key of VOLATILE_CONTEXT_IDS) note(context[key], key);
  if (isObject(data)) {
    note(data.responseId, 'responseId');
    note(data.orderId, 'orderId');
  }
  return added;
}

/** The page's kind as the timelines rank a visit's pages: its weightiest beacon category. */
function kindOf(categories: Set<string>): string {
  for (const kind of VISIT_PAGE_KINDS) if (categories.has(kind)) return kind;
  return categories.values().next().value ?? 'other';
}

/** Events in the order recorded → sessions and their pages, in the order each first appeared. */
export class RecordingBuilder {
  private readonly sessions = new Map<string, OpenPage[]>();
  private readonly pages = new Map<string, OpenPage>();

  /** `category/event`, one string each (a recording has a handful of endpoints and many events) */
  private readonly endpoints = new Map<string, Map<string, string>>();

  /**
   * `texts`: compared texts met before, shared by the recordings read into it: a run's events mostly send
   * what the other run's did, so each text is held once (and equal events compare as one string).
   */
  private readonly matching: PageMatching;

  constructor(
    private readonly ignore: readonly IgnorePath[] = [],
    private readonly texts?: Map<string, string>,
    /** told which ignore paths left something out (`diff` says which did not) */
    private readonly use?: IgnoreUse,
  ) {
    this.matching = pageMatching(ignore);
  }

  private location(page: OpenPage, url: string): string {
    return pageLocation(url, page.volatile, this.matching.params, this.use);
  }

  private shared(text: string): string {
    if (!this.texts) return text;
    const known = this.texts.get(text);
    if (known !== undefined) return known;
    this.texts.set(text, text);
    return text;
  }

  private endpoint(rec: RecordedEvent): string {
    let events = this.endpoints.get(rec.category);
    if (!events) this.endpoints.set(rec.category, (events = new Map()));
    let name = events.get(rec.event);
    if (name === undefined) events.set(rec.event, (name = `${rec.category}/${rec.event}`));
    return name;
  }

  /** Takes a beacon event of a page (timeline or visit endpoint); others are not compared. */
  add(rec: RecordedEvent): void {
    if (!isTimelineEndpoint(rec.category, rec.event) && !isVisitEndpoint(rec.category, rec.event))
      return;
    const context = isObject(rec.body) && isObject(rec.body.context) ? rec.body.context : {};
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    const sessionKey = `${rec.siteId}\u0000${str(context.sessionId)}`;
    const pageKey = `${rec.siteId}\u0000${str(context.pageLoadId)}`;
    let page = this.pages.get(pageKey);
    if (!page) {
      page = {
        kind: '',
        pageUrl: str(context.pageUrl),
        location: '',
        shown: '',
        siteId: rec.siteId,
        pageLoadId: str(context.pageLoadId),
        events: [],
        categories: new Set(),
        responses: new Map(),
        volatile: new Map(),
        late: false,
      };
      this.pages.set(pageKey, page);
      let session = this.sessions.get(sessionKey);
      if (!session) this.sessions.set(sessionKey, (session = []));
      session.push(page);
    }
    page.categories.add(rec.category === 'shopper' ? 'login' : rec.category);
    const responses = page.responses;
    const place = (id: string) => {
      let name = responses.get(id);
      if (name === undefined) responses.set(id, (name = responsePlace(responses.size + 1)));
      return name;
    };
    const body = isObject(rec.body) ? rec.body : {};
    if (noteVolatile(page, context, body.data) && page.events.length > 0) page.late = true;
    const sent = comparedFields(rec.body, place, (url) => this.location(page, url));
    const event = this.endpoint(rec);
    if (isImpression(event)) sortImpressed(sent);
    const fields = rec.accepted ? sent : withAnswer(sent, answerOf(rec));
    page.events.push({ event, text: this.shared(fieldsText(fields, this.ignore, this.use)) });
  }

  /**
   * An event whose compared URL was written before the page's last volatile value came (an order page whose
   * URL names the order before the order event): its URL read again with all of them.
   */
  private relocated(page: OpenPage, e: RecEvent): RecEvent {
    if (!e.text.includes('"pageUrl":"')) return e;
    const fields = JSON.parse(e.text) as Record<string, unknown>;
    const context = fields.context;
    if (!isObject(context) || typeof context.pageUrl !== 'string') return e;
    context.pageUrl = this.location(page, context.pageUrl);
    return { event: e.event, text: this.shared(JSON.stringify(fields)) };
  }

  end(): Recording {
    const sessions: RecSession[] = [];
    for (const open of this.sessions.values())
      sessions.push({
        pages: open.map((p) => {
          const shown = this.location(p, p.pageUrl);
          return {
            kind: kindOf(p.categories),
            pageUrl: p.pageUrl,
            location: this.matching.urls ? shown : '',
            shown,
            siteId: p.siteId,
            pageLoadId: p.pageLoadId,
            events: mergedImpressions(
              p.late ? p.events.map((e) => this.relocated(p, e)) : p.events,
              (text) => this.shared(text),
            ),
          };
        }),
      });
    this.sessions.clear();
    this.pages.clear();
    return { sessions };
  }
}

/**
 * Why recordings without one beacon event of a page cannot be compared, naming which (BASE, CURRENT or
 * both); undefined when both have pages. Two runs whose tracking broke alike are "the same tracking" only
 * in a count of nothing: a CI job comparing them would pass the broken integration, as `check` refuses to.
 */
export function withoutPages(
  runs: Record<'BASE' | 'CURRENT', [string, Recording]>,
): string | undefined {
  const empty = Object.entries(runs).filter(([, [, r]]) =>
    r.sessions.every((s) => s.pages.length === 0),
  );
  if (empty.length === 0) return undefined;
  const named = empty.map(([side, [file]]) => `${side} (${file})`);
  const which =
    empty.length === 2 ? `neither ${named[0]} nor ${named[1]} has a` : `${named[0]} has no`;
  return `${which} beacon v2 event of a page: nothing to compare. Most often the storefront's tracking never fired in that run (the tracker not loaded, its beacons sent to another host), or the recording left the beacons out (a HAR saved with a filter, or with its …/beacon/v2/… requests removed); record the journey with its tracking on`;
}
