// The formats of recorded beacon traffic (for `check`, `diff`, uploads and the desktop's import): NDJSON
// (bare bodies or recorded events), a sandbox export, or a browser HAR (read by har.ts), told apart by
// their text. Every body is validated with the tracking interface's own validator.
import { ArrivalOrder, arrivalOf } from './arrival-order';
import type { RecordedEvent } from '../../shared/events';
import { parseBeaconPath } from '../tracking/beacon-path';
import {
  readIssuedResponses,
  readRecordedCatalogs,
  readRecordedSites,
} from '../tracking/timeline/offline-provenance';
import { isObject } from '../../shared/values';
import { jsonPlace } from '../../shared/json-place';
import { InputError, makeEvent, type Counter, type ReadResult } from './recorded';
import { parseHar } from './har';
import { requestFields } from './request-fields';
import { recordFields } from './record-fields';
import { clockOffsetProblem } from '../../shared/clock-offset';
import { recordedEventProblem } from '../store/recorded-event';
import { isJournalHeader, readJournalText } from '../store/journal-reader';

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

/**
 * The site of NDJSON lines that name none (a bare body, or a wrapped one without siteId or path): the only
 * site the lines before them named, when they named exactly one. A journey written by hand often gives some
 * lines their site and leaves others bare; those would otherwise be a page of "(no siteId)", split off the
 * page they share a pageLoadId with. Counted, for the reader's note.
 */
export class LinesSite {
  private site: string | undefined;
  private several = false;
  private adopted = 0;

  /** a line that named its site */
  named(siteId: string): void {
    if (this.several || siteId === '' || this.site === siteId) return;
    if (this.site === undefined) this.site = siteId;
    else {
      this.several = true;
      this.site = undefined;
    }
  }

  /** the site of a line that names none: the only one named so far, else '' */
  ofBare(): string {
    if (this.site === undefined) return '';
    this.adopted++;
    return this.site;
  }

  /** what the reader says of the lines it gave a site */
  note(file: string): string | undefined {
    if (this.adopted === 0) return undefined;
    const one = this.adopted === 1;
    return `${file}: ${one ? '1 line names' : `${this.adopted} lines name`} no site (no "siteId" or "path") and ${one ? 'was' : 'were'} judged as site ${this.site}'s, the only site the lines before ${one ? 'it' : 'them'} name; give each line its "siteId" to say otherwise`;
  }
}

/** One NDJSON line or export element: a recorded event (kept as recorded) or a bare beacon body. */
export function fromRecord(
  v: unknown,
  where: string,
  id: string,
  counter: Counter,
  site?: LinesSite,
): RecordedEvent {
  if (!isObject(v))
    throw new InputError(
      `${where}: expected a JSON object (a beacon body or a recorded event), got ${Array.isArray(v) ? 'an array' : typeof v}`,
    );
  if ('body' in v && (typeof v.event === 'string' || typeof v.path === 'string'))
    return recordedEvent(v, where, id, counter, site);
  if ('context' in v || 'data' in v) return bareBody(v, where, id, counter, site?.ofBare() ?? '');
  throw new InputError(
    `${where}: not a beacon body ({context, data}) nor a recorded event ({event, body, …})`,
  );
}

/** A recorded event (an export's, or one written by hand with its endpoint): kept as recorded. */
function recordedEvent(
  v: Record<string, unknown>,
  where: string,
  id: string,
  counter: Counter,
  site?: LinesSite,
): RecordedEvent {
  // what it says of itself: each field present is what the sandbox writes, or the line is refused
  const fields = recordFields(v, where);
  // one the sandbox recorded (its id and seq say so) is held to the rule its journal and imports keep
  if (v.id !== undefined && v.seq !== undefined) {
    const problem = recordedEventProblem(v, true);
    if (problem) throw new InputError(`${where}: ${problem}`);
  }
  const parsed = typeof v.path === 'string' ? parseBeaconPath(v.path) : null;
  // `kind` is the timelines' name of the category, so {kind: "category", event, body} works as well
  const category = fields.category ?? fields.kind ?? parsed?.category ?? 'search';
  const event = fields.event ?? parsed?.event ?? '';
  const named = fields.siteId ?? parsed?.siteId ?? '';
  if (named !== '') site?.named(named);
  const siteId = named === '' ? (site?.ofBare() ?? '') : named;
  // how far the recording sandbox's clock was from real time (timestamp-skew reads it): a value that is
  // not one is refused, not ignored, or the event would be judged as if the clock had not moved
  const clockOffsetMs = v.clockOffsetMs;
  if (clockOffsetMs !== undefined) {
    const problem = clockOffsetProblem(clockOffsetMs);
    if (problem) throw new InputError(`${where}: ${problem}`);
  }
  // the path and headers as sent: a refusal is judged by them (a 404's path, a 415's Content-Type)
  const request = requestFields(v, where);
  // A recorded event keeps the sandbox's verdict; a hand-written one is validated here.
  return makeEvent(
    counter,
    fields.id ?? id,
    {
      siteId,
      category,
      event,
      receivedAt: fields.receivedAt,
      body: v.body,
      ...(typeof clockOffsetMs === 'number' && { clockOffsetMs }),
      ...(request.path !== undefined && { path: request.path }),
      request,
    },
    fields.verdict,
  );
}

