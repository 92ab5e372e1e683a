// The shape of one entry of the admin API's declaration (src/shared/admin-api.ts, where each field is
// described for whoever adds an endpoint).
import type { TProperties, TSchema } from '@sinclair/typebox';
import type { ErrorAnswers } from './schema-admin';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A body that is not one JSON value: its media type, and the schema of each line or message in it. */
export interface MediaAnswer {
  mediaType: string;
  description: string;
  /** NDJSON: each line's schema; SSE: each message's `{type, data}` */
  items?: TSchema;
}

export type Answer = TSchema | MediaAnswer;

export interface Endpoint {
  method: Method;
  /** OpenAPI path, `{name}` for path parameters */
  path: `/_sandbox/${string}`;
  summary: string;
  query?: TProperties;
  body?: TSchema;
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
