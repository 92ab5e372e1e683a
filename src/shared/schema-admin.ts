// Schemas of the admin API's own answers (those that are no DTO of an area): health, the event list and
// long-poll, reset, import/export, the tracking schemas, a feed's catalog, the issued search responses,
// and the error answers.
import { Type, type TSchema } from '@sinclair/typebox';
import { closed, json, nullable } from './schema-base';
import { ForwardStatsSchema, RecordedEventSchema, ValidationIssueSchema } from './schema-events';
import { ProductSchema } from './schema-indexing';
import { IssuedResponseSchema } from './schema-search';
import { ResetScopeSchema } from './schema-stream';

export const HealthSchema = closed({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unwritable')], {
    description:
      'ok, or unwritable: the data directory cannot take a write now (full disk, no permission); nothing new is acknowledged',
  }),
  problem: Type.Optional(
    Type.String({ description: 'with unwritable: which file, why, and what to do' }),
  ),
  version: Type.String(),
  configSource: Type.String({ description: 'where the config came from' }),
  dataDir: nullable(Type.String({ description: 'null when ephemeral' })),
  sites: Type.Array(Type.String(), {
    description: 'the siteIds of the config’s accounts, in config order',
  }),
  warnings: Type.Array(Type.String(), { description: 'start-up warnings' }),
  forwarding: ForwardStatsSchema,
});

export const OpenApiSchema = Type.Object(
  { openapi: Type.Literal('3.1.0'), info: Type.Object({}), paths: Type.Object({}) },
  { description: 'an OpenAPI 3.1 document' },
);

export const EventListSchema = closed({
  events: Type.Array(RecordedEventSchema, { description: 'oldest first' }),
  count: Type.Integer(),
  truncated: Type.Boolean({ description: 'more matched than limit: the newest are kept' }),
  retained: Type.Integer({ description: 'events the sandbox holds' }),
  lastSeq: nullable(
    Type.Integer({
      description:
        'the seq of the newest event matching the filters, whatever limit (null: none match); since= it answers only later ones',
    }),
  ),
});

const waited = {
  count: Type.Integer({ description: 'events in the answer' }),
  timeoutMs: Type.Integer(),
  note: Type.Optional(Type.String({ description: 'set when the timeout asked was capped' })),
  events: Type.Array(RecordedEventSchema),
};

export const WaitDoneSchema = closed({ done: Type.Literal(true), ...waited });

export const WaitTimeoutSchema = closed({
  done: Type.Literal(false),
  error: Type.Literal('Timeout'),
  message: Type.String(),
  ...waited,
});

export const WaitClosingSchema = closed({
  done: Type.Literal(false),
  error: Type.Literal('Closing'),
  message: Type.String(),
  ...waited,
});

export const ResetAnswerSchema = closed({
  reset: ResetScopeSchema,
  removed: Type.Integer({ description: 'events forgotten' }),
  retained: Type.Integer({ description: 'events kept (another site’s)' }),
  note: Type.Optional(
    Type.String({
      description:
        'for a siteId of no configured site that had no events (most likely a typo): so, and the nearest configured site',
    }),
  ),
});

export const ImportAnswerSchema = closed({
  imported: Type.Integer(),
  firstId: nullable(Type.String()),
  lastId: nullable(Type.String()),
  sections: Type.Array(Type.String(), { description: 'sections imported besides the events' }),
  ignoredSections: Type.Array(Type.String(), {
    description: 'sections this sandbox has no use for',
  }),
});

/** Open: each area adds its own section (indexing, search, …) beside the events. */
export const ExportSchema = Type.Object(
  {
    format: Type.Literal('search-sandbox-export'),
    version: Type.Literal(1),
    exportedAt: Type.String(),
    sandboxVersion: Type.String(),
    events: Type.Array(RecordedEventSchema),
  },
  { description: 'the events and every area’s section (by the area’s name)' },
);

