// The one reader of request bodies: a size cap (refused early on a Content-Length above it, the rest
// drained), and for JSON bodies one depth limit checked on the text before anything parses, validates or
// prints it (each of those recurses once per level: a hostile body of 100,000 brackets overflowed the
// stack). A refusal names the limit (field, value, rule, fix) and never echoes the body.
import { notUtf8At } from '../base/utf8';
import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import { nestsDeeperThan } from '../../shared/json-depth';
import { MAX_BODY_BYTES } from '../tracking/ingest';

/** How deep a JSON body's arrays and objects may nest (the sandbox's own bodies nest three or four). */
export const JSON_DEPTH_LIMIT = 64;

/** A refused body is read (and dropped) up to this much so the client sees the answer; past it, hang up. */
export const DRAIN_LIMIT_BYTES = 64 * MAX_BODY_BYTES;

export interface BodyRead {
  body: Buffer | null;
  tooLarge: boolean;
}

/**
 * Drop the rest of a refused body, read to its end: a client that is still sending when it is refused
 * gets the answer on a connection that stays open until it has sent it all (hung up on mid-body, it saw a
 * broken pipe, EPIPE, instead of the 413 that says what was wrong); one that keeps going past
 * DRAIN_LIMIT_BYTES is cut off. Resolves once the body has ended, or was cut off.
 */
function drain(
  req: IncomingMessage,
  alreadyRead: number,
  limit = DRAIN_LIMIT_BYTES,
): Promise<void> {
  return new Promise((resolve) => {
    let read = alreadyRead;
    req.removeAllListeners('data');
    req.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > limit) req.destroy();
    });
    req.on('end', resolve);
    req.on('close', resolve);
    req.on('error', () => resolve());
    req.resume();
  });
}

/**
 * A body refused before (or while) it is read: dropped as it arrives, up to `limit` bytes, so the client
 * sees the answer. A multipart parser that gave up on it may be reading it too; both only drop.
 */
export function dropBody(req: IncomingMessage, limit = DRAIN_LIMIT_BYTES): void {
  if (!req.readableEnded) void drain(req, 0, limit);
}

/**
 * Whether the answer to a refused body should close its connection: only when the body announced more
 * than will be drained (`limit`), so it would be cut off anyway. Any other refusal keeps the connection
 * while the rest is dropped: a client still sending that is hung up on sees a broken pipe (EPIPE), never
 * the answer that says what was wrong.
 */
export function closesAfterRefusal(req: IncomingMessage, limit = DRAIN_LIMIT_BYTES): boolean {
  if (req.readableEnded) return false;
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > limit;
}

const TOO_LARGE: BodyRead = { body: null, tooLarge: true };

/** The raw body up to `limit` bytes; refuses early on a Content-Length above it. */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  // read before (the search pass-through reads a body to find its site, and hands its bytes over; an app
  // embedding the routers may have read it as text): taken as it would have been read, within the limit
  if (req.readableEnded) {
    const had = (req as IncomingMessage & { body?: unknown }).body;
    if (typeof had !== 'string' && !Buffer.isBuffer(had))
      return Promise.resolve({ body: null, tooLarge: false });
    if (Buffer.byteLength(had) > limit) return Promise.resolve(TOO_LARGE);
    const bytes = Buffer.isBuffer(had) ? had : Buffer.from(had);
    return Promise.resolve({ body: bytes.length === 0 ? null : bytes, tooLarge: false });
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    void drain(req, 0);
    return Promise.resolve(TOO_LARGE);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    let refused = false;
    const settle = (result: BodyRead) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        refused = true;
        chunks.length = 0;
        void drain(req, size).then(() => settle(TOO_LARGE));
        return;
      }
      chunks.push(chunk);
    });
    // what arrived (a client that hangs up mid-body gets no answer anyway); a body that grew past the limit
    // is refused once it has ended (its drain settles it), so the answer finds the client done sending
    const whole = () => {
      if (!refused)
        settle({ body: size === 0 ? null : Buffer.concat(chunks, size), tooLarge: false });
    };
    req.on('end', whole);
    req.on('close', whole);
    req.on('error', whole);
  });
}

