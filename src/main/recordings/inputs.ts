// The formats of recorded beacon traffic (for `check`, `diff`, uploads and the desktop's import): NDJSON
// (bare bodies or recorded events), a sandbox export, or a browser HAR. Every body is validated with the
// tracking interface's own validator.
import { countUpTo } from '../sorted';
import type { RecordedEvent, ValidationIssue } from '../../shared/events';
import { parseBeaconPath } from '../tracking/beacon-path';
import { validateBeaconBody } from '../tracking/schemas';
import { isTimelineEndpoint } from '../../shared/kinds';
import { isVisitEndpoint } from '../tracking/visits/events';
import type { IssuedResponse } from '../search/responses';
import type { RecordedCatalog } from '../search/catalog-view';
import {
  readIssuedResponses,
  readRecordedCatalogs,
  readRecordedSites,
  type RecordedSite,
} from '../tracking/timeline/offline-provenance';
import { isObject } from '../../shared/values';

/** Input that cannot be read: the message names the file (and line) and what was expected. */
export class InputError extends Error {}

export interface ReadResult {
  kind: 'ndjson' | 'export' | 'har';
  events: RecordedEvent[];
  /** the search responses a sandbox export carries (its `search` section), for the provenance rules */
  responses?: IssuedResponse[];
  /** the search settings of the sites the recording sandbox had (its `search.sites`) */
  sites?: RecordedSite[];
  /** the catalogs it checked sites' ids against (its `search.catalogs`) */
  catalogs?: RecordedCatalog[];
  /** beacon requests that are not timeline events, or HAR entries skipped (for a note on stderr) */
  notes: string[];
}

/** The endpoint of a bare body of the rest of the visit, told apart by its required fields. */
function inferVisitEndpoint(data: Record<string, unknown>): [string, string] | null {
  if ('orderId' in data || 'transactionTotal' in data) return ['order', 'transaction'];
  if (isObject(data.result)) return ['product', 'pageview'];
  return null;
}

/** The event a bare body is, told apart by the fields each schema requires. */
function inferEvent(body: Record<string, unknown>): string | null {
  const data = body.data;
  if (!isObject(data)) return null;
  if ('cart' in data) return null;
  if (typeof data.redirect === 'string') return 'redirect';
  const results = Array.isArray(data.results) ? data.results : undefined;
  if (results?.some((r) => isObject(r) && ('qty' in r || 'price' in r))) return 'addtocart';
  if (results !== undefined && Array.isArray(data.banners)) return 'impression';
  if (results !== undefined || Array.isArray(data.banners)) return 'clickthrough';
  // a render holds only the responseId (and a widget's tag)
  if (
    typeof data.responseId === 'string' &&
    Object.keys(data).every((k) => k === 'responseId' || k === 'tag')
  )
    return 'render';
  return null;
}

/** What the service would have answered a body read offline: accepted, or its status and problems. */
function validated(
  category: string,
  event: string,
  body: unknown,
): { accepted: boolean; status: number; errors: ValidationIssue[] } {
  let errors: ValidationIssue[];
  try {
    errors = validateBeaconBody(`${category}/${event}`, body);
  } catch {
    return {
      accepted: false,
      status: 404,
      errors: [{ message: `not a beacon v2 endpoint: ${category}/${event}`, path: '' }],
    };
  }
  return errors.length === 0
    ? { accepted: true, status: 200, errors }
    : { accepted: false, status: 400, errors };
}

export interface Counter {
  seq: number;
}

function makeEvent(
  counter: Counter,
  id: string,
  parts: {
    siteId: string;
    category: string;
    event: string;
    receivedAt: string;
    body: unknown;
    path?: string;
  },
  verdict?: { accepted: boolean; status: number; errors: ValidationIssue[] },
): RecordedEvent {
  const judged = verdict ?? validated(parts.category, parts.event, parts.body);
  // every field named (not the verdict spread in): one shape for every event, built without a copy loop
  return {
    id,
    seq: ++counter.seq,
    receivedAt: parts.receivedAt,
    siteId: parts.siteId,
    category: parts.category,
    event: parts.event,
    path: parts.path ?? `/beacon/v2/${parts.siteId}/${parts.category}/${parts.event}`,
    accepted: judged.accepted,
    status: judged.status,
    errors: judged.errors,
    body: parts.body,
  };
}

