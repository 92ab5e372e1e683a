// Schemas of the recorded events (src/shared/events.ts): `GET /_sandbox/events`, `/wait`, `/export`, the
// stream's `event` and `upstream` messages.
import { Type } from '@sinclair/typebox';
import { closed, json, literals, nullable, dto } from './schema-base';
import type { ForwardStats, RecordedEvent, UpstreamAnswer } from './events';

export const ValidationIssueSchema = closed({
  message: Type.String(),
  path: Type.String(),
});

export const UpstreamAnswerShape = closed(
  {
    url: Type.String(),
    outcome: literals(['accepted', 'rejected', 'unavailable', 'not-sent'] as const),
    status: nullable(Type.Integer()),
    body: json('parsed JSON, else text (cut at 64 KiB); null when there was none'),
    at: Type.String(),
    ms: nullable(Type.Number()),
    error: Type.Optional(Type.String()),
  },
  'what the real beacon service answered to a forwarded request',
);
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const UpstreamAnswerSchema = dto<UpstreamAnswer>(UpstreamAnswerShape);

export const RecordedEventShape = closed(
  {
    id: Type.String({ description: '`ev_` + zero-padded seq' }),
    seq: Type.Integer(),
    receivedAt: Type.String({ description: 'sandbox-clock receive time, ISO 8601, UTC' }),
    clockOffsetMs: Type.Optional(
      Type.Integer({
        description:
          'the sandbox clock minus real time when it was received (ms): present only when the clock was moved (advanced, set or frozen); receivedAt minus it is the real time of receipt',
      }),
    ),
    siteId: Type.String(),
    category: Type.String(),
    event: Type.String(),
    path: Type.String(),
    method: Type.Optional(
      Type.String({
        description:
          'the request method when it was not POST (a CORS preflight OPTIONS, a GET): the service refused it with 405; absent for POST',
      }),
    ),
    accepted: Type.Boolean(),
    status: Type.Integer(),
    errors: Type.Array(ValidationIssueSchema),
    body: json('the parsed JSON body, the raw text when it was not JSON, or null'),
    bodyTruncated: Type.Optional(closed({ length: Type.Integer(), kept: Type.Integer() })),
    userAgent: Type.Optional(Type.String()),
    origin: Type.Optional(Type.String()),
    contentType: Type.Optional(Type.String()),
    upstream: Type.Optional(UpstreamAnswerSchema),
  },
  'one tracking request as the sandbox recorded it',
);
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const RecordedEventSchema = dto<RecordedEvent>(RecordedEventShape);

export const ForwardStatsShape = closed({
  sites: Type.Array(closed({ siteId: Type.String(), base: Type.String() })),
  queued: Type.Integer(),
  inFlight: Type.Integer(),
  accepted: Type.Integer(),
  rejected: Type.Integer(),
  unavailable: Type.Integer(),
  dropped: Type.Integer(),
});
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const ForwardStatsSchema = dto<ForwardStats>(ForwardStatsShape);
