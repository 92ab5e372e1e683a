// The admin API (`/_sandbox/*`) as one declaration: every endpoint with its method, path, query, body and
// answers. TypeBox gives each schema's TypeScript type, the server's validation and the JSON Schema of
// `GET /_sandbox/openapi.json` from the same source. The server mounts its routes and parses queries and
// bodies with it (src/main/http/admin-query.ts), the clients build their URLs and know their answers' types
// by it, and test/api/admin-answers.test.ts validates every real answer against it.
//
// An entry (one per endpoint, keyed by the name clients call it by):
//   method, path        `GET`, `/_sandbox/things/{id}` (`{name}` for path parameters)
//   summary             one line for the OpenAPI document
//   params?             the path parameters that are not any text: a TypeBox schema each (a feed's number),
//                       checked before the handler runs and typed in `req.params`; the others are strings
//   query?              the query parameters: a TypeBox schema each (admin-params.ts has the helpers and
//                       the filter groups; an unknown or bad parameter is a 400 naming it; `required(…)`
//                       one the endpoint cannot answer without, `siteIdParam(…)` a siteId, whose 400
//                       names the configured sites)
//   body?               how the request body is read: its media (json, ndjson, raw), schema, size cap and
//                       the text its refusals quote (schema-endpoint.ts; admin-bodies.ts: each JSON field's
//                       rule, the wording of its 400s); mount reads it before the handler runs
//   response            the 200 answer: a schema from src/shared/schema-*.ts (closed objects: an undeclared
//                       field fails the answers test), or {mediaType, description} for a body that is not JSON
//   views?              {param, answers}: when a query parameter (view, format, follow) changes the answer,
//                       the answer for each of its values; `response` is the one without it
//   errors?             the schema of each status other than 200 it may answer (400 is always possible; a
//                       body adds 413 and 415: declaredErrors)
// A new endpoint: its entry here, one mount(router, name, handler) in a router (src/main/http/routes), its
// calls in test/api/admin-answers.test.ts (docs/admin-api.md, "The declaration and openapi.json").
import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import {
  EVENT_FILTERS,
  MAX_EVENT_LIMIT,
  MAX_TIMELINE_LIMIT,
  MAX_WAIT_MS,
  TIMELINE_FILTERS,
  flag,
  oneOf,
  nonEmpty,
  required,
  siteIdParam,
  text,
  whole,
  type RequiredParam,
} from './admin-params';
import {
  AmbiguousSchema,
  CatalogSchema,
  ClockNotStoredSchema,
  ErrorSchema,
  EventListSchema,
  ExportSchema,
  HealthSchema,
  ImportAnswerSchema,
  InvalidImportSchema,
  OpenApiSchema,
  ResetAnswerSchema,
  SearchResponsesSchema,
  TrackingCheckSchema,
  TrackingSchemaSchema,
  TrackingSchemasSchema,
  TransitionRefusedSchema,
  WaitDoneSchema,
  WaitTimeoutSchema,
  WaitClosingSchema,
  StorageFailedSchema,
  ClosingSchema,
} from './schema-admin';
import { RecordedEventSchema } from './schema-events';
import { FeedViewSchema, OutboxMessageSchema, PatchedFeedSchema } from './schema-indexing';
import { IssuedResponseSchema } from './schema-search';
import { ClockStateSchema, ResetScopeSchema, StreamMessageSchema } from './schema-stream';
import {
  PageKeySchema,
  PageTimelineSchema,
  PageTimelineSummarySchema,
  TimelineReportSchema,
  timelineList,
} from './schema-timeline';
import { RuleDetailSchema, RuleInfoSchema } from './schema-visits';
import { ReadinessSchema } from './schema-readiness';
import { DIFF_ENDPOINTS, VISIT_ENDPOINTS } from './admin-api-visits';
import { closed } from './schema-base';
import {
  ADMIN_BODY_BYTES,
  BEACON_BODY_BYTES,
  IMPORT_BODY_BYTES,
  PATCH_FEED_BODY,
  RESET_BODY,
  SET_CLOCK_BODY,
  TRANSITION_BODY,
} from './admin-bodies';
import {
  declaredErrors,
  isMediaAnswer,
  type Answer,
  type BodyDeclaration,
  type Endpoint,
} from './schema-endpoint';
import { encodePart } from './text';
import { SEVERITIES } from './verdict';

