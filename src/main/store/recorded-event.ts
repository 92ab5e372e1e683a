// What a recorded event must be, as one rule for every reader of one: the journal at start-up, an import
// (`POST /_sandbox/import`) and `check`'s reader of recordings. An event one of them accepts the others
// accept: the journal keeps nothing its own export could not be imported or checked with.
import { METHOD_TOKEN, type ValidationIssue } from '../../shared/events';
import { clockOffsetProblem } from '../../shared/clock-offset';
import { parseRfc3339 } from '../../shared/rfc3339';
import { upstreamProblem } from './upstream-log';

const STRINGS = ['siteId', 'category', 'event', 'path'] as const;
const OPTIONAL_STRINGS = ['userAgent', 'origin', 'contentType'] as const;

/**
 * Why `v` is not a recorded event as the sandbox writes one, or null when it is one; each reason names the
 * field ("field body is missing …"). `withIdAndSeq`: its id and seq are required (the journal's records);
 * an import assigns them again.
 */
export function recordedEventProblem(
  v: Record<string, unknown>,
  withIdAndSeq: boolean,
): string | null {
  if (withIdAndSeq) {
    if (typeof v.id !== 'string' || v.id === '') return 'field id must be a string';
    if (typeof v.seq !== 'number' || !Number.isInteger(v.seq) || v.seq < 1)
      return 'field seq must be a positive whole number';
  }
  if (typeof v.receivedAt !== 'string') return 'field receivedAt must be a string';
  const at = receivedAtProblem(v.receivedAt);
  if (at) return at;
  for (const key of STRINGS) if (typeof v[key] !== 'string') return `field ${key} must be a string`;
  if (typeof v.accepted !== 'boolean') return 'field accepted must be true or false';
  if (typeof v.status !== 'number') return 'field status must be a number';
  if (!Number.isInteger(v.status) || v.status < 100 || v.status > 599)
    return `field status must be an HTTP status (100 to 599), got ${v.status}`;
  // the service accepts a beacon exactly when it answers 200: an event saying otherwise was edited
  if (v.accepted !== (v.status === 200))
    return `field accepted is ${v.accepted} with status ${v.status}: an event is accepted exactly when its status is 200`;
  if (!isIssues(v.errors))
    return 'field errors must be the list of what the sandbox found wrong, [{"message": "…", "path": "…"}]';
  if (v.clockOffsetMs !== undefined) {
    const problem = clockOffsetProblem(v.clockOffsetMs);
    if (problem) return problem;
  }
  for (const key of OPTIONAL_STRINGS)
    if (v[key] !== undefined && typeof v[key] !== 'string')
      return `field ${key} must be a string when present`;
  if (v.method !== undefined) {
    const problem = methodProblem(v.method, v.status);
    if (problem) return `field method ${problem}`;
  }
  if (!('body' in v)) return 'field body is missing (use null for a request without a body)';
  if (v.bodyTruncated !== undefined && !isKeptBody(v.bodyTruncated, v.body))
    return 'field bodyTruncated must be {"length": N, "kept": K} with K <= N, beside a body that is its first K characters (a string)';
  if (v.upstream !== undefined) return upstreamProblem(v.upstream);
  return null;
}

/**
 * Why `method` is not a recorded event's method (RecordedEvent.method), or null: an HTTP method other than
 * POST, upper-case as a request line carries it (a POST is recorded without one), of a request the service
 * did not accept (it accepts POST only).
 */
export function methodProblem(method: unknown, status: unknown): string | null {
  if (typeof method !== 'string' || !METHOD_TOKEN.test(method))
    return 'must be an HTTP method as a request line carries it (e.g. "OPTIONS", "GET")';
  if (method === 'POST') return 'is left out for a POST (every beacon is one)';
  if (status === 200)
    return `is ${method} with status 200: the service accepts POST only, so an accepted event has no method`;
  return null;
}

/** Why `at` is not a receive time (RFC 3339: a day, a time and its zone, e.g. "2026-11-21T05:00:00.000Z"), or null. */
export function receivedAtProblem(at: string): string | null {
  return parseRfc3339(at) === null
    ? `receivedAt ${JSON.stringify(at)} is not an ISO 8601 time with its zone, as the sandbox writes it (e.g. "2026-11-21T05:00:00.000Z")`
    : null;
}

/** A list of validation issues as the sandbox writes them: each {message, path} of strings. */
export function isIssues(v: unknown): v is ValidationIssue[] {
  if (!Array.isArray(v)) return false;
  for (const e of v)
    if (
      typeof e !== 'object' ||
      e === null ||
      typeof (e as { message?: unknown }).message !== 'string' ||
      typeof ((e as { path?: unknown }).path ?? '') !== 'string'
    )
      return false;
  return true;
}

/**
 * A recorded event's `bodyTruncated` as the sandbox writes it: {length, kept}, whole numbers with kept <=
 * length, beside a body that is the text's first `kept` characters (imports and the offline reader alike).
 */
export function isKeptBody(t: unknown, body: unknown): t is { length: number; kept: number } {
  if (!t || typeof t !== 'object') return false;
  const { length, kept } = t as { length?: unknown; kept?: unknown };
  return (
    Number.isSafeInteger(length) &&
    Number.isSafeInteger(kept) &&
    (kept as number) <= (length as number) &&
    typeof body === 'string'
  );
}
