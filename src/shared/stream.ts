// The messages pushed on the bus and over Server-Sent Events (`GET /_sandbox/stream`): one typed union,
// declared once by its schema (src/shared/schema-stream.ts), so a reader switching on `type` gets each
// message's data without a cast (test/unit/admin-schemas.test.ts holds it to STREAM_TYPES).
import type { Static } from '@sinclair/typebox';
import type { StreamMessageShape } from './schema-stream';

/**
 * Every message type of the stream, declared once: the server's `types` filter, the UI's listeners and
 * the schema of `GET /_sandbox/stream` (src/shared/schema-stream.ts) read it. `upstream`: the real
 * service answered a forwarded beacon, `{eventId, upstream}`.
 */
export const STREAM_TYPES = [
  'event',
  'timeline',
  'feed',
  'outbox',
  'clock',
  'reset',
  'indexRequest',
  'upstream',
] as const;
export type StreamType = (typeof STREAM_TYPES)[number];

/** What a reset forgot: events (and their timelines) or everything; one site or all. */
export interface ResetScope {
  what: 'events' | 'all';
  siteId?: string;
}

/**
 * `event` (RecordedEvent), `timeline` (PageTimelineSummaryDto), `feed` (FeedView), `outbox` (OutboxMessage),
 * `clock` (ClockState), `reset` (ResetScope), `indexRequest` (IndexRequestNotice), `upstream`
 * (`{eventId, upstream}`): `{type, data}`.
 */
export type StreamMessage = Static<typeof StreamMessageShape>;

export interface ClockState {
  /** sandbox time, ISO 8601 UTC */
  now: string;
  /** sandbox time minus real time, ms */
  offsetMs: number;
  /** true when the clock is frozen (only moves when advanced) */
  frozen: boolean;
}

/**
 * One request to the bulk indexing interface as answered (`indexRequest` messages), whatever the
 * outcome: status reads, uploads, refusals, wrong credentials. Never carries the secret key.
 */
export interface IndexRequestNotice {
  /** sandbox time of the answer, ISO 8601 UTC */
  at: string;
  method: string;
  endpoint: 'status' | 'feed';
  /** the account's siteId, or the user name the client sent when it was not accepted ('' without one) */
  siteId: string;
  feedId: number | null;
  status: number;
  accepted: boolean;
  /** the error message of a refusal, or what the service made of an accepted feed request */
  message: string | null;
  /** the first finding when a feed request did not follow the recommended workflow */
  workflow: string | null;
}
