// The one envelope pushed on the bus and over Server-Sent Events (`GET /_sandbox/stream`).
import type { RecordedEvent } from './events';

export type StreamType = 'event' | 'timeline' | 'feed' | 'outbox' | 'clock' | 'reset';

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
