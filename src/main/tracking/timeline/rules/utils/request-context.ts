// What the page-scope tallies read of a request's body: its context.pageUrl and the time it was created
// (its timestamp, else its receive time), as readEvent reads them, without building the event again.
import type { RecordedEvent } from '../../../../../shared/events';
import { isObject } from '../../../../../shared/values';
import { parseRfc3339 } from '../../model';

/** context of an accepted request (validated: an object); {} for anything else */
function contextOf(rec: RecordedEvent): Record<string, unknown> {
  if (!rec.accepted || !isObject(rec.body)) return {};
  const ctx = rec.body.context;
  return isObject(ctx) ? ctx : {};
}

/** data of an accepted request; {} for anything else */
export function dataOf(rec: RecordedEvent): Record<string, unknown> {
  if (!rec.accepted || !isObject(rec.body)) return {};
  const data = rec.body.data;
  return isObject(data) ? data : {};
}

/** context.attribution of an accepted request as sent (undefined when it carries none) */
export function attributionOf(rec: RecordedEvent): unknown {
  return contextOf(rec).attribution;
}

/** context.pageUrl of an accepted request (null when its body holds none to read) */
export function pageUrlOf(rec: RecordedEvent): string | null {
  const url = contextOf(rec).pageUrl;
  return typeof url === 'string' ? url : null;
}

/** the URL without its fragment: setting location.href to another fragment loads no page */
export function withoutHash(url: string): string {
  const i = url.indexOf('#');
  return i < 0 ? url : url.slice(0, i);
}

/** `url` resolved against `base` as location.href = url would, without its fragment; '' when it cannot be */
export function resolveUrl(url: string, base: string): string {
  try {
    return withoutHash(new URL(url, base).href);
  } catch {
    return '';
  }
}

/** when the request's event was created: its timestamp, else its receive time (0 without either) */
export function timeOf(rec: RecordedEvent): number {
  const ts = contextOf(rec).timestamp;
  const ms = parseRfc3339(typeof ts === 'string' ? ts : null);
  if (ms !== null) return ms;
  const received = Date.parse(rec.receivedAt);
  return Number.isFinite(received) ? received : 0;
}

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

/** Is it an absolute URL (a scheme first), as window.location.href always is? */
export function isAbsoluteUrl(url: string): boolean {
  return ABSOLUTE.test(url);
}
