// One response on a page (kind + responseId + tag): its events in timestamp order, what they add up to
// (renders, impressions, redirects, the endpoints sent), and what its rules said when they last ran.
import type { ResponseKind } from '../../../shared/kinds';
import type { InteractionSource } from '../visits/credit';
import { insertSorted, NO_ENTRIES, responseKey, type TimelineEvent } from './model';
import type { Finding } from '../finding';
import { ALL_HEARD, eventBit, type SiblingLog } from './heard';

/**
 * A response's accepted events by kind, in its events' order: built in one pass over them when its rules
 * (or another response's) first read it, and dropped once the page is judged (`Response.facts`).
 */
export interface ResponseFacts {
  renders: TimelineEvent[];
  redirects: TimelineEvent[];
  impressions: TimelineEvent[];
  clicks: TimelineEvent[];
  carts: TimelineEvent[];
  /** a render of this responseId that the service rejected */
  rejectedRender: boolean;
  /** an impression of this responseId that the service rejected */
  rejectedImpression: boolean;
}

/** an event of a response on another page load, where the engine tells it (`continuedOn`, `renderedOn`) */
export interface LoadMark {
  pageLoadId: string;
  eventId: string;
  time: number;
}

export class Response {
  /**
   * sorted by (time, seq); an empty frozen list while its page has let its events go. A list of one made
   * by its first event: an empty one grown by its first insert keeps room for 17 (most responses hold a
   * few events).
   */
  events: TimelineEvent[] = NO_ENTRIES;
  findings: Finding[] = NO_ENTRIES;
  /**
   * Each rule's findings as its check returned them when it last ran (before levels and the superseding
   * rule): a rule that listens to none of the events heard since keeps them and does not run again.
   */
  raw: Finding[] = NO_ENTRIES;
  /** events.length when the rules last ran (-1: never) */
  evaluatedSize = -1;
  /**
   * Its yes-or-no states, a bit each in one number (a response has one field where it had five, and a
   * live sandbox holds one or more for each of its 100,000 pages): its own events (or a change beyond
   * them) call for its rules to run (OWN_DIRTY, from the start), `awaitingImpression`, `watchesLatest`,
   * its first accepted event was offered to the engine's responseId origins (ORIGIN_NOTED), `bannered`.
   */
  private flags = OWN_DIRTY;
  /** its own events heard since its rules last ran, as `eventBit`s; ALL_HEARD: every rule runs */
  private ownHeard = ALL_HEARD;
  /** `siblings`' stamp when its rules last ran (or it was opened): what they heard since is news to it */
  private siblingsSeen: number;
  /**
   * the first event of it on another page load of the session that came without a render there, within
   * the client's 10 s of its render here: the page's events went on under a new pageLoadId
   */
  continuedOn: LoadMark | undefined = undefined;
  /** the other side of `continuedOn`: this response's render on the page load its events left */
  renderedOn: LoadMark | undefined = undefined;
  /** where its clicks and quick adds were made, shared by each the visit book keeps (null before one) */
  clickSource: InteractionSource | null = null;
  /** accepted renders, impressions and redirects, and accepted events of the five kinds the facts hold */
  renders = 0;
  impressions = 0;
  /** the types of its accepted events, as `eventBit`s (readiness: which endpoints the page sent) */
  sent = 0;
  redirects = 0;
  factEvents = 0;
  /** the time of its latest accepted render and impression (-Infinity before one) */
  lastRenderAt = -Infinity;
  lastImpressionAt = -Infinity;
  /**
   * The facts as last built, until the events change or the page is judged (kept for the life of every
   * page, the five arrays, each grown with room to spare, cost ~1.5 KB a page: more than its events).
   */
  private built: ResponseFacts | null = null;

  constructor(
    readonly responseId: string,
    readonly kind: ResponseKind,
    readonly tag: string,
    /** page arrival index of its first event (responses are listed in that order) */
    readonly firstArrival: number,
    readonly pageUrl: string,
    readonly sessionId: string,
    /** what the page's other responses of its kind heard (the shared UNHEARD_LOG until one did) */
    private siblings: SiblingLog,
  ) {
    this.siblingsSeen = siblings.stamp;
  }

  /**
   * Its page made the log of its kind (a sibling heard its first event): read from it from now on. The
   * shared log it leaves never moved, so what it saw of that one (stamp 0) is what the new one holds.
   */
  hearsFrom(log: SiblingLog): void {
    this.siblings = log;
  }

  /**
   * accepted render, no redirect, and no accepted impression since its latest render (a response rendered
   * again, a cached one shown again, is impressed again): a `no-impression` candidate
   */
  get awaitingImpression(): boolean {
    return (this.flags & AWAITING_IMPRESSION) !== 0;
  }

  /** a finding of this response depends on whether a later event arrives on the page (click-not-impressed) */
  get watchesLatest(): boolean {
    return (this.flags & WATCHES_LATEST) !== 0;
  }

  set watchesLatest(on: boolean) {
    this.flag(WATCHES_LATEST, on);
  }

  /** an accepted impression or clickthrough of it named a banner in data.banners (readiness) */
  get bannered(): boolean {
    return (this.flags & BANNERED) !== 0;
  }

  private flag(bit: number, on: boolean): void {
    this.flags = on ? this.flags | bit : this.flags & ~bit;
  }

  /** Must its rules run before its findings are read? Its events, or its siblings', changed. */
  get dirty(): boolean {
    return (this.flags & OWN_DIRTY) !== 0 || this.siblings.since(this.siblingsSeen) !== 0;
  }