/** A beacon body without its endpoint, which its fields tell. */
function bareBody(
  v: Record<string, unknown>,
  where: string,
  id: string,
  counter: Counter,
  siteId: string,
): RecordedEvent {
  const data = isObject(v.data) ? v.data : {};
  const visit = inferVisitEndpoint(data);
  if (visit)
    return makeEvent(counter, id, {
      siteId,
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
    siteId,
    category: typeof data.tag === 'string' ? 'recommendations' : 'search',
    event,
    receivedAt: '',
    body: v,
  });
}

function parseNdjson(text: string, file: string, prefix: string, counter: Counter): ReadResult {
  const events: RecordedEvent[] = [];
  // recorded events in the order the sandbox received them, as the streamed reader takes them (the whole
  // text is read already: nothing is too far from its place)
  const order = new ArrivalOrder(Infinity);
  const site = new LinesSite();
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
    const event = fromRecord(v, `${file}:${i + 1}`, `${prefix}line:${i + 1}`, counter, site);
    for (const e of order.add(event, arrivalOf(v))) events.push(e);
  });
  for (const e of order.flush()) events.push(e);
  const note = site.note(file);
  return { kind: 'ndjson', events, notes: note === undefined ? [] : [note] };
}

/** Parse one file's text. `prefix` makes generated ids unique across several files. */
export function parseInput(
  text: string,
  file: string,
  prefix = '',
  counter: Counter = { seq: 0 },
  sideBodies?: ReadonlyMap<string, string>,
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
  const newline = trimmed.indexOf('\n');
  if (isJournalHeader(newline === -1 ? trimmed : trimmed.slice(0, newline)))
    return parseJournal(trimmed, file, prefix, counter);
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
        fromRecord(v, `${file}: element ${i}`, `${prefix}event:${i + 1}`, counter),
      ),
      notes: [],
    };
  }
  if (isObject(whole) && 'log' in whole) return parseHar(whole, file, prefix, counter, sideBodies);
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
    const since = isObject(whole.search) ? whole.search.rememberedSince : undefined;
    if (since !== undefined && (typeof since !== 'number' || !Number.isFinite(since)))
      throw new InputError(
        `${file}: search.rememberedSince is ${JSON.stringify(since)}: it must be a time in ms, as GET /_sandbox/export writes it (or leave it out)`,
      );
    return {
      kind: 'export',
      events: whole.events.map((v, i) =>
        fromRecord(v, `${file}: events[${i}]`, `${prefix}event:${i + 1}`, counter),
      ),
      notes: [],
      ...(responses.length > 0 && { responses }),
      ...(sites.length > 0 && { sites }),
      ...(catalogs.length > 0 && { catalogs }),
      ...(since !== undefined && { rememberedSince: since }),
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

/**
 * A data directory's events.ndjson: the events a sandbox started on it would hold (its resets and imports
 * replayed), in seq order; what a restart would skip (damaged lines, an import that did not complete) is
 * said in notes, as the restart says it.
 */
function parseJournal(text: string, file: string, prefix: string, counter: Counter): ReadResult {
  const { events, problems } = readJournalText(text, file);
  return {
    kind: 'ndjson',
    events: events.map((e) =>
      fromRecord(e, `${file}: seq ${e.seq}`, `${prefix}seq:${e.seq}`, counter),
    ),
    notes: problems,
  };
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
  const { why, line, column, cutOff, trailingComma } = jsonPlace(text, message);
  if (trailingComma)
    return `${file}:${trailingComma.line}:${trailingComma.column}: not valid JSON: a comma after the last entry (JSON allows none before a } or ]); ${expected}`;
  if (cutOff)
    return `${file}: a JSON document that is cut off (truncated after ${text.length} characters, it never closes): record or export it again, and let the copy finish`;
  // V8 quotes a short input whole instead of giving a position
  if (line === undefined) return `${file}: not valid JSON (${why}); ${expected}`;
  return `${file}:${line}:${column}: not valid JSON (${why}); ${expected}`;
}