export interface JsonLimits {
  /** the largest body read */
  bytes: number;
  /** what the endpoint takes, for the fix (e.g. `{"advance": "PT1H"}`) */
  expected: string;
}

/** A body refused by a limit or for not being JSON: the field, the value (described, never echoed), the rule, the fix. */
export interface BodyRefusal {
  status: 400 | 413;
  field: 'body';
  value: string;
  rule: string;
  fix: string;
  message: string;
}

function refusal(status: 400 | 413, value: string, rule: string, fix: string): BodyRefusal {
  return { status, field: 'body', value, rule, fix, message: `body: ${value}; ${rule}: ${fix}` };
}

const size = (n: number) =>
  n >= 1024 * 1024 ? `${Math.round(n / 1024 / 102.4) / 10} MB` : `${Math.ceil(n / 1024)} KB`;

/** How deep a parsed value nests, counted without recursion, stopping past `max`. */
function valueNestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(v as object)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The body's text, within the size cap and the depth limit (not parsed: for a domain that parses and
 * words its own JSON errors); '' when there is none.
 */
export async function readJsonText(
  req: IncomingMessage,
  limits: JsonLimits,
): Promise<{ text: string } | { refused: BodyRefusal }> {
  const read = await readBody(req, limits.bytes);
  if (read.tooLarge)
    return {
      refused: refusal(
        413,
        `larger than ${size(limits.bytes)}`,
        `a body may have at most ${limits.bytes} bytes`,
        `send ${limits.expected}`,
      ),
    };
  // JSON is UTF-8 (RFC 8259): a byte that is not would be read as U+FFFD and stored as text nobody sent
  const notUtf8 = read.body ? notUtf8At(read.body) : null;
  if (notUtf8 !== null)
    return {
      refused: refusal(
        400,
        notUtf8,
        'a JSON body is UTF-8 text',
        `send ${limits.expected}, encoded as UTF-8 (JSON.stringify and fetch do)`,
      ),
    };
  const text = read.body?.toString('utf8').replace(/^\uFEFF/, '') ?? '';
  if (nestsDeeperThan(text, JSON_DEPTH_LIMIT))
    return {
      refused: refusal(
        400,
        `${text.length} characters of JSON nested more than ${JSON_DEPTH_LIMIT} levels deep`,
        `arrays and objects may nest at most ${JSON_DEPTH_LIMIT} levels`,
        `send ${limits.expected}`,
      ),
    };
  return { text };
}

/** The body parsed (undefined when there is none), within the size cap and the depth limit. */
export async function readJson(
  req: Request,
  limits: JsonLimits,
): Promise<{ value: unknown } | { refused: BodyRefusal }> {
  // an app embedding the sandbox's routers may have parsed it already (express.json): same limit
  if (req.body !== undefined && typeof req.body !== 'string' && !Buffer.isBuffer(req.body)) {
    return valueNestsDeeperThan(req.body, JSON_DEPTH_LIMIT)
      ? {
          refused: refusal(
            400,
            `JSON nested more than ${JSON_DEPTH_LIMIT} levels deep`,
            `arrays and objects may nest at most ${JSON_DEPTH_LIMIT} levels`,
            `send ${limits.expected}`,
          ),
        }
      : { value: req.body };
  }
  const read = await readJsonText(req, limits);
  if ('refused' in read) return read;
  if (read.text.trim() === '') return { value: undefined };
  try {
    return { value: JSON.parse(read.text) };
  } catch (err) {
    return {
      refused: refusal(
        400,
        `not valid JSON (${(err as Error).message.slice(0, 200)})`,
        'the body must be one JSON value',
        `send ${limits.expected}`,
      ),
    };
  }
}
