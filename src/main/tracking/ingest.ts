// Beacon v2 ingest: decides a tracking request's status and body exactly as the real service would
// (404 → 405 → 413 → 415 → 400 → 200), records every request in the event store, answers after it is stored.
import { DataDirError } from '../store/data-dir-error';
import { notUtf8At } from '../base/utf8';
import type { Clock } from '../clock';
import {
  METHOD_TOKEN,
  mediaType,
  methodRefused,
  type RecordedEvent,
  type ValidationIssue,
} from '../../shared/events';
import type { EventDraft, EventStore } from '../store/types';
import { parseBeaconPath } from './beacon-path';
import { nestsDeeperThan } from '../../shared/json-depth';
import { judgeBodyText, MAX_JSON_DEPTH, type BodyVerdict } from './body-verdict';
import { judgeOffLoop, WORKER_FROM_CHARS } from './body-worker';

/** The real service refuses bodies over 1 MB (1 << 20 bytes). */
export const MAX_BODY_BYTES = 1 << 20;

/** What the HTTP layer hands ingest: plain data, no express. */
export interface TrackingRequest {
  method: string;
  /** request path without the query string */
  path: string;
  contentType?: string;
  /** the Content-Encoding header as sent (the provider's client sends none) */
  contentEncoding?: string;
  /** the body as received; null when there was none or it was not read */
  rawBody: Buffer | null;
  userAgent?: string;
  origin?: string;
  /** the router stopped reading because the body passed MAX_BODY_BYTES */
  bodyTooLarge?: boolean;
}

export type BeaconResponseBody =
  { success: true } | { success: false; error: string; messages: string[]; data?: string };

export interface TrackingResponse {
  status: number;
  body: BeaconResponseBody;
  /** what was recorded (absent only when storing failed) */
  event?: RecordedEvent;
}

/** The service's answer to a request before it is recorded: status, error name and what was wrong. */
interface Answer {
  status: number;
  error?: string;
  issues: ValidationIssue[];
  /** echo the body back as `data` (the service does so for schema errors only) */
  echo?: boolean;
  /**
   * What the sandbox records and reports instead of `issues`, when it can say more than the service's
   * answer does (why a body was not JSON): the answer itself stays the service's.
   */
  recorded?: ValidationIssue[];
}

const ACCEPTED_MEDIA_TYPES = new Set(['text/plain', 'application/json']);

function issue(message: string, path = ''): ValidationIssue {
  return { message, path };
}

/**
 * Deeper than this, a body is kept as its text: the service accepts nesting up to MAX_JSON_DEPTH (body-verdict.ts), but
 * writing, copying or showing a parsed value recurses once per level (Node's own JSON.stringify and
 * structuredClone overflow the stack near 4,000 levels). Real beacons nest a handful of levels.
 */
export const MAX_STORED_DEPTH = 256;

/**
 * A rejected body longer than this keeps only its first this many characters, as text: parsed, 1 MB of `{},`
 * is 340,000 objects (some 20 MB held per event, and as much again for every reader), and a dozen such
 * beacons cost the sandbox its memory. The real service drops a rejected body; its start shows what was
 * wrong, and the timelines still place it on its page from its `context` (json-text.ts). Accepted bodies
 * are kept whole and parsed (the rules read them).
 */
export const MAX_KEPT_REJECTED = 65_536;

/**
 * What the store keeps of a body: parsed JSON when it parses (and nests sanely), else the text, null when
 * empty. `parsed` is the value judging already parsed, when it did (a large body judged in the worker was not).
 */
