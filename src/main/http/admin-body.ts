// Admin request bodies read as their endpoint declares them (src/shared/admin-api.ts, `body`): one reader
// per media (JSON parsed and validated, a recording's bytes, a streamed import, a beacon's raw bytes), the
// Content-Type checked against the media, the size capped. JSON is judged by the declaration's schema
// (src/shared/schema-fits.ts); a body that breaks it, by the schema compiled with ajv, whose first error
// words the 400: the schema carries its messages (`x-messages`) and each field the rule it follows
// (`x-rule`), so a refusal names the field, the value and the fix, worded as the endpoint always did.
import type { Request } from 'express';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Static, TSchema } from '@sinclair/typebox';
import {
  ADMIN_API,
  bodyOf,
  type AdminEndpointName,
  type BodyDeclaration,
  type BodyOf,
} from '../../shared/admin-api';
import { BODY_CONTENT_TYPES, takesContentType } from '../../shared/schema-endpoint';
import { fits } from '../../shared/schema-fits';
import { shown } from '../../shared/text';
import type { BodyMessages } from '../../shared/schema-base';
import { BadQuery, BodyRefused } from './admin-refusal';
import { dropBody, readBody, readJson, type BodyRead } from './body-reader';
import { ajvCompiler } from './ajv';

/** the first problem of a body is its answer */
const compiler = ajvCompiler({ allErrors: false, strict: false });
const validators = new Map<AdminEndpointName, ValidateFunction>();

function bodySchema(name: AdminEndpointName): TSchema {
  const declared = bodyOf(name);
  if (!declared) throw new Error(`${name} declares no body`);
  return declared.schema;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? `{${key}}`);
}

/** The schema at a path of the body, with the messages of the object nearest to it. */
function at(
  root: TSchema,
  path: string[],
): { schema: TSchema | undefined; messages: BodyMessages } {
  let schema: TSchema | undefined = root;
  let messages = root['x-messages'] as BodyMessages;
  for (const key of path) {
    schema = (schema?.properties as Record<string, TSchema> | undefined)?.[key];
    if (schema?.['x-messages']) messages = schema['x-messages'] as BodyMessages;
  }
  return { schema, messages };
}

function valueAt(body: unknown, path: string[]): unknown {
  return path.reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], body);
}

/** What a JSON value that is not an object is: "an array", "null", "a string", … */
function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'number' ? 'a number' : `a ${typeof value}`;
}

/** The 400 for ajv's first error, in the endpoint's words. */
function refusal(root: TSchema, body: unknown, e: ErrorObject): BadQuery {
  const path = e.instancePath.split('/').filter(Boolean);
  const { messages } = at(root, path);
  const named = (field: string, message: string) =>
    new BadQuery(messages.named ? (field ? `body.${field}` : 'body') : '', message);
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties') {
    const field = [...path, String(params.additionalProperty)].join('.');
    return named(field, fill(messages.unknown, { field }));
  }
  if (e.keyword === 'maxProperties' && messages.together) {
    // a field the body does not take is said as unknown, not as one of two sent together
    const declared = Object.keys(at(root, path).schema?.properties ?? {});
    const unknown = Object.keys(valueAt(body, path) as object).find((k) => !declared.includes(k));
    if (unknown !== undefined) {
      const field = [...path, unknown].join('.');
      return named(field, fill(messages.unknown, { field }));
    }
    return named(
      '',
      fill(messages.together, { fields: Object.keys(body as object).join(' and ') }),
    );
  }
  if (e.keyword === 'minProperties' && messages.empty) return named('', messages.empty);
  // the body, or an object inside it, is not an object
  if (e.keyword === 'type' && at(root, path).schema?.type === 'object')
    return named(
      path.join('.'),
      fill(messages.notObject, { value: jsonKind(valueAt(body, path)) }),
    );
  const fieldPath = e.keyword === 'required' ? [...path, String(params.missingProperty)] : path;
  const field = fieldPath.join('.');
  const rule = String(at(root, fieldPath).schema?.['x-rule'] ?? e.message);
  // a field left out is said to be required, not judged as if its value were "nothing"
  if (e.keyword === 'required' && messages.missing)
    return named(field, fill(messages.missing, { field, rule }));
  const value = shown(valueAt(body, fieldPath));
  return named(field, fill(messages.invalid, { field, value, rule }));
}

/** The body as the endpoint declares it; BadQuery (answered 400) when it is not. */
export function parseAdminBody<N extends AdminEndpointName>(name: N, body: unknown): BodyOf<N> {
  const schema = bodySchema(name);
  // a body that keeps its schema is taken without a validator; ajv is loaded and the body's schema
  // compiled only to word a refusal (its first error), and its judgement is the last word
  if (fits(schema, body)) return body as BodyOf<N>;
  let validate = validators.get(name);
  if (!validate) {
    validate = compiler().compile(JSON.parse(JSON.stringify(schema)) as object);
    validators.set(name, validate);
  }
  if (!validate(body)) throw refusal(schema, body, validate.errors![0]!);
  return body as BodyOf<N>;
}

/** The message a field's value breaking its declared rule gets (for checks past the schema). */
export function fieldRefusal(name: AdminEndpointName, field: string, value: unknown): BadQuery {
  const root = bodySchema(name);
  const path = field.split('.');
  const { schema, messages } = at(root, path);
  const message = fill(messages.invalid, {
    field,
    value: shown(value),
    rule: String(schema?.['x-rule']),
  });
  return new BadQuery(messages.named ? `body.${field}` : '', message);
}

