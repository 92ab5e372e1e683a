// Builds RecordedEvents of search sessions for timeline tests: valid beacon v2 bodies, explicit
// timestamps (context.timestamp) and receive times, so tests can plant reordering and defects exactly.
import type { RecordedEvent } from '../../src/shared/events';
import type { ResponseKind } from '../../src/shared/kinds';
import { SandboxClock } from '../../src/main/clock';
import { defaultTimelineSettings, type TimelineSettings } from '../../src/main/config';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';
import type { LevelSource } from '../../src/shared/rule-levels';

export const T0 = Date.parse('2026-11-21T04:00:00.000Z');

export interface PageOptions {
  siteId?: string;
  sessionId?: string;
  userId?: string;
  pageLoadId?: string;
  pageUrl?: string;
  dev?: boolean;
}

export interface EventOptions {
  /** context.timestamp, ms after T0 */
  at: number;
  /** receive time, ms after T0 (default: at + 40) */
  recv?: number;
  /** how far the sandbox clock was moved from real time when it arrived (recorded only when not 0) */
  clockOffsetMs?: number;
  accepted?: boolean;
  errors?: string[];
  context?: Record<string, unknown>;
  /** replace the body entirely */
  body?: unknown;
}

let seqCounter = 0;

/** The field a validation message names (`data.results[0].uid`), as the service's issues carry it; '' for none. */
const pathIn = (message: string) => /\b(?:context|data)\b[\w.[\]]*/.exec(message)?.[0] ?? '';

/** One page load: every event shares siteId, session, user, pageLoadId and pageUrl unless overridden. */
export class PageBuilder {
  /** the beacon v2 category events go to (search unless made with `as`) */
  kind: ResponseKind = 'search';
  /** data.tag of recommendations and bundles events */
  tag = '';
  readonly siteId: string;
  readonly ctx: {
    sessionId: string;
    userId: string;
    pageLoadId: string;
    pageUrl: string;
    dev?: boolean;
  };

  constructor(opts: PageOptions = {}) {
    this.siteId = opts.siteId ?? 'demo42';
    this.ctx = {
      sessionId: opts.sessionId ?? 'session-1',
      userId: opts.userId ?? 'user-1',
      pageLoadId: opts.pageLoadId ?? 'page-1',
      pageUrl: opts.pageUrl ?? 'http://localhost:3000/search?q=shoes',
      ...(opts.dev !== false && { dev: true }),
    };
  }

  /** The same page load sending events of another kind (a widget's with its tag). */
  as(kind: ResponseKind, tag = ''): PageBuilder {
    const b = Object.create(this) as PageBuilder;
    b.kind = kind;
    b.tag = tag;
    return b;
  }

  event(event: string, data: Record<string, unknown>, o: EventOptions): RecordedEvent {
    const seq = ++seqCounter;
    if (this.tag) data = { tag: this.tag, ...data };
    // a category page's redirect goes to the search endpoint, as the provider's controller sends it
    const category = event === 'redirect' && this.kind === 'category' ? 'search' : this.kind;
    const accepted = o.accepted ?? true;
    const body =
      o.body !== undefined
        ? o.body
        : {
            context: {
              timestamp: new Date(T0 + o.at).toISOString(),
              initiator: 'athos/beaconjs/1.3.0',
              shopperId: '',
              ...this.ctx,
              ...o.context,
            },
            data,
          };
    return {
      id: `ev_${String(seq).padStart(6, '0')}`,
      seq,
      receivedAt: new Date(T0 + (o.recv ?? o.at + 40)).toISOString(),
      ...(o.clockOffsetMs && { clockOffsetMs: o.clockOffsetMs }),
      siteId: this.siteId,
      category,
      event,
      path: `/beacon/v2/${this.siteId}/${category}/${event}`,
      accepted,
      status: accepted ? 200 : 400,
      errors: (o.errors ?? (accepted ? [] : ['invalid'])).map((message) => ({
        message,
        path: pathIn(message),
      })),
      body,
    };
  }

  render(responseId: string, o: EventOptions): RecordedEvent {
    return this.event('render', { responseId }, o);
  }

  impression(
    responseId: string,
    uids: string[],
    o: EventOptions,
    banners: string[] = [],
  ): RecordedEvent {
    const results = uids.map((uid) => ({ type: 'product', uid, parentId: uid, sku: `sku-${uid}` }));
    return this.event(
      'impression',
      { responseId, results, banners: banners.map((uid) => ({ uid })) },
      o,
    );
  }

  click(responseId: string, uid: string, o: EventOptions): RecordedEvent {
    return this.event(
      'clickthrough',
      { responseId, results: [{ type: 'product', uid, parentId: uid, sku: `sku-${uid}` }] },
      o,
    );
  }

  bannerClick(responseId: string, uid: string, o: EventOptions): RecordedEvent {
    return this.event('clickthrough', { responseId, banners: [{ uid }] }, o);
  }

  cart(responseId: string, uid: string, o: EventOptions, parentId = uid): RecordedEvent {
    return this.event(
      'addtocart',
      { responseId, results: [{ uid, parentId, sku: `sku-${uid}`, qty: 1, price: 19.99 }] },
      o,
    );
  }

  redirect(responseId: string, url: string, o: EventOptions): RecordedEvent {
    return this.event('redirect', { responseId, redirect: url }, o);
  }
}

/**
 * The pages built here compress time (a tile impressed 10 ms after its render) so that a test can plant
 * one defect exactly; the rules about the client's own timing would name that compression on every page,
 * so engines made here turn them off. Their own cases (test/rules/cases) judge them on faithful timing.
 */
export const COMPRESSED_TIME: LevelSource = {
  level: (_siteId, rule) =>
    rule === 'impression-before-visible' || rule === 'queue-split'
      ? { level: 'off', from: 'test/unit/timeline-events.ts (compressed time)' }
      : undefined,
};

/** An engine on a frozen clock at `now` ms after T0 (the client's timing rules off: COMPRESSED_TIME). */
export function engineAt(now = 60_000, settings: Partial<TimelineSettings> = {}) {
  const clock = new SandboxClock({ start: T0 + now, frozen: true });
  const engine = new TimelineEngine({
    clock,
    settings: { ...defaultTimelineSettings(), ...settings },
    levels: COMPRESSED_TIME,
  });
  return { clock, engine };
}

/** Apply events in the given (arrival) order, settle as offline input, return the page DTOs. */
export function run(events: RecordedEvent[], settings: Partial<TimelineSettings> = {}) {
  const { engine } = engineAt(60_000, settings);
  for (const e of events) engine.apply(e);
  engine.finish();
  return engine.pagesDto();
}

/** `rule` → sorted event ids of that rule's findings on the only (or given) page. */
export function findingsOf(
  events: RecordedEvent[],
  settings: Partial<TimelineSettings> = {},
  pageLoadId?: string,
) {
  const pages = run(events, settings).filter(
    (p) => pageLoadId === undefined || p.pageLoadId === pageLoadId,
  );
  return pages.flatMap((p) => p.findings).filter((f) => f.rule !== 'dev-flag');
}
