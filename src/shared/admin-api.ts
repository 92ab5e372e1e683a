// The admin API (`/_sandbox/*`) as one declaration: every endpoint with its method, path, query, body and
// answer. TypeBox gives each schema's TypeScript type, the server's validation and the JSON Schema of
// `GET /_sandbox/openapi.json` from the same source. The server parses queries with it (http/admin-query.ts),
// the clients build their URLs with it (adminPath), and a test holds the router table to it.
import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import type { RecordedEvent, UpstreamAnswer } from './events';
import type { FeedView, OutboxMessage } from './indexing';
import {
  type PageKeyDto,
  type RuleInfoDto,
  type PageTimelineDto,
  type PageTimelineSummaryDto,
  type TimelineListDto,
} from './timeline';
import type { OrderDto, VisitDto } from './visits';
import type { ClockState } from './stream';
import { RESPONSE_KINDS } from './kinds';
import { encodePart } from './text';

// ---- query parameters: the rule each one follows is said in its message when a value breaks it ----

/** Free text (an id, a siteId): any value. */
const text = (description: string) => Type.String({ description });

/** One of a few values; the 400 lists them. */
function oneOf<const T extends readonly string[]>(values: T, description: string) {
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  ) as unknown as ReturnType<typeof Type.Unsafe<T[number]>>;
}

/**
 * A rule id. The rules declare their ids in their own modules (the server's), so the declaration marks
 * the parameter and the server fills in the ids: the 400's list and the OpenAPI enum (`x-values`).
 */
const ruleId = (description: string) =>
  Type.String({ description, 'x-values': 'rule-ids', 'x-rule': 'must be a rule id' });

/** A whole number in a range, sent as digits. */
const whole = (minimum: number, maximum: number, description: string) =>
  Type.Integer({ minimum, maximum, description });

/** true/false (1/0 accepted). */
const flag = (description: string) => Type.Boolean({ description });

/** A seq (`42`) or an event id (`ev_000000042`). */
const seqOrId = (description: string) =>
  Type.String({
    pattern: '^(?:ev_)?\\d+$',
    description,
    'x-rule': 'must be a seq (e.g. 42) or an event id (e.g. ev_000000042)',
  });

/** An answer shaped as the TypeScript type says (the DTO types in src/shared are its reference). */
const answer = <T>(description: string) =>
  Type.Unsafe<T>(Type.Object({}, { description, additionalProperties: true }));

export const MAX_EVENT_LIMIT = 100_000;
export const MAX_TIMELINE_LIMIT = 100_000;

const EVENT_FILTERS = {
  siteId: text('events of this siteId'),
  category: text('beacon v2 category (search, product, cart, order, log, …)'),
  kind: oneOf(RESPONSE_KINDS, 'the timelines’ word for the categories they hold'),
  event: text('event within the category (render, impression, …)'),
  accepted: flag('only accepted (true) or only rejected (false) events'),
  responseId: text('events carrying this data.responseId'),
  pageLoadId: text('events of this context.pageLoadId'),
  sessionId: text('events of this context.sessionId'),
  since: seqOrId('events after this one (tailing)'),
  before: seqOrId('events before this one (paging back)'),
};

const TIMELINE_FILTERS = {
  siteId: text('pages of this siteId'),
  verdict: oneOf(['pass', 'warn', 'fail'] as const, 'pages with this verdict'),
  sessionId: text('pages of this session'),
  pageLoadId: text('one page load'),
  q: text('free text: page URL, ids, responseIds, rule ids, the uids its events reported'),
  kind: oneOf(RESPONSE_KINDS, 'pages holding a response of this kind'),
  event: text('pages holding an event of this type (render, impression, pageview, …)'),
  rule: ruleId('pages with a finding of this rule (at the severity it has; none when it is off)'),
};

const VISIT_FILTERS = {
  siteId: text('visits of this siteId'),
  sessionId: text('one session'),
  userId: text('visits of this userId'),
};

// ---- the endpoints ----

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface Endpoint {
  method: Method;
  /** OpenAPI path, `{name}` for path parameters */
  path: `/_sandbox/${string}`;
  summary: string;
  query?: TProperties;
  body?: TSchema;
  /** the 200 answer's JSON, or the media type of a body that is not JSON */
  response: TSchema | { mediaType: string; description: string };
  /**
   * The answer for each value of the `view` query parameter, where it changes the answer's shape
   * (`response` is the answer without it): `AnswerOf` picks one by the query a caller gives.
   */
  views?: Record<string, TSchema>;
  /** a streamed answer (Server-Sent Events) */
  stream?: true;
}