/** One NDJSON line or export element: a recorded event (kept as recorded) or a bare beacon body. */
export function fromRecord(
  v: unknown,
  where: string,
  id: string,
  counter: Counter,
): RecordedEvent | null {
  if (!isObject(v))
    throw new InputError(
      `${where}: expected a JSON object (a beacon body or a recorded event), got ${Array.isArray(v) ? 'an array' : typeof v}`,
    );
  if ('body' in v && (typeof v.event === 'string' || typeof v.path === 'string')) {
    const parsed = typeof v.path === 'string' ? parseBeaconPath(v.path) : null;
    // `kind` is the timelines' name of the category, so {kind: "category", event, body} works as well
    const category =
      typeof v.category === 'string'
        ? v.category
        : typeof v.kind === 'string'
          ? v.kind
          : (parsed?.category ?? 'search');
    const event = typeof v.event === 'string' ? v.event : (parsed?.event ?? '');
    const siteId = typeof v.siteId === 'string' ? v.siteId : (parsed?.siteId ?? '');
    const receivedAt = typeof v.receivedAt === 'string' ? v.receivedAt : '';
    // A recorded event keeps the sandbox's verdict; a hand-written one is validated here.
    const recorded =
      typeof v.accepted === 'boolean' && Array.isArray(v.errors)
        ? {
            accepted: v.accepted,
            status: typeof v.status === 'number' ? v.status : v.accepted ? 200 : 400,
            errors: v.errors as ValidationIssue[],
          }
        : undefined;
    return makeEvent(
      counter,
      typeof v.id === 'string' ? v.id : id,
      { siteId, category, event, receivedAt, body: v.body },
      recorded,
    );
  }
  if ('context' in v || 'data' in v) {
    const data = isObject(v.data) ? v.data : {};
    const visit = inferVisitEndpoint(data);
    if (visit)
      return makeEvent(counter, id, {
        siteId: '',
        category: visit[0],
        event: visit[1],
        receivedAt: '',
        body: v,
      });
    const event = inferEvent(v);
    if (!event)
      throw new InputError(
        'cart' in data
          ? `${where}: a cart body does not say whether it adds or removes: wrap it as {"category": "cart", "event": "add", "body": {…}} (or "remove")`
          : `${where}: cannot tell which event this body is (render, redirect, impression, clickthrough, addtocart, product pageview, order): wrap it as {"kind": "search", "event": "…", "body": {…}}`,
      );
    // A bare body does not say its endpoint: data.tag makes it a recommendation widget's, anything else is
    // taken for search. Category, autocomplete and bundles bodies are wrapped with their kind.
    return makeEvent(counter, id, {
      siteId: '',
      category: typeof data.tag === 'string' ? 'recommendations' : 'search',
      event,
      receivedAt: '',
      body: v,
    });
  }
  throw new InputError(
    `${where}: not a beacon body ({context, data}) nor a recorded event ({event, body, …})`,
  );
}

function parseNdjson(text: string, file: string, prefix: string, counter: Counter): ReadResult {
  const events: RecordedEvent[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (err) {
      throw new InputError(
        `${file}:${i + 1}: not valid JSON (${(err as Error).message}); expected one beacon body or recorded event per line`,
      );
    }
    const ev = fromRecord(v, `${file}:${i + 1}`, `${prefix}line:${i + 1}`, counter);
    if (ev) events.push(ev);
  });
  return { kind: 'ndjson', events, notes: [] };
}

