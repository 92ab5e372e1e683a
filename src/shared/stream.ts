// The one envelope pushed on the bus and over Server-Sent Events (`GET /_sandbox/stream`).
import type { RecordedEvent } from './events';

export type StreamType =
  | 'event'
  | 'timeline'
  | 'feed'
  | 'outbox'
  | 'clock'
  | 'reset'
  | 'indexRequest'
  /** the real service answered a forwarded beacon: `{eventId, upstream}` */
  | 'upstream';

export interface StreamMessage<T = unknown> {
  type: StreamType;
  data: T;
}

export type EventMessage = StreamMessage<RecordedEvent> & { type: 'event' };

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
