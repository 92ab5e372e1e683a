// A browser's HAR (DevTools › Network › Save all as HAR) read as the service received it: the beacon v2 POSTs
// among its entries, a 307/308 the browser followed counted once where it arrived (with the body Chromium
// leaves off the second entry); requests that never left the browser, and requests the service took whose
// body the HAR did not keep, left out with a note; requests the browser sent without waiting for their
// answer judged, with a note; a beacon blocked by its CORS preflight judged as the refused preflight the
// service received (as the live sandbox records it), with a note.
import { countUpTo } from '../sorted';
import {
  mediaType,
  methodRefused,
  typePreflighted,
  type RecordedEvent,
  type ValidationIssue,
} from '../../shared/events';
import { parseBeaconPath } from '../tracking/beacon-path';
import { isTimelineEndpoint } from '../../shared/kinds';
import { isVisitEndpoint } from '../tracking/visits/events';
import { isObject } from '../../shared/values';
import { plural } from '../../shared/text';
import { InputError, makeEvent, type Counter, type ReadResult } from './recorded';
import { harSearches } from './har-searches';
import { harIssued } from './har-issued';

/** One HAR's beacon events; `prefix` makes their generated ids unique across several files. */
export function parseHar(
  har: Record<string, unknown>,
  file: string,
  prefix: string,
  counter: Counter,
  sideBodies: ReadonlyMap<string, string> = new Map(),
): ReadResult {
  const entries = harEntries(har.log, file);
  const redirects = followedRedirects(entries);
  const events: RecordedEvent[] = [];
  let other = 0;
  // beacons that left the browser, and those of them whose entry holds no body at all
  let sent = 0;
  let bodiless = 0;
  let sideUnread = false;
  const unsent = new Tally();
  const unkept = new Tally();
  const unanswered = new Tally();
  const blocked = new Tally();
  entries.forEach((entry, i) => {
    // answered with a redirect that the browser followed: the request is counted once, where it arrived
    if (redirects.followed.has(i)) return;
    const beacon = harBeacon(entry);
    if (beacon === 'other') other++;
    if (beacon === null || beacon === 'other') return;
    const answer = answerOf(entry);
    if ('neverSent' in answer) return unsent.add(answer.neverSent);
    /** the event the entry is, as the service received it: its body, how it was sent, its verdict */
    const beaconEvent = (
      body: unknown,
      request: Parameters<typeof makeEvent>[2]['request'],
      verdict: Parameters<typeof makeEvent>[3],
    ) =>
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
          ...(request && { request }),
        },
        verdict,
      );
    // the browser sent only its CORS preflight, which the service refused: that is what it received
    const preflight = 'status' in answer ? blockedPreflight(entry, beacon.request, answer) : null;
    if (preflight) {
      blocked.add(preflight.contentType);
      events.push(
        beaconEvent(
          null,
          {
            method: 'OPTIONS',
            origin: preflight.origin,
            ...(preflight.userAgent !== undefined && { userAgent: preflight.userAgent }),
          },
          {
            accepted: false,
            status: 405,
            errors: [{ message: methodRefused('OPTIONS'), path: '' }],
          },
        ),
      );
      return;
    }
    sent++;
    const kept = keptBody(redirects.bodies.get(i) ?? beacon.request, sideBodies);
    if ('missing' in kept && kept.missing !== CUT_OFF) bodiless++;
    if ('missing' in kept && kept.missing === SIDE_FILE_UNREAD) sideUnread = true;
    // the service took it (2xx), or the HAR holds no answer, and the HAR did not keep what was sent: not
    // judged (it would be a refused event of no page, and its page would lose it). A request the service
    // refused is judged with what the HAR holds: refused either way.
    const took = answer.status === 0 || (answer.status >= 200 && answer.status < 300);
    if ('missing' in kept && took) return unkept.add(kept.missing);
    const { body, verdict, notJson } = postedBody(kept);
    if (took && notJson) return unkept.add(GARBLED);
    if (answer.status === 0) unanswered.add(answer.error ?? 'no status, no error');
    events.push(beaconEvent(body, undefined, verdict));
  });
  // not one beacon with its body: the HAR was saved without request bodies (each would read as the
  // storefront's "missing JSON POST body"), not a storefront that sent none
  if (sent > 0 && bodiless === sent && sideUnread)
    throw new InputError(
      `${file}: its ${plural(sent, 'beacon request')} keep their bodies in side files beside the HAR (request.postData._file: Playwright's recordHar with content 'attach'), which are read only when the HAR is given by its path: check the HAR file itself, not a copy of its text, or record it with content 'embed'`,
    );
  if (sent > 0 && bodiless === sent)
    throw new InputError(
      `${file}: none of its ${plural(sent, 'beacon request')} carries its body (request.postData): ${
        savedByPlaywright(har.log)
          ? "Playwright saved it without request bodies (recordHar content: 'omit'); record it again with content 'embed' (the default for a .har path), 'attach', or a path ending in .zip"
          : "the HAR was saved without request bodies; save it again from the browser's DevTools › Network with the requests' bodies"
      }`,
    );
  const notes = harNotes(file, other, unsent, unkept, unanswered, blocked);
  // the companion search's own answers: the issued responses the provenance rules judge with
  const issued = harIssued(entries, sideBodies);
  if (issued.bodiless > 0) notes.push(answersUnkeptNote(file, issued.bodiless));
  return {
    kind: 'har',
    events,
    notes,
    asked: harSearches(entries),
    ...(issued.responses.length > 0 && { responses: issued.responses }),
  };
}