export const TrackingSchemasSchema = closed({
  source: Type.Record(Type.String(), Type.String(), {
    description: 'where the schemas were generated from',
  }),
  tightenings: Type.Array(Type.String()),
  endpoints: Type.Array(
    closed({
      endpoint: Type.String(),
      category: Type.String(),
      event: Type.String(),
      path: Type.String(),
      examples: Type.Array(Type.String({ description: 'example names' })),
    }),
  ),
});

export const TrackingSchemaSchema = closed({
  endpoint: Type.String(),
  schema: Type.Record(Type.String(), json(), { description: 'a JSON Schema' }),
  examples: Type.Record(Type.String(), json(), { description: 'example bodies by name' }),
});

export const TrackingCheckSchema = closed({
  status: Type.Integer({ description: 'the status the service would answer' }),
  body: json('the body the service would answer'),
  errors: Type.Array(ValidationIssueSchema),
});

export const CatalogSchema = closed({
  siteId: Type.String(),
  feedId: Type.Integer(),
  indexedAt: nullable(Type.String()),
  total: Type.Integer(),
  products: Type.Array(ProductSchema),
});

export const SearchResponsesSchema = closed({
  responses: Type.Array(IssuedResponseSchema, { description: 'newest first' }),
  remembered: Type.Integer(),
  rememberedSince: Type.String(),
});

/** Every refusal: what went wrong, and (for a bad parameter) which and what is allowed. */
/** 503 of a write the data directory refused (a full disk): nothing of it is stored, unless the message says what is. */
export const StorageFailedSchema = closed({
  error: Type.Literal('StorageFailed'),
  message: Type.String({
    description:
      'what was stored and what was not, the file, why (e.g. the disk is full) and the fix',
  }),
});

/** 503 of a request the sandbox could not finish because it began closing (Ctrl-C, SIGTERM). */
export const ClosingSchema = closed({
  error: Type.Literal('Closing'),
  message: Type.String({ description: 'what became of the request (an import: undone)' }),
});

export const ErrorSchema = closed({
  error: Type.String({
    description:
      'BadRequest, NotFound, Conflict, Forbidden, RequestTooLarge, UnsupportedMediaType…',
  }),
  message: Type.String(),
  /** the query or path parameter, `body`, `body.<field>`, `content-type` or `content-encoding` refused */
  parameter: Type.Optional(Type.String()),
  allowed: Type.Optional(Type.Array(Type.String())),
  limit: Type.Optional(
    closed(
      {
        value: Type.String({ description: 'what was sent, described (never echoed whole)' }),
        rule: Type.String({ description: 'the rule it breaks' }),
        fix: Type.String({ description: 'what to send instead' }),
      },
      'a body refused by its size, depth, syntax or Content-Type, or a path parameter that does not decode',
    ),
  ),
});

export const AmbiguousSchema = ErrorSchema;

export const InvalidImportSchema = closed({
  error: Type.Literal('InvalidImport'),
  message: Type.String(),
  problems: Type.Array(Type.String()),
});

export const TransitionRefusedSchema = closed({
  error: Type.Literal('TransitionRefused'),
  message: Type.String(),
  from: Type.String(),
  to: Type.String(),
  allowed: Type.Array(Type.String()),
});

export type ErrorStatus = 400 | 403 | 404 | 405 | 408 | 409 | 413 | 415 | 431 | 503;
export type ErrorAnswers = Partial<Record<ErrorStatus, TSchema>>;

/** A clock move whose feed steps could not be stored: where the clock is, and each feed that moved. */
export const ClockNotStoredSchema = closed({
  error: Type.Literal('StorageFailed'),
  message: Type.String(),
  now: Type.String({ description: "the clock's time after the move (ISO)" }),
  moved: Type.Array(
    closed(
      {
        feed: Type.String({ description: 'siteId/feedId' }),
        from: Type.String(),
        to: Type.String(),
      },
      'a feed the move stepped, not stored',
    ),
  ),
});
