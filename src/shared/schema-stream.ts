// Schemas of the stream's messages (src/shared/stream.ts, `GET /_sandbox/stream`) and the clock.
import { Type } from '@sinclair/typebox';
import { closed, literals, nullable, dto } from './schema-base';
import type { ClockState, IndexRequestNotice, ResetScope, StreamMessage } from './stream';
import { RecordedEventSchema, UpstreamAnswerSchema } from './schema-events';
import { FeedViewSchema, OutboxMessageSchema } from './schema-indexing';
import { PageTimelineSummarySchema } from './schema-timeline';

export const ClockStateShape = closed(
  { now: Type.String(), offsetMs: Type.Number(), frozen: Type.Boolean() },
  'sandbox time',
);
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const ClockStateSchema = dto<ClockState>(ClockStateShape);

export const ResetScopeShape = closed({
  what: literals(['events', 'all'] as const),
  siteId: Type.Optional(Type.String()),
});
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const ResetScopeSchema = dto<ResetScope>(ResetScopeShape);

export const IndexRequestNoticeShape = closed({
  at: Type.String(),
  method: Type.String(),
  endpoint: literals(['status', 'feed'] as const),
  siteId: Type.String(),
  feedId: nullable(Type.Integer()),
  status: Type.Integer(),
  accepted: Type.Boolean(),
  message: nullable(Type.String()),
  workflow: nullable(Type.String()),
});
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const IndexRequestNoticeSchema = dto<IndexRequestNotice>(IndexRequestNoticeShape);

const message = <T extends string, D extends Parameters<typeof closed>[0][string]>(
  type: T,
  data: D,
) => closed({ type: Type.Literal(type), data });

/** Every message of the stream: the SSE event name is `type`, its data is `data`. */
export const StreamMessageShape = Type.Union([
  message('event', RecordedEventSchema),
  message('timeline', PageTimelineSummarySchema),
  message('feed', FeedViewSchema),
  message('outbox', OutboxMessageSchema),
  message('clock', ClockStateSchema),
  message('reset', ResetScopeSchema),
  message('indexRequest', IndexRequestNoticeSchema),
  message('upstream', closed({ eventId: Type.String(), upstream: UpstreamAnswerSchema })),
]);
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const StreamMessageSchema = dto<StreamMessage>(StreamMessageShape);
