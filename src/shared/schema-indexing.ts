// Schemas of the bulk-indexing shapes (src/shared/indexing.ts): feeds, the outbox, the stream's `feed`,
// `outbox` and `indexRequest` messages.
import { Type } from '@sinclair/typebox';
import { FEED_STATES, INDEX_STATUSES, TRANSITION_CAUSES } from './indexing';
import { closed, literals, nullable, dto } from './schema-base';
import type { FeedView, HistoryEntry, OutboxMessage, PatchedFeed } from './indexing';

const FeedState = literals(FEED_STATES);
const IndexStatus = literals(INDEX_STATUSES);
const Cause = literals(TRANSITION_CAUSES);

const WorkflowFindingSchema = closed({
  flag: literals([
    'no-status-check',
    'status-not-done',
    'requested-while-waiting',
    'paused-running-index',
    'retry-inside-hour',
    'plain-http',
    'sandbox-ui',
  ] as const),
  message: Type.String(),
});

const ScorecardSchema = closed({
  followed: Type.Boolean(),
  statusReadAt: nullable(Type.String()),
  statusSeen: nullable(IndexStatus),
  findings: Type.Array(WorkflowFindingSchema),
});

const ParseSummarySchema = closed({
  format: nullable(literals(['csv', 'tsv', 'ndjson', 'xml'] as const)),
  encoding: Type.String(),
  charset: Type.Optional(Type.String()),
  charsetNote: Type.Optional(nullable(Type.String())),
  products: Type.Integer(),
  idField: nullable(Type.String()),
  rowErrors: Type.Array(closed({ line: Type.Integer(), message: Type.String() })),
  rowErrorCount: Type.Integer(),
  rowWarnings: Type.Optional(Type.Array(closed({ line: Type.Integer(), message: Type.String() }))),
  rowWarningCount: Type.Optional(Type.Integer()),
  error: nullable(Type.String()),
  bytes: Type.Integer(),
  outcome: Type.Optional(literals(['done', 'error', 'regen_error'] as const)),
  finishedAt: Type.Optional(Type.String()),
  fileRead: Type.Optional(Type.Boolean()),
  indexed: Type.Optional(Type.Integer()),
  source: Type.Optional(Type.String()),
});

const history = { at: Type.String(), cause: Cause, detail: Type.String() };

export const HistoryEntryShape = Type.Union([
  closed({ ...history, kind: Type.Literal('transition'), from: FeedState, to: FeedState }),
  closed({
    ...history,
    kind: Type.Literal('request'),
    method: literals(['PUT', 'POST'] as const),
    status: Type.Integer(),
    accepted: Type.Boolean(),
    requestedBy: nullable(Type.String()),
    scorecard: ScorecardSchema,
  }),
  closed({ ...history, kind: Type.Literal('note') }),
]);
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const HistoryEntrySchema = dto<HistoryEntry>(HistoryEntryShape);

export const FeedViewShape = closed(
  {
    siteId: Type.String(),
    id: Type.Integer(),
    name: Type.String(),
    state: FeedState,
    indexStatus: IndexStatus,
    paused: Type.Boolean(),
    pausedReason: nullable(Type.String()),
    lastIndexed: nullable(Type.String()),
    nextIndexTime: nullable(Type.String()),
    interval: Type.String(),
    intervalMs: nullable(Type.Number()),
    source: Type.Union([
      closed({ kind: Type.Literal('upload') }),
      closed({
        kind: Type.Literal('cart'),
        file: Type.Optional(Type.String()),
        url: Type.Optional(Type.String()),
      }),
    ]),
    regeneration: Type.Boolean(),
    autopilot: Type.Boolean(),
    configured: closed({
      interval: Type.String(),
      autopilot: Type.Boolean(),
      regeneration: Type.Boolean(),
    }),
    idField: nullable(Type.String()),
    inject: closed({ nextIndexFails: Type.Boolean(), regenerationFails: Type.Boolean() }),
    allowedTransitions: Type.Array(FeedState),
    stepEndsAt: nullable(Type.String()),
    products: Type.Integer(),
    lastRun: nullable(ParseSummarySchema),
    searchServes: nullable(closed({ feedId: Type.Integer(), indexedAt: Type.String() })),
    parsing: nullable(closed({ bytes: Type.Integer(), products: Type.Integer() })),
    history: Type.Array(HistoryEntrySchema),
  },
  'a feed with its state, settings, last run and history',
);
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const FeedViewSchema = dto<FeedView>(FeedViewShape);

export const PatchedFeedShape = closed(
  { ...FeedViewShape.properties, changed: Type.Array(Type.String()) },
  'the feed after a PATCH, with each setting it changed in words (empty: it already had them)',
);
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const PatchedFeedSchema = dto<PatchedFeed>(PatchedFeedShape);

export const OutboxMessageShape = closed({
  id: Type.String(),
  at: Type.String(),
  to: Type.String(),
  from: Type.String(),
  subject: Type.String(),
  text: Type.String(),
  siteId: Type.String(),
  feedId: Type.Integer(),
  outcome: literals(['done', 'error', 'regen_error'] as const),
  delivery: closed({
    status: literals(['not-configured', 'pending', 'sent', 'failed'] as const),
    error: nullable(Type.String()),
    at: nullable(Type.String()),
  }),
});
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const OutboxMessageSchema = dto<OutboxMessage>(OutboxMessageShape);

/** A product of a feed's indexed catalog. */
export const ProductSchema = closed({
  uid: Type.String(),
  sku: nullable(Type.String()),
  parentId: nullable(Type.String()),
  name: nullable(Type.String()),
  price: nullable(Type.Number()),
  fields: Type.Record(Type.String(), Type.String(), { description: 'every field of the row' }),
  line: Type.Integer(),
});
