// The shape of one entry of the admin API's declaration (src/shared/admin-api.ts, where each field is
// described for whoever adds an endpoint).
import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import { ErrorSchema, type ErrorAnswers, type ErrorStatus } from './schema-admin';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A body that is not one JSON value: its media type, and the schema of each line or message in it. */
export interface MediaAnswer {
  mediaType: string;
  description: string;
  /** NDJSON: each line's schema; SSE: each message's `{type, data}` */
  items?: TSchema;
}

export type Answer = TSchema | MediaAnswer;

/**
 * How a request body is read, by its media (src/main/http/admin-body.ts has one reader each):
 * - `json`: one JSON value, parsed (size cap, depth limit) and checked against `schema` before the handler
 *   runs, which gets it typed;
 * - `ndjson`: a recording (NDJSON lines, or one JSON document: an export, an array, a HAR), handed over as
 *   its bytes, or `streamed`: not read before the handler, which reads it as it arrives;
 * - `raw`: the bytes as sent, whatever their Content-Type, for a domain that judges them itself (a beacon
 *   body gets the beacon service's own verdict, its 413 and 415 included).
 */
export type BodyMedia = 'json' | 'ndjson' | 'raw';

export interface BodyDeclaration {
  media: BodyMedia;
  /** json: the value; otherwise a description of what is sent */
  schema: TSchema;
  /** the largest body read: a larger one is refused 413 (raw: handed over as too large) */
  maxBytes: number;
  /** what to send, as a refusal's fix says it */
  expected: string;
  /** the 413's message, when the endpoint words it itself */
  tooLarge?: string;
  /** no body is a request of its own (the handler gets undefined), not a 400 */
  optional?: true;
  /** ndjson: read by the handler as it arrives (within maxBytes, refused early by Content-Length) */
  streamed?: true;
}

/**
 * The Content-Types each media is taken in (its media type, before any `;charset`); anything else is a 415.
 * JSON comes as application/json or `…+json`, and as what fetch sends a string with (text/plain) and curl
 * -d (application/x-www-form-urlencoded); no Content-Type at all is taken too. `raw` takes any.
 */
export const BODY_CONTENT_TYPES: Record<BodyMedia, readonly string[] | null> = {
  json: ['application/json', 'text/plain', 'application/x-www-form-urlencoded'],
  ndjson: [
    'application/x-ndjson',
    'application/jsonl',
    'application/json',
    'text/plain',
    'application/octet-stream',
    'application/x-www-form-urlencoded',
  ],
  raw: null,
};

/** Whether a body of this media may come with this Content-Type (the header as sent, or undefined). */
export function takesContentType(media: BodyMedia, header: string | undefined): boolean {
  const accepted = BODY_CONTENT_TYPES[media];
  if (!accepted || header === undefined || header.trim() === '') return true;
  const type = header.split(';')[0]!.trim().toLowerCase();
  return accepted.includes(type) || (media !== 'raw' && type.endsWith('+json'));
}

export interface Endpoint {
  method: Method;
  /** OpenAPI path, `{name}` for path parameters */
  path: `/_sandbox/${string}`;
  summary: string;
  /** the path parameters that are not any text (a feed's number): a schema each, checked as the query's */
  params?: TProperties;
  query?: TProperties;
  body?: BodyDeclaration;
  /** the 200 answer without a view parameter */
  response: Answer;
  /**
   * The answer for each value of a query parameter that changes the answer's shape (the OpenAPI
   * document declares oneOf them): `AnswerOf` picks one by the query a caller gives.
   */
  views?: { param: string; answers: Record<string, Answer> };
  /** the other statuses it answers, each with its body's schema (400 needs no entry) */
  errors?: ErrorAnswers;
  /** a streamed answer (Server-Sent Events) */
  stream?: true;
}

export function isMediaAnswer(a: Answer): a is MediaAnswer {
  return typeof (a as MediaAnswer).mediaType === 'string';
}

/**
 * What any admin route may answer before (or whatever) its handler does: 400 (a bad parameter, or a request
 * Node's parser refuses), 403 (another Host or Origin: the same-origin guard), 405 (a method the path does not
 * take: `Allow` lists those it does), 408 (a request that never arrived whole), 431 (a request line and
 * headers over 16 KB).
 */
const EVERY_ROUTE = [400, 403, 405, 408, 431] as const;

/**
 * Every status an endpoint declares besides 200: those of every route (EVERY_ROUTE), those of reading its
 * body (413 past the body's size cap, 415 for a Content-Type its media does not take), 503 of a write the
 * data directory refuses (every method but GET: nothing was stored), and its own `errors`. Where its own
 * answer of a status has another shape than the common one (a wait's 408), it may answer either.
 */
export function declaredErrors(e: Endpoint): ErrorAnswers {
  const common: ErrorAnswers = {};
  for (const status of EVERY_ROUTE) common[status] = ErrorSchema;
  if (e.body && e.body.media !== 'raw') {
    common[413] = ErrorSchema;
    common[415] = ErrorSchema;
  }
  if (e.method !== 'GET') common[503] = ErrorSchema;
  const out: ErrorAnswers = { ...common };
  for (const [key, schema] of Object.entries(e.errors ?? {})) {
    const status = Number(key) as ErrorStatus;
    const shared = common[status];
    out[status] = shared === undefined || shared === schema ? schema : Type.Union([schema, shared]);
  }
  return out;
}