type Declared<N extends AdminEndpointName> = (typeof ADMIN_API)[N] extends { body: infer D }
  ? D
  : undefined;

/**
 * What a handler gets of its body, by the declaration: JSON as its schema's type (undefined when optional
 * and absent), a recording's bytes (null when empty), a raw body with whether it passed the cap, nothing
 * for a streamed body (the handler reads the request) or an endpoint that takes none.
 */
export type AdminBody<N extends AdminEndpointName> =
  Declared<N> extends { media: 'json'; schema: infer S extends TSchema }
    ? Declared<N> extends { optional: true }
      ? Static<S> | undefined
      : Static<S>
    : Declared<N> extends { streamed: true }
      ? undefined
      : Declared<N> extends { media: 'raw' }
        ? BodyRead
        : Declared<N> extends { media: 'ndjson' }
          ? Buffer | null
          : undefined;

const size = (n: number) => (n >= 1024 * 1024 ? `${n / 1024 / 1024} MB` : `${n / 1024} KB`);

function tooLarge(declared: BodyDeclaration, what: string): BodyRefused {
  const rule = `a body may have at most ${declared.maxBytes} bytes (${size(declared.maxBytes)})`;
  const fix = `send ${declared.expected}`;
  return new BodyRefused(413, 'body', declared.tooLarge ?? `body: ${what}; ${rule}: ${fix}`, {
    value: what,
    rule,
    fix,
  });
}

/** A Content-Type the body's media is not taken in: 415 naming the ones it is. */
function unsupported(
  name: AdminEndpointName,
  declared: BodyDeclaration,
  type: string,
): BodyRefused {
  const { method, path } = ADMIN_API[name];
  const accepted = BODY_CONTENT_TYPES[declared.media] ?? [];
  const rule = `${method} ${path} takes ${accepted.join(', ')} (or no Content-Type)`;
  const fix = `send ${declared.expected} with Content-Type: ${accepted[0]}`;
  return new BodyRefused(415, 'content-type', `Content-Type ${type}: ${rule}; ${fix}`, {
    value: type,
    rule,
    fix,
  });
}

/** A Content-Encoding other than none (`identity`), as sent; null for none. */
function contentEncoding(header: string | undefined): string | null {
  const value = (header ?? '').trim();
  return value === '' || value.toLowerCase() === 'identity' ? null : value;
}

/**
 * A compressed body (Content-Encoding gzip, deflate, br…): 415 naming the header. Admin bodies are read
 * as sent, never decompressed (a decompressed body could pass the size cap many times over).
 */
function compressed(name: AdminEndpointName, encoding: string): BodyRefused {
  const { method, path } = ADMIN_API[name];
  const rule = `${method} ${path} takes its body uncompressed`;
  const fix =
    'send the body uncompressed, without a Content-Encoding header (a .gz file: gunzip it first)';
  return new BodyRefused(415, 'content-encoding', `Content-Encoding ${encoding}: ${rule}; ${fix}`, {
    value: encoding,
    rule,
    fix,
  });
}

/**
 * Read the body of a request to `name` as its declaration says (nothing for an endpoint that takes
 * none); throws BodyRefused (400, 413, 415: its Content-Type, or any Content-Encoding) or BadQuery (a JSON body breaking its schema).
 */
export async function readAdminBody<N extends AdminEndpointName>(
  name: N,
  req: Request,
): Promise<AdminBody<N>> {
  const declared = bodyOf(name);
  if (!declared) return undefined as AdminBody<N>;
  const type = req.headers['content-type'];
  if (!takesContentType(declared.media, type)) {
    dropBody(req);
    throw unsupported(name, declared, String(type));
  }
  // a beacon body for the dry-run check is judged as the beacon service judges it (its answer is the
  // service's, its errors say the body was compressed)
  const encoding = contentEncoding(req.headers['content-encoding']);
  if (encoding !== null && declared.media !== 'raw') {
    dropBody(req);
    throw compressed(name, encoding);
  }
  if (declared.streamed) {
    // refused before a byte is read when it says it is too large; otherwise the handler reads it
    const length = Number(req.headers['content-length']);
    if (length > declared.maxBytes) {
      dropBody(req);
      throw tooLarge(declared, `${length} bytes`);
    }
    return undefined as AdminBody<N>;
  }
  if (declared.media === 'raw') return (await readBody(req, declared.maxBytes)) as AdminBody<N>;
  if (declared.media === 'ndjson') {
    const read = await readBody(req, declared.maxBytes);
    if (read.tooLarge) throw tooLarge(declared, `larger than ${size(declared.maxBytes)}`);
    return read.body as AdminBody<N>;
  }
  const read = await readJson(req, { bytes: declared.maxBytes, expected: declared.expected });
  if ('refused' in read) {
    const { status, value, rule, fix, message } = read.refused;
    if (status === 413) throw tooLarge(declared, value);
    throw new BodyRefused(status, 'body', message, { value, rule, fix });
  }
  if (read.value === undefined && declared.optional) return undefined as AdminBody<N>;
  return parseAdminBody(name, read.value) as AdminBody<N>;
}
