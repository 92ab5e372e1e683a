// A recorded request's method, as the inspector shows and replays it.
import type { RecordedEvent } from '../../api/types';

/** The request's method: recorded when it was not POST (a CORS preflight, a GET), absent for POST. */
export function eventMethod(e: Pick<RecordedEvent, 'method'>): string {
  return e.method ?? 'POST';
}