export { MAX_EVENT_LIMIT, MAX_TIMELINE_LIMIT, MAX_WAIT_MS };
export { declaredErrors, isMediaAnswer };
export type {
  Answer,
  BodyDeclaration,
  BodyMedia,
  Endpoint,
  MediaAnswer,
  Method,
} from './schema-endpoint';

// ---- the endpoints ----

const bodyObject = <P extends TProperties>(description: string, properties: P) =>
  closed(properties, description);

const NOT_FOUND = { 404: ErrorSchema } as const;
/** a read of the feeds shows them only once stored: one the data directory refuses to store is a 503 */
const FEED_READ = { 404: ErrorSchema, 503: ErrorSchema } as const;

/** a write the data directory may refuse (a full disk): 503 StorageFailed */
const STORAGE = { 503: StorageFailedSchema } as const;

/** A feed's path: its number is the indexing API's feedId, a whole number. */
const FEED_PARAMS = {
  feedId: whole(0, Number.MAX_SAFE_INTEGER, 'the feed’s number: the indexing API’s feedId'),
} satisfies TProperties;

const TIMELINE_LIST = timelineList(PageTimelineSchema, '{pages, total, verdicts}: full pages');

export const ADMIN_API = {
  health: {
    method: 'GET',
    path: '/_sandbox/health',
    summary: 'liveness, version, data directory, start-up warnings and forwarding statistics',
    response: HealthSchema,
  },
  openapi: {
    method: 'GET',
    path: '/_sandbox/openapi.json',
    summary: 'this document (OpenAPI 3.1)',
    response: OpenApiSchema,
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
    response: EventListSchema,
    views: {
      param: 'follow',
      answers: {
        false: EventListSchema,
        true: {
          mediaType: 'application/x-ndjson',
          description:
            'one recorded event a line; a reset as {"reset": scope}; a blank line every 15 s',
          items: Type.Union([
            RecordedEventSchema,
            bodyObject('a reset', { reset: ResetScopeSchema }),
          ]),
        },
      },
    },
  },
  event: {
    method: 'GET',
    path: '/_sandbox/events/{id}',
    summary: 'one recorded event',
    response: RecordedEventSchema,
    errors: NOT_FOUND,
  },
  wait: {
    method: 'GET',
    path: '/_sandbox/wait',
    summary: 'block until `count` matching events are recorded (200) or the timeout passes (408)',
    query: {
      ...EVENT_FILTERS,
      limit: whole(0, MAX_EVENT_LIMIT, 'at most this many events in the answer'),
      count: whole(1, MAX_EVENT_LIMIT, 'how many matching events to wait for (default 1)'),
      timeout: whole(
        0,
        Number.MAX_SAFE_INTEGER,
        `ms to wait (default 10000, capped at ${MAX_WAIT_MS})`,
      ),
    },
    response: WaitDoneSchema,
    errors: { 408: WaitTimeoutSchema, 503: WaitClosingSchema },
  },
  reset: {
    method: 'POST',
    path: '/_sandbox/reset',
    summary: 'forget events and timelines; {"what":"all"} also resets feeds, catalogs and outbox',
    query: { siteId: nonEmpty('reset only this site') },
    body: {
      media: 'json',
      schema: RESET_BODY,
      maxBytes: ADMIN_BODY_BYTES,
      expected: '{"what":"events"|"all","siteId":"…"} or nothing',
      optional: true,
    },
    response: ResetAnswerSchema,
    // a siteId no account has; a reset the data directory cannot store
    errors: { 404: ErrorSchema, ...STORAGE },
  },
  stream: {
    method: 'GET',
    path: '/_sandbox/stream',
    summary:
      'Server-Sent Events: event, timeline, feed, outbox, clock, reset, indexRequest, upstream (src/shared/stream.ts)',
    query: {
      types: text('comma-separated message types to receive (default: all)'),
    },
    response: {
      mediaType: 'text/event-stream',
      description: 'one SSE event per message: `event: <type>`, `data: {"type", "data"}`',
      items: StreamMessageSchema,
    },
    stream: true,
  },
  export: {
    method: 'GET',
    path: '/_sandbox/export',
    summary: 'the events (filtered) and every area’s section, as one file for a bug report',
    query: EVENT_FILTERS,
    response: ExportSchema,
  },
  import: {
    method: 'POST',
    path: '/_sandbox/import',
    summary: 'append (or with replace=true, replace) events from an export, an array or NDJSON',
    query: { replace: flag('reset events first') },
    body: {
      media: 'ndjson',
      schema: Type.Unknown({ description: 'an export, a bare array of events, or NDJSON' }),
      maxBytes: IMPORT_BODY_BYTES,
      expected: 'a sandbox export, a bare array of recorded events, or NDJSON of them',
      tooLarge: `request entity too large: an import body may have at most ${IMPORT_BODY_BYTES / 1024 / 1024} MB; nothing was imported (split the events into several imports)`,
      // read into a worker as it arrives, each event's depth checked there (store/import-body.ts)
      streamed: true,
    },
    response: ImportAnswerSchema,
    errors: {
      400: Type.Union([ErrorSchema, InvalidImportSchema]),
      503: Type.Union([StorageFailedSchema, ClosingSchema]),
    },
  },
  rules: {
    method: 'GET',
    path: '/_sandbox/rules',
    summary:
      'every rule as its module declares it: id, description, appliesTo, defaultSeverity, fix, scope',
    response: Type.Array(RuleInfoSchema, { description: 'every rule, in the order they run' }),
  },
  rule: {
    method: 'GET',
    path: '/_sandbox/rules/{id}',
    summary:
      'one rule explained: its declaration, each message with its fix, and the behaviours of the provider’s client it checks',
    response: RuleDetailSchema,
    errors: NOT_FOUND,
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
    response: TIMELINE_LIST,
    views: {
      param: 'view',
      answers: {
        full: TIMELINE_LIST,
        summary: timelineList(PageTimelineSummarySchema, '{pages: summaries, total, verdicts}'),
        keys: timelineList(PageKeySchema, '{pages: [{siteId, pageLoadId}], total, verdicts}'),
      },
    },
  },
  timeline: {
    method: 'GET',
    path: '/_sandbox/timelines/{pageLoadId}',
    summary: 'one page (404 unknown, 409 when two sites share the pageLoadId: add siteId)',
    query: { siteId: text('the page’s site') },
    response: PageTimelineSchema,
    errors: { 404: ErrorSchema, 409: AmbiguousSchema },
  },
  report: {
    method: 'GET',
    path: '/_sandbox/report',
    summary: 'every page judged as finished: JSON, JUnit XML or one HTML file',
    query: {
      ...TIMELINE_FILTERS,
      format: oneOf(['json', 'junit', 'html'] as const, 'json (default), junit or html'),
      failOn: oneOf(
        SEVERITIES,
        'the severity from which a page fails the JUnit report (default error)',
      ),
    },
    response: TimelineReportSchema,
    views: {
      param: 'format',
      answers: {
        json: TimelineReportSchema,
        junit: { mediaType: 'application/xml', description: 'JUnit XML: a test case per page' },
        html: { mediaType: 'text/html', description: 'one self-contained HTML file' },
      },
    },
  },
  ...VISIT_ENDPOINTS,
  readiness: {
    method: 'GET',
    path: '/_sandbox/readiness',
    summary:
      'integration readiness of one site: each behaviour of the client model ok, with findings, unseen (with the call that sends it) or not applicable',
    query: {
      siteId: required(
        siteIdParam(
          'the site: one of the config’s accounts, or a siteId whose beacons were recorded (404 for another)',
        ),
        'readiness is per site',
      ),
      finished: flag(
        'judge every page as if it has ended, as `check --readiness` and expectReady do: a page still open (not yet idle) shows what it will show once it ends',
      ),
    },
    response: ReadinessSchema,
    errors: NOT_FOUND,
  },
  trackingSchemas: {
    method: 'GET',
    path: '/_sandbox/tracking/schemas',
    summary: 'the JSON Schemas beacons are validated with',
    response: TrackingSchemasSchema,
  },
  trackingSchema: {
    method: 'GET',
    path: '/_sandbox/tracking/schemas/{category}/{event}',
    summary: 'one endpoint’s JSON Schema',
    response: TrackingSchemaSchema,
    errors: NOT_FOUND,
  },
  trackingCheck: {
    method: 'POST',
    path: '/_sandbox/tracking/check/{siteId}/{category}/{event}',
    summary: 'dry run: what the service would answer to this body; nothing is recorded',
    body: {
      media: 'raw',
      schema: Type.Unknown({ description: 'a beacon body, with the Content-Type a beacon has' }),
      maxBytes: BEACON_BODY_BYTES,
      expected: 'a beacon body, as a storefront sends it',
    },
    response: TrackingCheckSchema,
  },
  feeds: {
    method: 'GET',
    path: '/_sandbox/feeds',
    summary: 'every feed with its state, history and last run',
    query: {
      siteId: siteIdParam('feeds of this site, one of the config’s accounts (404 for another)'),
    },
    response: bodyObject('{feeds}', { feeds: Type.Array(FeedViewSchema) }),
    errors: FEED_READ,
  },
  feed: {
    method: 'GET',
    path: '/_sandbox/feeds/{siteId}/{feedId}',
    summary: 'one feed',
    params: FEED_PARAMS,
    response: FeedViewSchema,
    errors: FEED_READ,
  },
  patchFeed: {
    method: 'PATCH',
    path: '/_sandbox/feeds/{siteId}/{feedId}',
    summary: 'feed settings and injected faults',
    params: FEED_PARAMS,
    body: {
      media: 'json',
      schema: PATCH_FEED_BODY,
      maxBytes: ADMIN_BODY_BYTES,
      expected: 'a JSON object of feed settings, e.g. {"interval":"PT6H","autopilot":false}',
    },
    response: PatchedFeedSchema,
    errors: { ...NOT_FOUND, ...STORAGE },
  },
  transition: {
    method: 'POST',
    path: '/_sandbox/feeds/{siteId}/{feedId}/transition',
    summary: 'move a feed along the state table by hand (409 lists the allowed targets)',
    params: FEED_PARAMS,
    body: {
      media: 'json',
      schema: TRANSITION_BODY,
      maxBytes: ADMIN_BODY_BYTES,
      expected: '{"to": "<a feed state>"}, e.g. {"to":"running"}',
    },
    response: FeedViewSchema,
    errors: { 404: ErrorSchema, 409: TransitionRefusedSchema, ...STORAGE },
  },
  catalog: {
    method: 'GET',
    path: '/_sandbox/feeds/{siteId}/{feedId}/catalog',
    summary: 'the feed’s indexed catalog',
    params: FEED_PARAMS,
    query: {
      limit: whole(1, 1000, 'products in the answer (default 100)'),
      offset: whole(0, Number.MAX_SAFE_INTEGER, 'index of the first product (default 0)'),
    },
    response: CatalogSchema,
    errors: FEED_READ,
  },
  clock: {
    method: 'GET',
    path: '/_sandbox/clock',
    summary: 'sandbox time',
    response: ClockStateSchema,
  },
  setClock: {
    method: 'POST',
    path: '/_sandbox/clock',
    summary: 'move the sandbox clock: {"advance":"PT61M"}, {"set":"…"} or {"reset":true}',
    body: {
      media: 'json',
      schema: SET_CLOCK_BODY,
      maxBytes: ADMIN_BODY_BYTES,
      expected: '{"advance":"PT61M"}, {"set":"2026-11-21T04:00:00Z"} or {"reset":true}',
    },
    response: ClockStateSchema,
    // the feed steps the move caused could not be stored: where the clock is and what moved
    errors: { 503: ClockNotStoredSchema },
  },
  outbox: {
    method: 'GET',
    path: '/_sandbox/outbox',
    summary: 'status e-mails produced for requestedBy, newest last',
    query: {
      siteId: siteIdParam('messages of this site, one of the config’s accounts (404 for another)'),
      feedId: whole(0, Number.MAX_SAFE_INTEGER, 'messages of this feed'),
      to: text('messages to this address'),
    },
    response: bodyObject('{messages}', { messages: Type.Array(OutboxMessageSchema) }),
    errors: NOT_FOUND,
  },
  clearOutbox: {
    method: 'DELETE',
    path: '/_sandbox/outbox',
    summary: 'empty the outbox',
    response: bodyObject('{messages: []}', {
      messages: Type.Array(OutboxMessageSchema, { maxItems: 0 }),
    }),
    errors: STORAGE,
  },
  searchResponses: {
    method: 'GET',
    path: '/_sandbox/search/responses',
    summary: 'responses the companion search API issued, newest first',
    query: {
      siteId: text('responses of this site'),
      limit: whole(1, 1000, 'at most this many (default 50)'),
      responseId: text('only this response: a list of it, or empty when it was never issued'),
      pageLoadId: text(
        'only the responses a page load asked for (the pageLoadId its search request carried; with siteId, that site’s)',
      ),
    },
    response: SearchResponsesSchema,
  },
  searchResponse: {
    method: 'GET',
    path: '/_sandbox/search/responses/{responseId}',
    summary: 'one issued response',
    response: IssuedResponseSchema,
    errors: NOT_FOUND,
  },
  ...DIFF_ENDPOINTS,
} as const satisfies Record<string, Endpoint>;

