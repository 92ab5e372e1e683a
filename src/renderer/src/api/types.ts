// The admin API shapes the UI reads. Re-exported from src/shared where the owning area publishes them,
// so a change on the server side is a type error here rather than a blank screen.
import type { ForwardStats } from '../../../shared/events';
export type { RecordedEvent, UpstreamAnswer, ValidationIssue } from '../../../shared/events';
export type { ClockState, StreamMessage, StreamType } from '../../../shared/stream';

export interface Health {
  status: string;
  version: string;
  configSource?: string;
  dataDir?: string | null;
  /** the siteIds of the config's accounts, in config order */
  sites?: string[];
  warnings?: string[];
  /** beacon forwarding to the real service (accounts[].tracking.forward) */
  forwarding?: ForwardStats;
}