function parseHar(
  har: Record<string, unknown>,
  file: string,
  prefix: string,
  counter: Counter,
): ReadResult {
  const log = har.log;
  if (!isObject(log) || !Array.isArray(log.entries))
    throw new InputError(
      `${file}: not a HAR file: "log.entries" is missing (save it from DevTools › Network › "Save all as HAR")`,
    );
  const entries: unknown[] = log.entries;
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

/** Parse one file's text. `prefix` makes generated ids unique across several files. */
export function parseInput(
  text: string,
  file: string,
  prefix = '',
  counter: Counter = { seq: 0 },
): ReadResult {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed === '')
    throw new InputError(
      `${file}: empty file: expected NDJSON of beacon events, a sandbox export or a HAR file`,
    );
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) {
    throw new InputError(
      `${file}:1: not JSON: expected NDJSON of beacon events, a sandbox export (GET /_sandbox/export) or a HAR file`,
    );
  }
  let whole: unknown;
  try {
    whole = JSON.parse(trimmed);
  } catch (err) {
    // NDJSON when its first line is JSON on its own (a bad later line is named by its number); else one
    // document over several lines that does not parse: cut off, or broken somewhere
    if (firstLineParses(trimmed)) return parseNdjson(text, file, prefix, counter);
    throw new InputError(brokenDocument(trimmed, file, (err as Error).message));
  }
  if (isObject(whole) && whole.format === 'search-sandbox-baseline')
    throw new InputError(
      `${file} is a baseline file (written by expectMatchesBaseline), not a recording to check: compare a recording with it, search-sandbox diff ${file} RECORDING`,
    );
  if (Array.isArray(whole)) {
    return {
      kind: 'export',
      events: whole.map((v, i) =>
        fromRecord(v, `${file}: element ${i}`, `${prefix}event:${i + 1}`, counter)!,
      ),
      notes: [],
    };
  }
  if (isObject(whole) && 'log' in whole) return parseHar(whole, file, prefix, counter);
  if (isObject(whole) && Array.isArray(whole.events)) {
    if (whole.format !== undefined && whole.format !== 'search-sandbox-export') {
      throw new InputError(
        `${file}: format is ${JSON.stringify(whole.format)}: expected "search-sandbox-export" (a file saved by GET /_sandbox/export)`,
      );
    }
    const responses = whole.search === undefined ? [] : readIssuedResponses(whole.search, file);
    if (typeof responses === 'string') throw new InputError(responses);
    const sites = whole.search === undefined ? [] : readRecordedSites(whole.search, file);
    if (typeof sites === 'string') throw new InputError(sites);
    const catalogs = whole.search === undefined ? [] : readRecordedCatalogs(whole.search, file);
    if (typeof catalogs === 'string') throw new InputError(catalogs);
    return {
      kind: 'export',
      events: whole.events.map((v, i) =>
        fromRecord(v, `${file}: events[${i}]`, `${prefix}event:${i + 1}`, counter)!,
      ),
      notes: [],
      ...(responses.length > 0 && { responses }),
      ...(sites.length > 0 && { sites }),
      ...(catalogs.length > 0 && { catalogs }),
    };
  }
  // a one-line NDJSON file
  if (!/\n/.test(trimmed)) return parseNdjson(text, file, prefix, counter);
  // valid JSON over several lines that is neither an export nor a HAR
  throw new InputError(
    isObject(whole) && ('context' in whole || 'data' in whole || 'body' in whole)
      ? `${file}: one beacon body or event pretty-printed over several lines: NDJSON holds one per line (e.g. jq -c . ${file})`
      : `${file}: valid JSON, but not a recording: expected NDJSON of beacon events (one per line), a sandbox export ({"events": […]}, from GET /_sandbox/export) or a HAR file ({"log": {"entries": […]}})`,
  );
}

function firstLineParses(text: string): boolean {
  const newline = text.indexOf('\n');
  try {
    JSON.parse(newline === -1 ? text : text.slice(0, newline));
    return true;
  } catch {
    return false;
  }
}

/** Why one JSON document over several lines did not parse: cut off at its end, or broken at a line. */
function brokenDocument(text: string, file: string, message: string): string {
  const expected =
    'expected a sandbox export or a HAR file, or NDJSON of beacon events (one per line)';
  const at = /at position (\d+)/.exec(message);
  // V8: "Unexpected end of JSON input", or an error at the very end of the text
  if (/end of JSON input/.test(message) || (at && Number(at[1]) >= text.length - 1))
    return `${file}: a JSON document that is cut off (truncated after ${text.length} characters, it never closes): record or export it again, and let the copy finish`;
  // V8 quotes a short input whole instead of giving a position
  const why = message.replace(
    / in JSON at position \d+.*$|, (?:\.\.\.)?".*" is not valid JSON$/s,
    '',
  );
  if (!at) return `${file}: not valid JSON (${why}); ${expected}`;
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  const column = Number(at[1]) - before.lastIndexOf('\n');
  return `${file}:${line}:${column}: not valid JSON (${why}); ${expected}`;
}
