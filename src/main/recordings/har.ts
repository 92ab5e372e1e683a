// A browser's HAR (DevTools › Network › Save all as HAR) read as the service received it: the beacon v2 POSTs
// among its entries, a 307/308 the browser followed counted once where it arrived (with the body Chromium
// leaves off the second entry), and requests that never left the browser left out with a note.
import { countUpTo } from '../sorted';
import type { RecordedEvent, ValidationIssue } from '../../shared/events';
import { parseBeaconPath } from '../tracking/beacon-path';
import { isTimelineEndpoint } from '../../shared/kinds';
import { isVisitEndpoint } from '../tracking/visits/events';
import { isObject } from '../../shared/values';
import { InputError, makeEvent, type Counter, type ReadResult } from './recorded';

/** One HAR's beacon events; `prefix` makes their generated ids unique across several files. */
export function parseHar(
  har: Record<string, unknown>,
  file: string,
  prefix: string,
  counter: Counter,
): ReadResult {
  const entries = harEntries(har.log, file);
  const redirects = followedRedirects(entries);
  const events: RecordedEvent[] = [];
  let other = 0;
  let bodiless = 0;
  const unsent = new Map<string, number>();
  entries.forEach((entry, i) => {
    // answered with a redirect that the browser followed: the request is counted once, where it arrived
    if (redirects.followed.has(i)) return;
    const beacon = harBeacon(entry);
    if (beacon === 'other') other++;
    if (beacon === null || beacon === 'other') return;
    const failure = neverSent(entry);
    if (failure !== null) {
      unsent.set(failure, (unsent.get(failure) ?? 0) + 1);
      return;
    }
    const postData = redirects.bodies.get(i) ?? beacon.postData;
    if (postData === undefined) bodiless++;
    const { body, verdict } = postedBody(postData);
    events.push(
      makeEvent(
        counter,
        `${prefix}entry:${i + 1}`,
        {
          siteId: beacon.siteId,
          category: beacon.category,
          event: beacon.event,
          receivedAt: startedAt(entry),
          body,
          path: beacon.path,
        },
        verdict,
      ),
    );
  });
  // not one beacon with its body: the HAR was saved without request bodies (each would read as the
  // storefront's "missing JSON POST body"), not a storefront that sent none
  if (events.length > 0 && bodiless === events.length)
    throw new InputError(
      `${file}: none of its ${events.length} beacon request${events.length === 1 ? '' : 's'} carries its body (request.postData): the HAR was saved without request bodies; save it again from the browser's DevTools › Network with the requests' bodies`,
    );
  const notes: string[] = [];
  if (other > 0)
    notes.push(
      `${file}: ${other} other beacon request${other === 1 ? '' : 's'} (not events the timelines judge: chat, log, …) skipped`,
    );
  if (unsent.size > 0) {
    const count = [...unsent.values()].reduce((a, b) => a + b, 0);
    const why = [...unsent].map(([text, n]) => `${text} ×${n}`).join(', ');
    notes.push(
      `${file}: ${count} beacon request${count === 1 ? '' : 's'} never left the browser (${why}) and ${count === 1 ? 'is' : 'are'} not judged: the service never received ${count === 1 ? 'it' : 'them'}; check the beacon origin the storefront sends to, and what blocks it`,
    );
  }
  return { kind: 'har', events, notes };
}

/** What a JSON value is, as a message names it: `a string`, `an object`, `null`, … */
function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** A HAR's `log.entries`; what is missing or of the wrong type is named, with how to save a HAR. */
function harEntries(log: unknown, file: string): unknown[] {
  const save = 'save it from DevTools › Network › "Save all as HAR"';
  if (!isObject(log))
    throw new InputError(
      `${file}: not a HAR file: "log" is ${jsonType(log)}, expected an object with "entries", the requests (${save})`,
    );
  if (!('entries' in log))
    throw new InputError(`${file}: not a HAR file: "log.entries" is missing (${save})`);
  if (!Array.isArray(log.entries))
    throw new InputError(
      `${file}: not a HAR file: "log.entries" is ${jsonType(log.entries)}, expected an array of entries, one per request (${save})`,
    );
  return log.entries;
}

/** Statuses with which a browser sends a request again, method and body unchanged, to the address given. */
const BODY_KEEPING_REDIRECTS = new Set([307, 308]);

/**
 * The entries answered with a 307 or 308 that the browser followed (a later entry of the same method asks
 * for the address the answer named), and the body each followed request was sent with: one request, which
 * a HAR records as two entries, and Chromium records the second without its body.
 */