const bodyObject = (description: string, properties: TProperties) =>
  Type.Object(properties, { description, additionalProperties: false });

export const ADMIN_API = {
  health: {
    method: 'GET',
    path: '/_sandbox/health',
    summary: 'liveness, version, data directory, start-up warnings and forwarding statistics',
    response: answer<{ status: 'ok'; version: string }>('health'),
  },
  openapi: {
    method: 'GET',
    path: '/_sandbox/openapi.json',
    summary: 'this document (OpenAPI 3.1)',
    response: answer<Record<string, unknown>>('the OpenAPI document'),
  },
  events: {
    method: 'GET',
    path: '/_sandbox/events',
    summary: 'recorded tracking requests, oldest first',
    query: {
      ...EVENT_FILTERS,
      limit: whole(
        0,
        MAX_EVENT_LIMIT,
        'at most this many, the newest (default 1000; with follow, the backlog: default 10)',
      ),
      follow: flag(
        'stream NDJSON: the newest matching events, then each new one as it is recorded (`npx search-sandbox tail`)',
      ),
    },
    response: answer<{
      events: RecordedEvent[];
      count: number;
      truncated: boolean;
      retained: number;
      lastSeq: number | null;
    }>('{events, count, truncated, retained, lastSeq}'),
  },
  event: {
    method: 'GET',
    path: '/_sandbox/events/{id}',
    summary: 'one recorded event',
    response: answer<RecordedEvent>('a recorded event'),
  },
  wait: {
    method: 'GET',
    path: '/_sandbox/wait',
    summary: 'block until `count` matching events are recorded (200) or the timeout passes (408)',
    query: {
      ...EVENT_FILTERS,
      limit: whole(0, MAX_EVENT_LIMIT, 'at most this many events in the answer'),
      count: whole(1, MAX_EVENT_LIMIT, 'how many matching events to wait for (default 1)'),
      timeout: whole(0, Number.MAX_SAFE_INTEGER, 'ms to wait (default 10000, capped at 120000)'),
    },
    response: answer<{ done: boolean; count: number; events: RecordedEvent[] }>(
      '{done, count, timeoutMs, events}',
    ),
  },
  reset: {
    method: 'POST',
    path: '/_sandbox/reset',
    summary: 'forget events and timelines; {"what":"all"} also resets feeds, catalogs and outbox',
    query: { siteId: text('reset only this site') },
    body: bodyObject('what to reset (no body: events)', {
      what: Type.Optional(oneOf(['events', 'all'] as const, 'events (default) or all')),
      siteId: Type.Optional(Type.String({ minLength: 1, description: 'reset only this site' })),
    }),
    response: answer<{ reset: string }>('what was reset'),
  },
  stream: {
    method: 'GET',
    path: '/_sandbox/stream',
    summary:
      'Server-Sent Events: event, timeline, feed, outbox, clock, reset, indexRequest, upstream (src/shared/stream.ts)',
    query: {
      types: text('comma-separated message types to receive (default: all)'),
    },
    response: { mediaType: 'text/event-stream', description: 'one SSE event per message' },
    stream: true,
  },
  export: {
    method: 'GET',
    path: '/_sandbox/export',
    summary: 'the events (filtered) and every area’s section, as one file for a bug report',
    query: EVENT_FILTERS,
    response: answer<{ format: 'search-sandbox-export'; events: RecordedEvent[] }>('an export'),
  },
  import: {
    method: 'POST',
    path: '/_sandbox/import',
    summary: 'append (or with replace=true, replace) events from an export, an array or NDJSON',
    query: { replace: flag('reset events first') },
    body: answer<unknown>('an export, a bare array of events, or NDJSON'),
    response: answer<{ imported: number }>(
      '{imported, firstId, lastId, sections, ignoredSections}',
    ),
  },
  rules: {
    method: 'GET',
    path: '/_sandbox/rules',
    summary:
      'every rule as its module declares it: id, description, appliesTo, defaultSeverity, fix, scope',
    response: answer<RuleInfoDto[]>(
      '[{id, title, description, expects, appliesTo, defaultSeverity, fix, scope}]',
    ),
  },
  timelines: {
    method: 'GET',
    path: '/_sandbox/timelines',
    summary: 'pages with their verdicts, responses and findings',
    query: {
      ...TIMELINE_FILTERS,
      limit: whole(1, MAX_TIMELINE_LIMIT, 'at most this many, the newest (default 500)'),
      view: oneOf(
        ['full', 'summary', 'keys'] as const,
        'full (pages with events), summary, or keys (each page as {siteId, pageLoadId} only)',
      ),
      finished: flag('judge every page as if it has ended, as reports do'),
    },
    response: answer<TimelineListDto>(
      '{pages, total, verdicts}: full pages; summaries with view=summary, {siteId, pageLoadId} with view=keys',
    ),
    views: {
      full: answer<TimelineListDto>('{pages, total, verdicts}'),
      summary: answer<TimelineListDto<PageTimelineSummaryDto>>(
        '{pages: summaries, total, verdicts}',
      ),
      keys: answer<TimelineListDto<PageKeyDto>>('{pages: [{siteId, pageLoadId}], total, verdicts}'),
    },
  },
  timeline: {
    method: 'GET',
    path: '/_sandbox/timelines/{pageLoadId}',
    summary: 'one page (404 unknown, 409 when two sites share the pageLoadId: add siteId)',
    query: { siteId: text('the page’s site') },
    response: answer<PageTimelineDto>('a page timeline'),
  },
  report: {
    method: 'GET',
    path: '/_sandbox/report',
    summary: 'every page judged as finished: JSON, JUnit XML or one HTML file',
    query: {
      ...TIMELINE_FILTERS,
      format: oneOf(['json', 'junit', 'html'] as const, 'json (default), junit or html'),
      failOn: oneOf(
        ['error', 'warning', 'info'] as const,
        'the severity from which a page fails the JUnit report (default error)',
      ),
    },
    response: answer<unknown>('the report'),
  },
  visits: {
    method: 'GET',
    path: '/_sandbox/visits',
    summary: 'visits: the shopper’s pages with their verdicts, the cart, the orders',
    query: VISIT_FILTERS,
    response: answer<VisitDto[]>('visits'),
  },
  orders: {
    method: 'GET',
    path: '/_sandbox/orders',
    summary: 'orders with the credit of each line',
    query: { ...VISIT_FILTERS, orderId: text('one order id') },
    response: answer<OrderDto[]>('orders'),
  },
  trackingSchemas: {
    method: 'GET',
    path: '/_sandbox/tracking/schemas',
    summary: 'the JSON Schemas beacons are validated with',
    response: answer<Record<string, unknown>>('schemas by endpoint'),
  },
  trackingSchema: {
    method: 'GET',
    path: '/_sandbox/tracking/schemas/{category}/{event}',
    summary: 'one endpoint’s JSON Schema',
    response: answer<Record<string, unknown>>('a JSON Schema'),
  },
  trackingCheck: {
    method: 'POST',
    path: '/_sandbox/tracking/check/{siteId}/{category}/{event}',
    summary: 'dry run: what the service would answer to this body; nothing is recorded',
    body: answer<unknown>('a beacon body'),
    response: answer<{ status: number }>('the answer the service would give, with its errors'),
  },
  feeds: {
    method: 'GET',
    path: '/_sandbox/feeds',
    summary: 'every feed with its state, history and last run',
    query: { siteId: text('feeds of this site') },
    response: answer<{ feeds: FeedView[] }>('{feeds}'),
  },
  feed: {
    method: 'GET',
    path: '/_sandbox/feeds/{siteId}/{feedId}',
    summary: 'one feed',
    response: answer<FeedView>('a feed'),
  },
  patchFeed: {
    method: 'PATCH',
    path: '/_sandbox/feeds/{siteId}/{feedId}',
    summary: 'feed settings and injected faults',
    body: answer<Record<string, unknown>>('settings to change'),
    response: answer<FeedView>('the feed'),
  },
  transition: {
    method: 'POST',
    path: '/_sandbox/feeds/{siteId}/{feedId}/transition',
    summary: 'move a feed along the state table by hand (409 lists the allowed targets)',
    body: bodyObject('the target state', { to: Type.String({ description: 'target state' }) }),
    response: answer<FeedView>('the feed'),
  },
  catalog: {
    method: 'GET',
    path: '/_sandbox/feeds/{siteId}/{feedId}/catalog',
    summary: 'the feed’s indexed catalog',
    query: {
      limit: whole(1, 1000, 'products in the answer (default 100)'),
      offset: whole(0, Number.MAX_SAFE_INTEGER, 'index of the first product (default 0)'),
    },
    response: answer<{ products: unknown[]; total: number }>(
      '{siteId, feedId, indexedAt, total, products}',
    ),
  },
  clock: {
    method: 'GET',
    path: '/_sandbox/clock',
    summary: 'sandbox time',
    response: answer<ClockState>('{now, offsetMs, frozen}'),
  },
  setClock: {
    method: 'POST',
    path: '/_sandbox/clock',
    summary: 'move the sandbox clock: {"advance":"PT61M"}, {"set":"…"} or {"reset":true}',
    body: bodyObject('one of advance, set, reset', {
      advance: Type.Optional(Type.String({ description: 'ISO 8601 duration, e.g. PT61M' })),
      set: Type.Optional(Type.String({ description: 'ISO 8601 instant' })),
      reset: Type.Optional(Type.Literal(true)),
    }),
    response: answer<ClockState>('{now, offsetMs, frozen}'),
  },
  outbox: {
    method: 'GET',
    path: '/_sandbox/outbox',
    summary: 'status e-mails produced for requestedBy, newest last',
    query: {
      siteId: text('messages of this site'),
      feedId: whole(0, Number.MAX_SAFE_INTEGER, 'messages of this feed'),
      to: text('messages to this address'),
    },
    response: answer<{ messages: OutboxMessage[] }>('{messages}'),
  },
  clearOutbox: {
    method: 'DELETE',
    path: '/_sandbox/outbox',
    summary: 'empty the outbox',
    response: answer<{ messages: [] }>('{messages: []}'),
  },
  searchResponses: {
    method: 'GET',
    path: '/_sandbox/search/responses',
    summary: 'responses the companion search API issued, newest first',
    query: {
      siteId: text('responses of this site'),
      limit: whole(1, 1000, 'at most this many (default 50)'),
      responseId: text('only this response: a list of it, or empty when it was never issued'),
    },
    response: answer<{ responses: unknown[] }>('{responses, remembered, rememberedSince}'),
  },
  searchResponse: {
    method: 'GET',
    path: '/_sandbox/search/responses/{responseId}',
    summary: 'one issued response',
    response: answer<{ upstream?: UpstreamAnswer }>('an issued response'),
  },
} as const satisfies Record<string, Endpoint>;

