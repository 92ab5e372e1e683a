// Whether a value keeps one of the admin API's request schemas (a query or path parameter, a JSON body),
// judged by walking the schema: nothing is compiled, so a sandbox answers its first admin requests without
// loading a validator, and the package's client judges an option by the same rule the server applies.
// The declaration uses a few keywords (KEYWORDS); the param-judge test walks every parameter and body it
// declares, fails on any other, and judges a spread of values by this and by ajv, which must agree. A
// refusal's wording still comes from ajv's first error (src/main/http/admin-body.ts), loaded only then.
import type { TSchema } from '@sinclair/typebox';

/** The keywords fits judges, and the words only people and refusals read. */
export const KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'properties',
  'additionalProperties',
  'required',
  'minProperties',
  'maxProperties',
  'anyOf',
  'const',
  'minLength',
  'pattern',
  'minimum',
  'maximum',
  'description',
  'x-rule',
  'x-messages',
  'x-values',
  'x-required',
]);

/** Patterns as JSON Schema reads them (Unicode), made once each. */
const patterns = new Map<string, RegExp>();

function matches(pattern: string, text: string): boolean {
  let re = patterns.get(pattern);
  if (!re) patterns.set(pattern, (re = new RegExp(pattern, 'u')));
  return re.test(text);
}

/** The length JSON Schema gives a string: its code points, not its UTF-16 units. */
function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

function fitsObject(schema: TSchema, value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, TSchema>;
  const keys = Object.keys(record);
  for (const key of keys) {
    if (Object.hasOwn(properties, key)) {
      if (!fits(properties[key]!, record[key])) return false;
    } else if (schema.additionalProperties === false) return false;
  }
  for (const key of (schema.required ?? []) as string[])
    if (!Object.hasOwn(record, key)) return false;
  if (schema.minProperties !== undefined && keys.length < (schema.minProperties as number))
    return false;
  return schema.maxProperties === undefined || keys.length <= (schema.maxProperties as number);
}

/** Whether `value` keeps `schema` (a schema of the admin API's requests: KEYWORDS). */
export function fits(schema: TSchema, value: unknown): boolean {
  if (Array.isArray(schema.anyOf) && !(schema.anyOf as TSchema[]).some((s) => fits(s, value)))
    return false;
  if ('const' in schema && value !== schema.const) return false;
  switch (schema.type) {
    case undefined:
      return Array.isArray(schema.anyOf);
    case 'object':
      return fitsObject(schema, value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return (
        Number.isInteger(value) &&
        (schema.minimum === undefined || (value as number) >= (schema.minimum as number)) &&
        (schema.maximum === undefined || (value as number) <= (schema.maximum as number))
      );
    case 'string':
      return (
        typeof value === 'string' &&
        (schema.minLength === undefined || codePoints(value) >= (schema.minLength as number)) &&
        (schema.pattern === undefined || matches(schema.pattern as string, value))
      );
    default:
      return false;
  }
}