  /** The events heard since its rules last ran, its siblings' too, as `eventBit`s; ALL_HEARD: every rule runs. */
  get heard(): number {
    return this.ownHeard | this.siblings.since(this.siblingsSeen);
  }

  /** kind + tag + responseId: a page's responses are told apart by all three (made when read) */
  get key(): string {
    return responseKey(this.kind, this.tag, this.responseId);
  }

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

  /**
   * Take `ev` among its events and count it. Its counts hold whether or not the events are held: a page
   * that let its events go keeps them, and reading the events back (`putBack`) counts nothing again.
   * True when it is its first accepted render (its page has one more rendered response).
   */
  add(ev: TimelineEvent): boolean {
    if (this.events === NO_ENTRIES) this.events = [ev];
    else insertSorted(this.events, ev);
    this.built = null;
    this.hear(ev.event);
    if (!ev.accepted) return false;
    const bit = eventBit(ev.event);
    if (bit > 0) this.sent |= bit;
    if (ev.event === 'render') {
      this.renders++;
      if (ev.time > this.lastRenderAt) this.lastRenderAt = ev.time;
    } else if (ev.event === 'impression') {
      this.impressions++;
      if (ev.banners.length > 0) this.flag(BANNERED, true);
      if (ev.time > this.lastImpressionAt) this.lastImpressionAt = ev.time;
    } else if (ev.event === 'redirect') this.redirects++;
    else if (ev.event === 'clickthrough') {
      if (ev.banners.length > 0) this.flag(BANNERED, true);
    } else if (ev.event !== 'addtocart') return false;
    this.factEvents++;
    return ev.event === 'render' && this.renders === 1;
  }

  /**
   * Is `ev` its first accepted event with a responseId? Only that one can be the first of its responseId
   * anywhere (the engine's responseId origins are offered it); true once.
   */
  firstOrigin(ev: TimelineEvent): boolean {
    if (!ev.accepted || !ev.responseId || (this.flags & ORIGIN_NOTED) !== 0) return false;
    this.flag(ORIGIN_NOTED, true);
    return true;
  }

  /** An event read back from the store, already counted when it was added. */
  putBack(ev: TimelineEvent): void {
    insertSorted(this.events, ev);
  }

  /** Its events go (read back from the store when read): `held` is the shared frozen list. */
  letEventsGo(held: TimelineEvent[]): void {
    this.events = held;
    this.built = null;
  }

  /** Is it a `no-impression` candidate now? Returns the change, -1, 0 or +1, for its page's count. */
  updateAwaiting(): number {
    const awaiting =
      this.rendered &&
      this.redirects === 0 &&
      (this.impressions === 0 || this.lastRenderAt > this.lastImpressionAt);
    if (awaiting === this.awaitingImpression) return 0;
    this.flag(AWAITING_IMPRESSION, awaiting);
    return awaiting ? 1 : -1;
  }

  /** An event of it arrived: the rules that listen to that event run when it is next judged. */
  hear(event: string): void {
    this.flag(OWN_DIRTY, true);
    this.ownHeard |= eventBit(event);
  }

  /** Its rules ran over its events as they are now and returned `raw`: it is clean until it hears more. */
  ran(raw: Finding[]): void {
    this.raw = raw;
    this.ownHeard = 0;
    this.flag(OWN_DIRTY, false);
    this.siblingsSeen = this.siblings.stamp;
    this.evaluatedSize = this.events.length;
  }

  /** Something beyond its own events changed (the page ended, a catalog, a later event): every rule runs. */
  touch(): void {
    this.flag(OWN_DIRTY, true);
    this.ownHeard = ALL_HEARD;
  }

  /**
   * Where a click of this response was made: its own source while its page URL stays (a new one if it
   * moved). One object for all its clicks, which the visit book keeps each of.
   */
  sourceOfClick(
    page: { readonly key: string; readonly pageLoadId: string; readonly pageUrl: string },
    ev: TimelineEvent,
  ): InteractionSource {
    const held = this.clickSource;
    if (held && held.pageUrl === ev.pageUrl) return held;
    return (this.clickSource = {
      kind: this.kind,
      tag: this.tag,
      responseId: this.responseId,
      pageKey: page.key,
      pageLoadId: page.pageLoadId,
      pageUrl: ev.pageUrl === page.pageUrl ? page.pageUrl : ev.pageUrl,
    });
  }
}

/** the bits of `Response.flags` */
const OWN_DIRTY = 1;
const AWAITING_IMPRESSION = 2;
const WATCHES_LATEST = 4;
const ORIGIN_NOTED = 8;
const BANNERED = 16;

function buildFacts(events: readonly TimelineEvent[]): ResponseFacts {
  const f = emptyFacts();
  for (const ev of events) {
    if (!ev.accepted) {
      if (ev.event === 'render') f.rejectedRender = true;
      else if (ev.event === 'impression') f.rejectedImpression = true;
    } else if (ev.event === 'render') f.renders.push(ev);
    else if (ev.event === 'impression') f.impressions.push(ev);
    else if (ev.event === 'clickthrough') f.clicks.push(ev);
    else if (ev.event === 'addtocart') f.carts.push(ev);
    else if (ev.event === 'redirect') f.redirects.push(ev);
  }
  return f;
}

function emptyFacts(): ResponseFacts {
  return {
    renders: [],
    redirects: [],
    impressions: [],
    clicks: [],
    carts: [],
    rejectedRender: false,
    rejectedImpression: false,
  };
}
