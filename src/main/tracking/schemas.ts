// The beacon v2 request schemas (generated from the provider's OAS, see scripts/generate-beacon-schemas.ts),
// their validators, and the one function ingest calls: validate a parsed body.
import { createRequire } from 'node:module';
import type { Ajv, ValidateFunction } from 'ajv';
import type { ValidationIssue } from '../../shared/events';
import { beaconAjv } from './beacon-formats';
import generated from './beacon-schemas.generated.json';
import { VALIDATORS } from './beacon-validators.generated.js';
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

/** Every problem of a body (allErrors), compiled for an endpoint when a body of it first fails. */
let listingAll: { ajv: Ajv; validators: Map<string, ValidateFunction> } | null = null;

function allErrors(endpoint: string): ValidateFunction {
  if (!listingAll) {
    // ajv itself is loaded here, when a body first fails: ~45 ms of a process's start that one whose bodies
    // all pass (a clean `check`, most `serve` runs) never needs
    const { Ajv } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
    const ajv = beaconAjv(Ajv, { allErrors: true });
    listingAll = { ajv, validators: new Map() };
  }
  let v = listingAll.validators.get(endpoint);
  if (!v) {
    v = listingAll.ajv.compile(endpoints[endpoint]!.schema);
    listingAll.validators.set(endpoint, v);
  }
  return v;
}

/** At most this many problems are listed for one request; the answer says how many more there were. */
export const MAX_ISSUES = 50;
/** Bodies with a list longer than this get their first problem only: listing all would cost seconds. */
const MAX_ITEMS_FOR_ALL_ERRORS = 1000;

function longList(body: unknown): number {
  const data = (body as { data?: Record<string, unknown> } | null)?.data;
  if (!data || typeof data !== 'object') return 0;
  let longest = 0;
  for (const v of Object.values(data)) if (Array.isArray(v)) longest = Math.max(longest, v.length);
  return longest;
}

/**
 * The problems of a parsed body in the service's words; [] when it is valid. Bounded whatever the body
 * holds: a hostile body with 350,000 bad items is answered with its first problems and a count, fast.
 */
export function validateBeaconBody(endpoint: string, body: unknown): ValidationIssue[] {
  // compiled at build time (scripts/compile-beacon-validators.ts): no body waits for a compile
  const first = VALIDATORS[endpoint];
  if (!first) throw new Error(`no beacon v2 schema for ${endpoint}`);
  if (first(body)) return [];
  const items = longList(body);
  if (items > MAX_ITEMS_FOR_ALL_ERRORS) {
    const issues = issuesFromAjv(first.errors);
    return [
      ...issues,
      {
        message: `further problems of this body are not listed: one of its lists holds ${items} items (fix the problem above, then send it again)`,
        path: '',
      },
    ];
  }
  const all = allErrors(endpoint);
  all(body);
  const issues = issuesFromAjv(all.errors);
  if (issues.length <= MAX_ISSUES) return issues;
  return [
    ...issues.slice(0, MAX_ISSUES),
    {
      message: `and ${issues.length - MAX_ISSUES} more problems of this body (not listed)`,
      path: '',
    },
  ];
}
