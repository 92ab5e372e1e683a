// Recorded tracking requests: the one shape shared by the event store, the timelines, the admin API and the UI.

/** A problem found in a tracking body, in the real service's message style, with the JSON path it concerns. */
export interface ValidationIssue {
  /** e.g. `missing required key-value: context.timestamp` */
  message: string;
  /** dotted JSON path of the offending value, e.g. `context.timestamp`, `data.results[0].uid`; '' for the whole body */
  path: string;
}

/** One tracking request as the sandbox recorded it, accepted or rejected. */
export interface RecordedEvent {
  /** stable id, `ev_` + zero-padded seq, unique within a data directory */
  id: string;
  /** monotonic sequence number (arrival order) */
  seq: number;
  /** sandbox-clock receive time, ISO 8601 with milliseconds, UTC */
  receivedAt: string;
  /**
   * The sandbox clock's time minus real time when it was received, whole ms (`POST /_sandbox/clock`
   * advanced or set it, or it is frozen): receivedAt minus this is the real time of receipt. Absent when
   * the clock ran at real time (and in recordings made before it was recorded). `timestamp-skew` reads it,
   * so a storefront whose clock is right is not flagged for the clock's move, live, after a restart and in
   * `check` alike (src/shared/clock-offset.ts).
   */
  clockOffsetMs?: number;
  /** siteId from the path ('' when the path had none) */
  siteId: string;
  /** beacon v2 category: `search`, `autocomplete`, `category`, `product`, `cart`, `order`, `shopper`, `log`, … */
  category: string;
  /** the event within the category: `render`, `impression`, `clickthrough`, `addtocart`, `redirect`, `pageview`, `add`, … */
  event: string;
  /** request path as received, e.g. `/beacon/v2/abc123/search/render` */
  path: string;
  /**
   * The request's method when it was not POST (a browser's CORS preflight `OPTIONS`, a `GET` typed into
   * the address bar): the service refuses it (405), and a replay of the request needs it. Absent for POST
   * (every beacon the client sends), and in recordings made before it was recorded.
   */
  method?: string;
  accepted: boolean;
  /** HTTP status the sandbox answered with */
  status: number;
  errors: ValidationIssue[];
  /** the parsed JSON body, or the raw text when it was not JSON, or null when there was none */
  body: unknown;
  /**
   * Set when `body` holds only the start of the text: a rejected body over 64 KiB keeps its first 64 KiB
   * (the real service drops it; the sandbox keeps enough to show what was wrong, in bounded memory).
   */
  bodyTruncated?: { length: number; kept: number };
  userAgent?: string;
  origin?: string;
  contentType?: string;
  /** what the real service answered when the request was forwarded to it (`accounts[].tracking.forward`) */
  upstream?: UpstreamAnswer;
}

/**
 * The statuses of requests the service refuses before it reads the body, with their names: the request
 * itself was wrong (its path, method, size or Content-Type), so its body was never validated. A 400 is
 * a body that was read and failed validation.
 */
export const REFUSALS: ReadonlyMap<number, string> = new Map([
  [404, 'Not Found'],
  [405, 'Method Not Allowed'],
  [413, 'Content Too Large'],
  [415, 'Unsupported Media Type'],
]);

/**
 * A method as a request line carries it, which a recorded event keeps (`method`): upper-case letters and
 * hyphens, as every method Node's HTTP parser admits is written (`OPTIONS`, `GET`, `M-SEARCH`).
 */
export const METHOD_TOKEN = /^[A-Z][A-Z-]{0,19}$/;

/** Refused before validation (404, 405, 413, 415): the timelines' request-refused, not schema. */
export function isRefusal(rec: Pick<RecordedEvent, 'accepted' | 'status'>): boolean {
  return !rec.accepted && REFUSALS.has(rec.status);
}

/** The service's refusal of a request by another method than POST (a browser's CORS preflight: OPTIONS). */
export function methodRefused(method: string): string {
  return `invalid request method: \`${method}\` - requires \`POST\``;
}

/** How the real service's 405 to an OPTIONS request begins. */
const PREFLIGHT_REFUSED = 'invalid request method: `OPTIONS`';

/** `text/plain;charset=UTF-8` → `text/plain` */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The Content-Types a page may send across origins without a CORS preflight (Fetch's safelist). */
const CORS_SAFELISTED_TYPES = new Set([
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
]);

/** Does a browser send a cross-origin request of this Content-Type only after a CORS preflight? */
export function typePreflighted(contentType: string | undefined): boolean {
  const type = mediaType(contentType);
  return type !== '' && !CORS_SAFELISTED_TYPES.has(type);
}

/**
 * A browser's CORS preflight, refused: the real service answers OPTIONS 405 like any method but POST
 * (docs/tracking.md), `firstMessage` being the first of its messages.
 */
export function isRefusedPreflight(status: number, firstMessage: string | undefined): boolean {
  return status === 405 && firstMessage !== undefined && firstMessage.startsWith(PREFLIGHT_REFUSED);
}

/**
 * What a refused CORS preflight to `path` was, and the fix: the one wording of the timelines'
 * request-refused finding and of the UI's rows for it (Connect, the request inspector).
 */
export function refusedPreflight(path: string): { wrong: string; fix: string } {
  return {
    wrong: `it is a browser’s CORS preflight (OPTIONS ${path}): a beacon sent with a Content-Type other than text/plain (application/json, say) makes the browser ask first, and the real service refuses, so the event itself is never sent`,
    fix: 'send beacons as text/plain with the JSON body, as the provider’s client does (do not override requesters.beacon.headers’ Content-Type)',
  };
}

/** A recorded request's explanation, when its refusal's message does not say what happened; else null. */
export function refusalExplained(
  rec: Pick<RecordedEvent, 'status' | 'errors' | 'path'>,
): { wrong: string; fix: string } | null {
  return isRefusedPreflight(rec.status, rec.errors[0]?.message) ? refusedPreflight(rec.path) : null;
}

/**
 * The real beacon service's answer to a forwarded request, recorded after the sandbox had answered.
 * `outcome`: `accepted` (2xx), `rejected` (4xx other than 429), `unavailable` (429, 5xx, other statuses,
 * no answer in time, unreachable) or `not-sent` (the forwarding queue was full, or the body was not kept).
 */
export interface UpstreamAnswer {
  /** the URL the request was sent to */
  url: string;
  outcome: 'accepted' | 'rejected' | 'unavailable' | 'not-sent';
  /** HTTP status; null when there was no answer */
  status: number | null;
  /** the answer's body: parsed JSON, else text (cut at 64 KiB); null when there was none */
  body: unknown;
  /** sandbox time the answer arrived (or the attempt ended), ISO 8601 */
  at: string;
  /** real milliseconds from sending to the answer; null when not sent */
  ms: number | null;
  /** why there is no verdict: timeout, connection refused, queue full, … */
  error?: string;
}

/** `GET /_sandbox/health` → `forwarding`: where beacons are forwarded, and what became of them. */
export interface ForwardStats {
  /** siteIds whose beacons are forwarded, with where to */
  sites: Array<{ siteId: string; base: string }>;
  /** waiting to be sent, and being sent now */
  queued: number;
  inFlight: number;
  /** answers by outcome since start */
  accepted: number;
  rejected: number;
  unavailable: number;
  /** not sent because the queue was full (or the body was not kept) */
  dropped: number;
}

export const SEARCH_EVENTS = [
  'render',
  'redirect',
  'impression',
  'clickthrough',
  'addtocart',
] as const;
export type SearchEventName = (typeof SEARCH_EVENTS)[number];