export type AdminEndpointName = keyof typeof ADMIN_API;

/** The parameters of a query declared `required`. */
type RequiredKeys<Q extends TProperties> = {
  [K in keyof Q]: Q[K] extends RequiredParam<TSchema> ? K : never;
}[keyof Q];

/** The parsed query of an endpoint: each parameter's own type, optional unless declared `required`. */
export type QueryOf<N extends AdminEndpointName> = (typeof ADMIN_API)[N] extends {
  query: infer Q extends TProperties;
}
  ? Partial<Static<TObject<Q>>> &
      Pick<Static<TObject<Q>>, RequiredKeys<Q> & keyof Static<TObject<Q>>>
  : Record<string, never>;

/** The body an endpoint takes, by its declared schema (never for one that takes none). */
export type BodyOf<N extends AdminEndpointName> = (typeof ADMIN_API)[N] extends {
  body: { schema: infer B extends TSchema };
}
  ? Static<B>
  : never;

/** The body declaration of an endpoint (undefined when it takes none). */
export function bodyOf(name: AdminEndpointName): BodyDeclaration | undefined {
  return (ADMIN_API[name] as Endpoint).body;
}

/**
 * The 200 answer of an endpoint, for the query `Q` a caller gives: an endpoint whose view parameter
 * (`view`, `format`, `follow`) changes the answer's shape answers the view asked for (the default answer
 * when none is). JSON answers are their schema's type, other bodies their text.
 */
export type AnswerOf<N extends AdminEndpointName, Q = unknown> = (typeof ADMIN_API)[N] extends {
  views: { param: infer P extends string; answers: infer V extends Record<string, Answer> };
}
  ? Q extends { [K in P]: infer K2 extends string | boolean }
    ? `${K2}` extends keyof V
      ? AnswerType<V[`${K2}`]>
      : AnswerType<(typeof ADMIN_API)[N]['response']>
    : AnswerType<(typeof ADMIN_API)[N]['response']>
  : AnswerType<(typeof ADMIN_API)[N]['response']>;

/** The declared JSON's type, or the text of a body that is not JSON. */
type AnswerType<R> = R extends TSchema ? Static<R> : string;

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