/** The sandbox's answers a HAR kept without their body: the responses they issued are not known. */
function answersUnkeptNote(file: string, n: number): string {
  return `${file}: ${plural(n, 'answer')} of the sandbox's companion search ${n === 1 ? 'is' : 'are'} in the HAR without ${n === 1 ? 'its' : 'their'} body (response.content): what ${n === 1 ? 'it' : 'they'} issued is not known to the rules that judge beacons against it. Record the HAR with its response bodies (Playwright's recordHar with content 'embed' or 'attach'; DevTools › Network › Save all as HAR with content)`;
}

/** What a HAR's reader says of the requests it left out or judged without an answer. */
function harNotes(
  file: string,
  other: number,
  unsent: Tally,
  unkept: Tally,
  unanswered: Tally,
  blocked: Tally,
): string[] {
  const notes: string[] = [];
  const requests = (n: number) => plural(n, 'beacon request');
  const are = (n: number) => (n === 1 ? 'is' : 'are');
  const them = (n: number) => (n === 1 ? 'it' : 'them');
  if (other > 0)
    notes.push(
      `${file}: ${plural(other, 'other beacon request')} (not events the timelines judge: chat, log, …) skipped`,
    );
  if (unsent.total > 0)
    notes.push(
      `${file}: ${requests(unsent.total)} never left the browser (${unsent.text()}) and ${are(unsent.total)} not judged: the service never received ${them(unsent.total)}; check the beacon origin the storefront sends to, and what blocks it`,
    );
  if (unkept.total > 0)
    notes.push(
      `${file}: ${requests(unkept.total)} without a recorded body (${unkept.text()}): not judged. The service took ${them(unkept.total)} (answered 2xx, or the HAR holds no answer), but the tool that saved the HAR dropped or cut the body, so what was sent is unknown; save the HAR again with the requests' bodies (DevTools › Network › Save all as HAR)`,
    );
  if (blocked.total > 0)
    notes.push(
      `${file}: ${requests(blocked.total)} failed in the browser (net::ERR_FAILED) after being posted across origins as ${blocked.text()}: the browser asks the service first with a CORS preflight (OPTIONS), which the beacon endpoints refuse (405), and never sends the beacon. Each is judged as the refused preflight the service received (request-refused); send beacons as text/plain, as the provider's client does`,
    );
  if (unanswered.total > 0)
    notes.push(
      `${file}: ${requests(unanswered.total)} ${unanswered.total === 1 ? 'has' : 'have'} no answer in the HAR (status 0: ${unanswered.text()}) and ${are(unanswered.total)} judged as sent: the browser sent ${them(unanswered.total)}, and the page went on (or the HAR was saved) before the answer came. A request that never left the browser says so with its error (net::ERR_CONNECTION_REFUSED, net::ERR_BLOCKED_BY_CLIENT, …) and is left out; if the service did not get ${them(unanswered.total)}, leave ${them(unanswered.total)} out of the recording`,
    );
  return notes;
}

/** Did Playwright's recordHar write this HAR (`log.creator.name`)? */
function savedByPlaywright(log: unknown): boolean {
  return isObject(log) && isObject(log.creator) && log.creator.name === 'Playwright';
}

