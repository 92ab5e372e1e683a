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

interface Validators {
  /** every problem (allErrors): compiled when a body of the endpoint first fails */
  all?: ValidateFunction;
  /** stops at the first problem: cheap on any body */
  first: ValidateFunction;
}

interface Compilers {
  all: Ajv;
  first: Ajv;
  validators: Map<string, Validators>;
}

let compilers: Compilers | null = null;

/**
 * RFC 3339 date-time as ajv-formats checks it (`full` mode), with a fast path for the one shape nearly
 * every client sends (`Date.prototype.toISOString`: 2026-11-20T10:00:00.000Z): when that shape is a
 * valid date and time the answer is true at once; everything else goes to ajv-formats' own function,
 * so the format accepts exactly what it did (checked against it in test/unit/schemas-format.test.ts).
 */
export function dateTimeFormat(full: (s: string) => boolean): (s: string) => boolean {
  const DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22];
  const SEPARATORS: Array<[number, number]> = [
    [4, 45], // -
    [7, 45],
    [10, 84], // T
    [13, 58], // :
    [16, 58],
    [19, 46], // .
    [23, 90], // Z
  ];
  const num = (s: string, at: number) => (s.charCodeAt(at) - 48) * 10 + s.charCodeAt(at + 1) - 48;
  const isoShape = (s: string) => {
    if (s.length !== 24) return false;
    for (const [at, code] of SEPARATORS) if (s.charCodeAt(at) !== code) return false;
    for (const at of DIGITS) {
      const c = s.charCodeAt(at);
      if (c < 48 || c > 57) return false;
    }
    return true;
  };
  return (s) => {
    if (isoShape(s)) {
      const year = num(s, 0) * 100 + num(s, 2);
      const month = num(s, 5);
      const day = num(s, 8);
      const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
      const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
      if (
        month >= 1 &&
        month <= 12 &&
        day >= 1 &&
        day <= days &&
        num(s, 11) <= 23 &&
        num(s, 14) <= 59 &&
        num(s, 17) <= 59
      )
        return true;
    }
    return full(s);
  };
}

/**
 * The validators of one endpoint, compiled on its first body and kept for the process (every sandbox
 * shares them): a process that only sees search beacons never pays for the other 30-odd schemas, and
 * `check` starts in a fraction of the time it took to compile them all.
 */
function validatorsOf(endpoint: string): Validators | undefined {
  if (!compilers) {
    const options = { strict: true, strictTypes: false, strictRequired: false } as const;
    const all = new Ajv({ ...options, allErrors: true });
    const first = new Ajv({ ...options, allErrors: false });
    addFormats(all, ['date-time']);
    addFormats(first, ['date-time']);
    const full = (all.formats['date-time'] as { validate: (s: string) => boolean }).validate;
    const fast = { type: 'string' as const, validate: dateTimeFormat(full) };
    all.addFormat('date-time', fast);
    first.addFormat('date-time', fast);
    compilers = { all, first, validators: new Map() };
  }
  let v = compilers.validators.get(endpoint);
  if (!v) {
    const schema = endpoints[endpoint]?.schema;
    if (!schema) return undefined;
    v = { first: compilers.first.compile(schema) };
    compilers.validators.set(endpoint, v);
  }
  return v;
}

function allErrors(endpoint: string, v: Validators): ValidateFunction {
  return (v.all ??= compilers!.all.compile(endpoints[endpoint]!.schema));
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
  const v = validatorsOf(endpoint);
  if (!v) throw new Error(`no beacon v2 schema for ${endpoint}`);
  if (v.first(body)) return [];
  const items = longList(body);
  if (items > MAX_ITEMS_FOR_ALL_ERRORS) {
    const issues = issuesFromAjv(v.first.errors);
    return [
      ...issues,
      {
        message: `further problems of this body are not listed: one of its lists holds ${items} items (fix the problem above, then send it again)`,
        path: '',
      },
    ];
  }
  const all = allErrors(endpoint, v);
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

/**
 * The endpoints a storefront sends first and most (a search or category page, then its clicks, carts and
 * orders), then the rest: the order `warmValidator` is given them by a server that compiles ahead.
 */
const WARM_FIRST = [
  'search/render',
  'search/impression',
  'search/clickthrough',
  'search/addtocart',
  'category/render',
  'category/impression',
  'category/clickthrough',
  'category/addtocart',
  'autocomplete/render',
  'autocomplete/impression',
  'autocomplete/clickthrough',
  'product/pageview',
  'cart/add',
  'cart/remove',
  'order/transaction',
  'shopper/login',
  'recommendations/render',
  'recommendations/impression',
  'recommendations/clickthrough',
];

/** Every endpoint, the most used first. */
export const WARM_ORDER: readonly string[] = [
  // no filter: a name that is not an endpoint fails test/unit/warm-validators.test.ts, not skipped here
  ...WARM_FIRST,
  ...BEACON_ENDPOINTS.filter((e) => !WARM_FIRST.includes(e)),
];

/**
 * Compile one endpoint's validator now (5–30 ms; the first, with ajv itself, ~100 ms) rather than on its
 * first beacon, whose answer would wait for it. A server calls it for each of WARM_ORDER in idle turns.
 */
export function warmValidator(endpoint: string): void {
  validatorsOf(endpoint);
}

/** The endpoints whose validator is compiled in this process (tests see the warm-up's progress). */
export function compiledEndpoints(): string[] {
  return compilers ? [...compilers.validators.keys()] : [];
}