function recordedBody(text: string | null, accepted: boolean, parsed: unknown): unknown {
  if (text === null || text === '') return null;
  // a copy: V8's slice of a string keeps the whole 1 MB string alive behind it
  if (!accepted && text.length > MAX_KEPT_REJECTED)
    return JSON.parse(JSON.stringify(text.slice(0, MAX_KEPT_REJECTED))) as string;
  if (nestsDeeperThan(text, MAX_STORED_DEPTH)) return text;
  if (parsed !== undefined) return parsed;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The real service echoes a refused body as `data`, and names every problem: kept for bodies of a normal
 * size, cut at these so that a refusal never sends back an unbounded input (a 350 KB batch, 10,000 issues).
 */
export const ECHO_CHARS = 16 * 1024;
export const ECHO_MESSAGES = 100;

function echoed(text: string): string {
  if (text.length <= ECHO_CHARS) return text;
  return `${text.slice(0, ECHO_CHARS)}… (${text.length - ECHO_CHARS} more characters not echoed)`;
}

function trackingResponse(answer: Answer, text: string | null): TrackingResponse {
  if (answer.status === 200) return { status: 200, body: { success: true } };
  const messages = answer.issues.slice(0, ECHO_MESSAGES).map((i) => i.message);
  if (answer.issues.length > ECHO_MESSAGES)
    messages.push(`… and ${answer.issues.length - ECHO_MESSAGES} more problems of the same body`);
  const body: BeaconResponseBody = {
    success: false,
    error: answer.error ?? 'ValidationError',
    messages,
    ...(answer.echo && text !== null && { data: echoed(text) }),
  };
  return { status: answer.status, body };
}

export class TrackingIngest {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async handle(request: TrackingRequest): Promise<TrackingResponse> {
    const where = parseBeaconPath(request.path);
    const text = request.bodyTooLarge || !request.rawBody ? null : request.rawBody.toString('utf8');
    const { answer, parsed } = await this.answer(request, where, text);

    // the clock's offset from real time goes with the event: timestamp-skew judges the client's timestamp
    // from the record alone, so live, after a restart and in `check` the judgement is one
    const clockOffsetMs = this.clock.offset;
    // a refused method is kept for a replay of the request (a POST, every beacon, is recorded without one)
    const method = request.method.toUpperCase();
    const draft: EventDraft = {
      receivedAt: new Date(this.clock.now()).toISOString(),
      ...(clockOffsetMs !== 0 && { clockOffsetMs }),
      siteId: where.siteId,
      category: where.category,
      event: where.event,
      path: request.path,
      ...(method !== 'POST' && METHOD_TOKEN.test(method) && { method }),
      accepted: answer.status === 200,
      status: answer.status,
      errors: answer.recorded ?? answer.issues,
      body: recordedBody(text, answer.status === 200, parsed),
      ...(answer.status !== 200 &&
        text !== null &&
        text.length > MAX_KEPT_REJECTED && {
          bodyTruncated: { length: text.length, kept: MAX_KEPT_REJECTED },
        }),
      ...(request.userAgent !== undefined && { userAgent: request.userAgent }),
      ...(request.origin !== undefined && { origin: request.origin }),
      ...(request.contentType !== undefined && { contentType: request.contentType }),
    };

    let event: RecordedEvent;
    try {
      event = await this.store.append(draft);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      // the data dir could not take it (a full disk): the disk's problem, said as such, not a bug
      if (err instanceof DataDirError)
        return {
          status: 503,
          body: {
            success: false,
            error: 'StorageFailed',
            messages: [`the event was not stored, so it is not acknowledged: ${reason}`],
          },
        };
      return {
        status: 500,
        body: {
          success: false,
          error: 'InternalServerError',
          messages: [`internal server error: the event could not be stored (${reason})`],
        },
      };
    }

    return { ...trackingResponse(answer, text), event };
  }

  /**
   * What the service would answer, with every issue and its path, without recording anything:
   * lets scripts and CI check fixtures without filling the event list.
   */
  async check(request: TrackingRequest): Promise<TrackingResponse & { errors: ValidationIssue[] }> {
    const text = request.bodyTooLarge || !request.rawBody ? null : request.rawBody.toString('utf8');
    const { answer } = await this.answer(request, parseBeaconPath(request.path), text);
    return { ...trackingResponse(answer, text), errors: answer.recorded ?? answer.issues };
  }

  /**
   * The status, in the service's order of checks; `parsed` is the JSON body when it got that far (a
   * large body is judged in the worker and parsed here only if it is kept parsed).
   */
  private async answer(
    request: TrackingRequest,
    where: ReturnType<typeof parseBeaconPath>,
    text: string | null,
  ): Promise<{ answer: Answer; parsed?: unknown }> {
    if (!where.ok)
      return {
        answer: { status: 404, error: 'InvalidPathError', issues: [issue(where.message)] },
      };

    const method = request.method.toUpperCase();
    if (method !== 'POST') {
      return {
        answer: {
          status: 405,
          error: 'InvalidMethodError',
          issues: [issue(methodRefused(method))],
        },
      };
    }
    if (request.bodyTooLarge || (request.rawBody && request.rawBody.length > MAX_BODY_BYTES)) {
      return {
        answer: {
          status: 413,
          error: 'RequestTooLargeError',
          issues: [issue('request body must not be larger than 1MB')],
        },
      };
    }
    if (!ACCEPTED_MEDIA_TYPES.has(mediaType(request.contentType))) {
      return {
        answer: {
          status: 415,
          error: 'UnsupportedMediaType',
          issues: [
            issue('invalid header: `Content-Type`, accepts `text/plain` or `application/json`'),
          ],
        },
      };
    }
    if (text === null || text.length === 0) {
      return {
        answer: {
          status: 400,
          error: 'ValidationError',
          issues: [issue('missing JSON POST body')],
        },
      };
    }

    // a compressed body is not text either: its verdict names the Content-Encoding and the fix instead
    const notUtf8 =
      request.rawBody && contentEncoding(request.contentEncoding) === null
        ? notUtf8Because(request.rawBody)
        : null;
    if (notUtf8 !== null)
      return {
        answer: {
          status: 400,
          error: 'ValidationError',
          issues: [issue(INVALID_JSON)],
          recorded: [issue(`${INVALID_JSON}: ${notUtf8}`)],
        },
      };

    const endpoint = `${where.category}/${where.event}`;
    const judged: { verdict: BodyVerdict; parsed?: unknown } =
      text.length >= WORKER_FROM_CHARS
        ? await judgeOffLoop(endpoint, text).then((verdict) =>
            verdict === null ? judgeBodyText(endpoint, text) : { verdict },
          )
        : judgeBodyText(endpoint, text);
    return {
      answer: bodyAnswer(judged.verdict, contentEncoding(request.contentEncoding)),
      parsed: judged.parsed,
    };
  }
}

/** A Content-Encoding other than none (`identity`), as sent; null for none. */
function contentEncoding(header: string | undefined): string | null {
  const value = (header ?? '').trim();
  return value === '' || value.toLowerCase() === 'identity' ? null : value;
}

const INVALID_JSON = 'invalid JSON POST body';

/**
 * Why a body is not UTF-8 text, or null when it is (checked natively: the ingest path does not slow). JSON
 * is UTF-8, and a storefront's JSON.stringify never sends anything else; read anyway, the bytes would be
 * recorded as U+FFFD, text nobody sent, so the beacon is refused (what the real service does is not known).
 */
function notUtf8Because(body: Buffer): string | null {
  const where = notUtf8At(body);
  return where && `${where}: send the body as JSON.stringify makes it, UTF-8 text`;
}

/** Why a body that is not JSON is not, as far as the sandbox can tell; null when it cannot say. */
function notJsonBecause(body: { tooDeep?: true }, encoding: string | null): string | null {
  if (encoding !== null)
    return `the body was sent with Content-Encoding: ${encoding}, which the provider's client never does (it posts its beacons uncompressed, as text/plain); the body is read as it arrives, not decompressed: send it uncompressed`;
  if (body.tooDeep)
    return `its arrays and objects nest more than ${MAX_JSON_DEPTH} levels deep, deeper than the service's JSON decoder reads: send a body nested less deeply (a beacon nests a handful of levels)`;
  return null;
}

function bodyAnswer(body: BodyVerdict, encoding: string | null): Answer {
  if (body.ok) return { status: 200, issues: [] };
  if (body.problem === 'json') {
    const because = notJsonBecause(body, encoding);
    return {
      status: 400,
      error: 'ValidationError',
      issues: [issue(INVALID_JSON)],
      ...(because !== null && { recorded: [issue(`${INVALID_JSON}: ${because}`)] }),
    };
  }
  return { status: 400, error: 'ValidationError', issues: body.issues, echo: true };
}