/** How many entries were set aside, by why: "why ×n, …" in the order first seen. */
class Tally {
  private readonly counts = new Map<string, number>();
  total = 0;

  add(why: string): void {
    this.counts.set(why, (this.counts.get(why) ?? 0) + 1);
    this.total++;
  }

  text(): string {
    return [...this.counts].map(([why, n]) => `${why} ×${n}`).join(', ');
  }
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
 * for the address the answer named), and for each followed request the first one, whose body (`postData`,
 * `bodySize`) it was sent with: one request, which a HAR records as two entries, and Chromium records the
 * second without its body.
 */
function followedRedirects(entries: unknown[]): {
  followed: Set<number>;
  bodies: Map<number, Record<string, unknown>>;
} {
  const followed = new Set<number>();
  const bodies = new Map<number, Record<string, unknown>>();
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
    bodies.set(j, bodies.get(i) ?? request);
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
 * Chromium's errors for a request that never reached a server (no connection was made, or the browser
 * refused to make it), as a HAR names them: Playwright's `response._failureText`, DevTools' "Save all as
 * HAR" `response._error`. Others (net::ERR_ABORTED of a beacon sent as the page unloads, net::ERR_FAILED of
 * a CORS-blocked answer) come after the request was sent.
 */
const NEVER_SENT =
  /^net::ERR_(?:CONNECTION_REFUSED|CONNECTION_TIMED_OUT|NAME_NOT_RESOLVED|NAME_RESOLUTION_FAILED|ADDRESS_UNREACHABLE|ADDRESS_INVALID|INTERNET_DISCONNECTED|UNSAFE_PORT|BLOCKED_BY_CLIENT|BLOCKED_BY_ADMINISTRATOR|BLOCKED_BY_CSP|PROXY_CONNECTION_FAILED|TUNNEL_CONNECTION_FAILED|CERT_[A-Z_]+|SSL_[A-Z_]+)$/;

/**
 * What the entry says of its answer: a request that never reached a server (no answer, and an error that
 * says so), else the status (0: no answer, with the error the browser gave, if any).
 */
function answerOf(entry: unknown): { neverSent: string } | { status: number; error?: string } {
  const response = isObject(entry) && isObject(entry.response) ? entry.response : {};
  const status = Number(response.status);
  if (Number.isFinite(status) && status > 0) return { status };
  const error = [response._failureText, response._error].find(
    (e): e is string => typeof e === 'string' && e !== '',
  );
  if (error !== undefined && NEVER_SENT.test(error)) return { neverSent: error };
  return error === undefined ? { status: 0 } : { status: 0, error };
}

/** A request header's value as the HAR kept it (names in any case), or undefined. */
function headerOf(request: Record<string, unknown>, name: string): string | undefined {
  if (!Array.isArray(request.headers)) return undefined;
  const found = request.headers.find(
    (h) => isObject(h) && String(h.name).toLowerCase() === name && typeof h.value === 'string',
  );
  return isObject(found) ? String(found.value) : undefined;
}

/** The origin of a URL, or undefined when it is none. */
function originOfUrl(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * A beacon POST the browser never sent because its CORS preflight failed: no answer, Chromium's
 * net::ERR_FAILED, a Content-Type outside the safelist (application/json: the browser asks first with
 * OPTIONS, which the beacon endpoints refuse with 405), and a page at another origin than the endpoint
 * (its Origin header, else its Referer, else the beacon's own context.pageUrl: a request the browser never
 * sent keeps only its provisional headers). Null for any other request: a same-origin one is never
 * preflighted, and a text/plain one never is either.
 */
function blockedPreflight(
  entry: unknown,
  request: Record<string, unknown>,
  answer: { status: number; error?: string },
): { origin: string; contentType: string; userAgent?: string } | null {
  if (answer.status !== 0 || answer.error !== 'net::ERR_FAILED') return null;
  const post = isObject(request.postData) ? request.postData : {};
  const declared =
    headerOf(request, 'content-type') ?? (typeof post.mimeType === 'string' ? post.mimeType : '');
  if (!typePreflighted(declared)) return null;
  const contentType = mediaType(declared);
  const target = originOfUrl(request.url);
  const page =
    originOfUrl(headerOf(request, 'origin')) ??
    originOfUrl(headerOf(request, 'referer')) ??
    originOfUrl(contextPageUrl(post.text));
  if (target === undefined || page === undefined || page === target) return null;
  const userAgent = headerOf(request, 'user-agent');
  return { origin: page, contentType, ...(userAgent !== undefined && { userAgent }) };
}

/** `context.pageUrl` of a posted beacon's JSON text, when it has one. */
function contextPageUrl(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const body: unknown = JSON.parse(text);
    return isObject(body) && isObject(body.context) && typeof body.context.pageUrl === 'string'
      ? body.context.pageUrl
      : undefined;
  } catch {
    return undefined;
  }
}

