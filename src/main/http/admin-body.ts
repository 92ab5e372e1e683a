// Admin request bodies validated by the declaration's compiled schema (ajv): the endpoint's `body` in
// src/shared/admin-api.ts carries its 400 messages (`x-messages`) and each field the rule it follows
// (`x-rule`), so a refusal names the field, the value and the fix, worded as the endpoint always did.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { TSchema } from '@sinclair/typebox';
import { ADMIN_API, type AdminEndpointName, type BodyOf } from '../../shared/admin-api';
import type { BodyMessages } from '../../shared/schema-base';
import { BadQuery } from './admin-query';

const ajv = new Ajv({ allErrors: false, strict: false });
const validators = new Map<AdminEndpointName, ValidateFunction>();

function bodySchema(name: AdminEndpointName): TSchema {
  const schema = (ADMIN_API[name] as { body?: TSchema }).body;
  if (!schema) throw new Error(`${name} declares no body`);
  return schema;
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

/** A value as a refusal shows it: its JSON, cut short when long (a refusal never echoes unbounded input). */
export function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length <= 120 ? text : `${text.slice(0, 100)}… (${text.length} characters)`;
}

function valueAt(body: unknown, path: string[]): unknown {
  return path.reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], body);
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
  if (e.keyword === 'maxProperties' && messages.together)
    return named(
      '',
      fill(messages.together, { fields: Object.keys(body as object).join(' and ') }),
    );
  if (e.keyword === 'minProperties' && messages.empty) return named('', messages.empty);
  // the body, or an object inside it, is not an object
  if (e.keyword === 'type' && at(root, path).schema?.type === 'object')
    return named(path.join('.'), messages.notObject);
  const fieldPath = e.keyword === 'required' ? [...path, String(params.missingProperty)] : path;
  const field = fieldPath.join('.');
  const rule = String(at(root, fieldPath).schema?.['x-rule'] ?? e.message);
  const value = shown(valueAt(body, fieldPath));
  return named(field, fill(messages.invalid, { field, value, rule }));
}

/** The body as the endpoint declares it; BadQuery (answered 400) when it is not. */
export function parseAdminBody<N extends AdminEndpointName>(name: N, body: unknown): BodyOf<N> {
  let validate = validators.get(name);
  if (!validate) {
    validate = ajv.compile(JSON.parse(JSON.stringify(bodySchema(name))) as object);
    validators.set(name, validate);
  }
  if (!validate(body)) throw refusal(bodySchema(name), body, validate.errors![0]!);
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