function followedRedirects(entries: unknown[]): {
  followed: Set<number>;
  bodies: Map<number, unknown>;
} {
  const followed = new Set<number>();
  const bodies = new Map<number, unknown>();
  // the entries of each method and URL, in order, each taken by one redirect at most: a redirect finds the
  // request that followed it among those of its target, not by reading every later entry again
  const byRequest = new Map<string, number[]>();
  entries.forEach((entry, j) => {
    if (!isObject(entry) || !isObject(entry.request)) return;
    const key = `${String(entry.request.method)} ${String(entry.request.url)}`;
    const list = byRequest.get(key);
    if (list) list.push(j);
    else byRequest.set(key, [j]);
  });
  entries.forEach((entry, i) => {
    if (!isObject(entry) || !isObject(entry.request) || !isObject(entry.response)) return;
    const { request, response } = entry;
    if (!BODY_KEEPING_REDIRECTS.has(Number(response.status))) return;
    const target = redirectTarget(request.url, response);
    if (target === null) return;
    const later = byRequest.get(`${String(request.method)} ${target}`);
    if (!later) return;
    // the first entry after this one not taken by an earlier redirect
    let at = countUpTo(later, i, (j) => j);
    while (at < later.length && bodies.has(later[at]!)) at++;
    if (at === later.length) return;
    const j = later[at]!;
    followed.add(i);
    // a chain of redirects carries the first request's body to the last
    bodies.set(j, bodies.get(i) ?? request.postData);
  });
  return { followed, bodies };
}

/** The absolute URL a redirect answer names (`redirectURL`, else its Location header), or null. */
function redirectTarget(from: unknown, response: Record<string, unknown>): string | null {
  let location = typeof response.redirectURL === 'string' ? response.redirectURL : '';
  if (location === '' && Array.isArray(response.headers)) {
    const header = response.headers.find(
      (h) => isObject(h) && String(h.name).toLowerCase() === 'location',
    );
    if (isObject(header) && typeof header.value === 'string') location = header.value;
  }
  if (location === '' || typeof from !== 'string') return null;
  try {
    return new URL(location, from).href;
  } catch {
    return null;
  }
}

/**
 * Chromium's errors (a HAR's `response._failureText`) for a request that never reached a server: no
 * connection was made, or the browser refused to make it. Others (net::ERR_ABORTED of a beacon sent as
 * the page unloads, net::ERR_FAILED of a CORS-blocked answer) come after the request was sent.
 */
const NEVER_SENT =
  /^net::ERR_(?:CONNECTION_REFUSED|CONNECTION_TIMED_OUT|NAME_NOT_RESOLVED|NAME_RESOLUTION_FAILED|ADDRESS_UNREACHABLE|ADDRESS_INVALID|INTERNET_DISCONNECTED|UNSAFE_PORT|BLOCKED_BY_CLIENT|BLOCKED_BY_ADMINISTRATOR|BLOCKED_BY_CSP|PROXY_CONNECTION_FAILED|TUNNEL_CONNECTION_FAILED|CERT_[A-Z_]+|SSL_[A-Z_]+)$/;

/** The failure of an entry whose request never reached a server (no answer, and an error that says so). */
function neverSent(entry: unknown): string | null {
  if (!isObject(entry) || !isObject(entry.response)) return null;
  const { response } = entry;
  if (Number(response.status) > 0 || typeof response._failureText !== 'string') return null;
  return NEVER_SENT.test(response._failureText) ? response._failureText : null;
}

/**
 * The beacon v2 POST a HAR entry holds: its endpoint and posted data; 'other' for a beacon request that
 * is no event the timelines or visits judge; null for any other request.
 */
function harBeacon(
  entry: unknown,
):
  | { path: string; siteId: string; category: string; event: string; postData: unknown }
  | 'other'
  | null {
  if (!isObject(entry) || !isObject(entry.request)) return null;
  const req = entry.request;
  if (typeof req.url !== 'string' || String(req.method).toUpperCase() !== 'POST') return null;
  let pathname: string;
  try {
    pathname = new URL(req.url).pathname;
  } catch {
    return null;
  }
  const at = pathname.indexOf('/beacon/v2/');
  if (at < 0) return null;
  const where = parseBeaconPath(pathname.slice(at));
  if (
    !where.ok ||
    (!isTimelineEndpoint(where.category, where.event) &&
      !isVisitEndpoint(where.category, where.event))
  )
    return 'other';
  const { siteId, category, event } = where;
  return { path: pathname.slice(at), siteId, category, event, postData: req.postData };
}

/** A HAR request's posted text as a body: parsed JSON, or the text with the 400 the service would answer. */
function postedBody(postData: unknown): {
  body: unknown;
  verdict: { accepted: boolean; status: number; errors: ValidationIssue[] } | undefined;
} {
  const post = isObject(postData) ? postData : {};
  let text = typeof post.text === 'string' ? post.text : '';
  if (post.encoding === 'base64') text = Buffer.from(text, 'base64').toString('utf8');
  const refused = (message: string) => ({
    accepted: false,
    status: 400,
    errors: [{ message, path: '' }],
  });
  if (text === '') return { body: text, verdict: refused('missing JSON POST body') };
  try {
    return { body: JSON.parse(text), verdict: undefined };
  } catch {
    return { body: text, verdict: refused('invalid JSON POST body') };
  }
}

/** When the entry's request started, as ISO 8601; empty when the HAR does not say. */
function startedAt(entry: unknown): string {
  return isObject(entry) &&
    typeof entry.startedDateTime === 'string' &&
    Number.isFinite(Date.parse(entry.startedDateTime))
    ? new Date(entry.startedDateTime).toISOString()
    : '';
}
