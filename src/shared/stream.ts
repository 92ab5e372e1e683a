// The messages pushed on the bus and over Server-Sent Events (`GET /_sandbox/stream`): one typed union,
// so a reader switching on `type` gets each message's data without a cast.
import type { RecordedEvent, UpstreamAnswer } from './events';
import type { FeedView, OutboxMessage } from './indexing';
import type { PageTimelineSummaryDto } from './timeline';

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

/** What a reset forgot: events (and their timelines) or everything; one site or all. */
export interface ResetScope {
  what: 'events' | 'all';
  siteId?: string;
}

export type StreamMessage =
  | { type: 'event'; data: RecordedEvent }
  | { type: 'timeline'; data: PageTimelineSummaryDto }
  | { type: 'feed'; data: FeedView }
  | { type: 'outbox'; data: OutboxMessage }
  | { type: 'clock'; data: ClockState }
  | { type: 'reset'; data: ResetScope }
  | { type: 'indexRequest'; data: IndexRequestNotice }
  | { type: 'upstream'; data: { eventId: string; upstream: UpstreamAnswer } };

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