export type AdminEndpointName = keyof typeof ADMIN_API;

/** The parsed query of an endpoint: each parameter's own type, all optional. */
export type QueryOf<N extends AdminEndpointName> = (typeof ADMIN_API)[N] extends {
  query: infer Q extends TProperties;
}
  ? Partial<Static<TObject<Q>>>
  : Record<string, never>;

/**
 * The 200 answer of an endpoint, for the query `Q` a caller gives: an endpoint whose `view` changes the
 * answer's shape answers the view asked for (the default answer when none is).
 */
export type AnswerOf<N extends AdminEndpointName, Q = unknown> = (typeof ADMIN_API)[N] extends {
  views: infer V extends Record<string, TSchema>;
}
  ? Q extends { view: infer K extends keyof V }
    ? Static<V[K]>
    : DefaultAnswer<N>
  : DefaultAnswer<N>;

/** The answer without a `view`: the declared JSON, or the text of a body that is not JSON. */
type DefaultAnswer<N extends AdminEndpointName> = (typeof ADMIN_API)[N]['response'] extends infer R
  ? R extends TSchema
    ? Static<R>
    : string
  : never;

/** The path parameters an endpoint's path names, e.g. {siteId, feedId}. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/**
 * The URL path (and query) of an endpoint: path parameters filled in (encoded), query parameters in the
 * declared order, undefined ones left out. Clients build every admin URL with it.
 */
export function adminPath<N extends AdminEndpointName>(
  name: N,
  params: Record<string, string | number> = {},
  query: QueryOf<N> = {} as QueryOf<N>,
): string {
  const endpoint: Endpoint = ADMIN_API[name];
  const path = endpoint.path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`${name}: path parameter ${key} is missing`);
    return encodePart(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    if (value === undefined) continue;
    if (!endpoint.query || !(key in endpoint.query))
      throw new Error(`${name}: ${key} is not one of its query parameters`);
    search.set(key, String(value));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}