/** What a kept body that is not JSON means when the service took the request: the HAR's copy is not what was sent. */
const GARBLED = 'a body that is not JSON, though the service took it';
const CUT_OFF = 'a body cut off (shorter than its request.bodySize)';
const SIDE_FILE_UNREAD = 'a body in a side file (request.postData._file) not read';

/** The side file a request's `postData` names for its body (`_file`, its `text` left empty), or null. */
function sideFileOf(post: Record<string, unknown>): string | null {
  return typeof post._file === 'string' && (post.text === undefined || post.text === '')
    ? post._file
    : null;
}

/**
 * The side files a HAR's beacon requests keep their bodies in (Playwright's recordHar with content
 * 'attach', or saved to a .zip), with the entry (from 1) of each: only these are read, not the pages'
 * scripts and images. Empty for a HAR that keeps its bodies inline, or that is no HAR.
 */
export function beaconSideFiles(har: unknown): Array<{ entry: number; name: string }> {
  if (!isObject(har) || !isObject(har.log) || !Array.isArray(har.log.entries)) return [];
  const files: Array<{ entry: number; name: string }> = [];
  har.log.entries.forEach((entry, i) => {
    const beacon = harBeacon(entry);
    if (beacon === null || beacon === 'other' || !isObject(beacon.request.postData)) return;
    const name = sideFileOf(beacon.request.postData);
    if (name !== null) files.push({ entry: i + 1, name });
  });
  return files;
}

/**
 * The posted text a HAR entry's request kept, or why it holds none: no `postData`, a `postData` without
 * its text, an empty text, or a text shorter than the request's `bodySize` (cut off).
 */
function keptBody(
  request: Record<string, unknown>,
  sideBodies: ReadonlyMap<string, string>,
): { text: string } | { missing: string } {
  const post = request.postData;
  if (!isObject(post)) return { missing: 'no request.postData' };
  // Playwright's recordHar with content 'attach' (or a .zip path): the body in a file beside the HAR
  const side = sideFileOf(post);
  if (side !== null) {
    const body = sideBodies.get(side);
    return body === undefined ? { missing: SIDE_FILE_UNREAD } : { text: body };
  }
  if (typeof post.text !== 'string') return { missing: 'request.postData without its text' };
  const text =
    post.encoding === 'base64' ? Buffer.from(post.text, 'base64').toString('utf8') : post.text;
  if (text === '') return { missing: 'an empty request.postData.text' };
  const size = Number(request.bodySize);
  if (Number.isFinite(size) && size > Buffer.byteLength(text)) return { missing: CUT_OFF };
  return { text };
}

/**
 * The beacon v2 POST a HAR entry holds: its endpoint and posted data; 'other' for a beacon request that
 * is no event the timelines or visits judge; null for any other request.
 */
function harBeacon(entry: unknown):
  | {
      path: string;
      siteId: string;
      category: string;
      event: string;
      request: Record<string, unknown>;
    }
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
  return { path: pathname.slice(at), siteId, category, event, request: req };
}

/**
 * A HAR request's posted text as a body: parsed JSON, or the text (or '' for none) with the 400 the service
 * would answer; `notJson` when a text was kept and is not JSON.
 */
function postedBody(kept: { text: string } | { missing: string }): {
  body: unknown;
  verdict: { accepted: boolean; status: number; errors: ValidationIssue[] } | undefined;
  notJson?: true;
} {
  const refused = (message: string) => ({
    accepted: false,
    status: 400,
    errors: [{ message, path: '' }],
  });
  if ('missing' in kept) return { body: '', verdict: refused('missing JSON POST body') };
  try {
    return { body: JSON.parse(kept.text), verdict: undefined };
  } catch {
    return { body: kept.text, verdict: refused('invalid JSON POST body'), notJson: true };
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
