// The beacon v2 request schemas (generated from the provider's OAS, see scripts/generate-beacon-schemas.ts),
// compiled once per process with ajv, and the one function ingest calls: validate a parsed body.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ValidationIssue } from '../../shared/events';
import generated from './beacon-schemas.generated.json';
import { issuesFromAjv } from './validation-messages';

interface GeneratedEndpoint {
  operationId: string;
  summary: string;
  schema: object;
  examples: Record<string, unknown>;
}

const endpoints = (generated as unknown as { endpoints: Record<string, GeneratedEndpoint> })
  .endpoints;

/** `category/event` of every beacon v2 endpoint the provider describes, e.g. `search/render`. */
export const BEACON_ENDPOINTS: readonly string[] = Object.keys(endpoints);
const known = new Set(BEACON_ENDPOINTS);

/** Where the sandbox is stricter than the OAS (shown in docs and by the UI). */
export const SCHEMA_TIGHTENINGS: readonly string[] = (
  generated as unknown as { tightenings: string[] }
).tightenings;

export const SCHEMA_SOURCE = (generated as unknown as { source: Record<string, string> }).source;

export function isBeaconEndpoint(category: string, event: string): boolean {
  return known.has(`${category}/${event}`);
}

/** The OAS examples of one endpoint, by example name (deep copies: callers may mutate them). */
export function endpointExamples(endpoint: string): Record<string, unknown> {
  return structuredClone(endpoints[endpoint]?.examples ?? {});
}

export function endpointSchema(endpoint: string): object | undefined {
  return endpoints[endpoint]?.schema;
}

// ajv-formats ships CommonJS; depending on the bundler its default export is the function or wraps it.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as (ajv: Ajv, formats: string[]) => Ajv;

let compiled: Map<string, ValidateFunction> | null = null;

/** Compile all endpoints on first use and keep them for the process: every sandbox shares them. */
function validators(): Map<string, ValidateFunction> {
  if (compiled) return compiled;
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
  addFormats(ajv, ['date-time']);
  const map = new Map<string, ValidateFunction>();
  for (const [endpoint, { schema }] of Object.entries(endpoints))
    map.set(endpoint, ajv.compile(schema));
  compiled = map;
  return map;
}

/** Every problem of a parsed body at once, in the service's words; [] when it is valid. */
export function validateBeaconBody(endpoint: string, body: unknown): ValidationIssue[] {
  const validate = validators().get(endpoint);
  if (!validate) throw new Error(`no beacon v2 schema for ${endpoint}`);
  if (validate(body)) return [];
  return issuesFromAjv(validate.errors);
}
