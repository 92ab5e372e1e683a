// What of a beacon event a baseline compares: its body with the values that differ between any two runs by
// nature left out, the page URL without scheme, host and port (a query parameter carrying one of the page's
// volatile ids reads `{orderId}`, `{sessionId}`, …, the parameters in the order of their names), each
// responseId replaced by its place on the page (the first response the page saw is "response 1") and each
// orderId by its form (`WEB-{digits}`). Keys are sorted, so two events compare as two strings.
// Of the recorded event around the body nothing is compared: when it arrived and how far the sandbox clock
// was moved then (`receivedAt`, `clockOffsetMs`) differ between runs by nature, as its id and seq do.
import { isObject } from '../../shared/values';
import type { IgnoreUse } from './ignore-use';
import { pagePath } from '../../shared/page-location';

/** context values every run has its own of */
const VOLATILE_CONTEXT = new Set(['sessionId', 'userId', 'shopperId', 'pageLoadId', 'timestamp']);

/** A field left out by `--ignore`: its path's parts, `[]` standing for any index. */
export type IgnorePath = readonly string[];

/** A path naming a field no comparison reads (`context.userId`): one of VOLATILE_CONTEXT, or inside one. */
export function neverCompared(path: IgnorePath): boolean {
  return path.length >= 2 && path[0] === 'context' && VOLATILE_CONTEXT.has(path[1]!);
}

const IGNORE_SYNTAX = /^[A-Za-z_$][\w$-]*(\[\d*\])*(\.[A-Za-z_$][\w$-]*(\[\d*\])*)*$/;

/** `query.NAME`: a parameter of the page URL, not a field of the body (bodies have no `query`). */
const QUERY_PARAM = /^query\.([^&=#?\s]+)$/;

/**
 * `data.results[].price` → ['data', 'results', '[]', 'price'], `query.token` → ['query', 'token'] (a page
 * URL's parameter); a reason when the text is neither, naming the path as `given` says it (`--ignore` for
 * `diff`, `ignore[0]` for expectMatchesBaseline's option).
 */
export function parseIgnorePath(text: string, given = '--ignore'): IgnorePath | string {
  const param = QUERY_PARAM.exec(text);
  if (param) return ['query', param[1]!];
  if (!IGNORE_SYNTAX.test(text))
    return `${given} "${text}" is not a field path: use dotted names with [] for any index, e.g. data.results[].price or context.pageUrl, or query.NAME for a parameter of the page URL, e.g. query.token`;
  const parts: string[] = [];
  for (const segment of text.split('.')) {
    const at = segment.indexOf('[');
    parts.push(at < 0 ? segment : segment.slice(0, at));
    if (at >= 0) for (const m of segment.slice(at).matchAll(/\[(\d*)\]/g)) parts.push(`[${m[1]}]`);
  }
  return parts;
}

/** How pages are told apart: the URL parameters `--ignore query.NAME` leaves out, and whether URLs count. */
export interface PageMatching {
  params: ReadonlySet<string>;
  /** `--ignore context.pageUrl`: pages are matched by their kind and place only */
  urls: boolean;
}

export function pageMatching(ignore: readonly IgnorePath[]): PageMatching {
  const params = new Set<string>();
  let urls = true;
  for (const path of ignore) {
    if (path.length === 2 && path[0] === 'query') params.add(path[1]!);
    if (path.length === 2 && path[0] === 'context' && path[1] === 'pageUrl') urls = false;
  }
  return { params, urls };
}

/** JSON with sorted keys: equal values give equal text. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v ?? null)).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Leave out what a path names (on a copy made by `strip`, so in place); whether it named a field there. */
function dropPath(value: unknown, path: IgnorePath, from: number): boolean {
  if (from >= path.length - 1) {
    const last = path[path.length - 1]!;
    if (Array.isArray(value) && last.startsWith('[')) {
      if (last === '[]') value.length = 0;
      else return value.splice(Number(last.slice(1, -1)), 1).length > 0;
      return true;
    }
    if (isObject(value) && !last.startsWith('[') && last in value) return delete value[last];
    return false;
  }
  const part = path[from]!;
  if (Array.isArray(value) && part.startsWith('[')) {
    if (part !== '[]') return dropPath(value[Number(part.slice(1, -1))], path, from + 1);
    let dropped = false;
    for (const v of value) if (dropPath(v, path, from + 1)) dropped = true;
    return dropped;
  }
  if (isObject(value) && !part.startsWith('[')) return dropPath(value[part], path, from + 1);
  return false;
}

/** Keys in order: a copy built with sorted keys is written by JSON.stringify as `canonical` would (fast). */
function sortedKeys(value: Record<string, unknown>): string[] {
  const keys = Object.keys(value);
  // insertion sort: objects of a beacon have a handful of keys, often in order already
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

/** A run of letters and digits, or of anything else (`WEB`, `-`, `847661`). */
const RUNS = /[A-Za-z0-9]+|[^A-Za-z0-9]+/g;

/**
 * The form of an orderId, compared where its value is not (every run places new orders): `WEB-847661`
 * reads `WEB-{digits}`, so that a release whose orderIds take another form (a prefix added, letters where
 * digits were) is a change, and two runs of one storefront never differ in it. What is certain decides what
 * it keeps:
 * - digits are the run's own (a counter, a random number; a counter gains a digit now and then): each run
 *   of them reads `{digits}`, whatever its length;
 * - the letters and signs beside them (`WEB-`, `#`, `ORD_2026_`) are the storefront's format, the same in
 *   every run: kept as written;
 * - in a value with letters and digits in one run (`R1001`, a UUID, a hexadecimal or base-36 key), or with
 *   no digit at all, the letters may be as random as the digits: each alphanumeric run reads `{key}`, the
 *   signs between them kept (a UUID is `{key}-{key}-{key}-{key}-{key}` in every run).
 * Not certain, and so a difference now and then: a short random key that came out all digits (an
 * 8-character hexadecimal one, one run in 43) reads `{digits}`; `--ignore data.orderId` leaves the form out.
 */
export function orderIdForm(value: unknown): unknown {
  if (typeof value === 'number') return '{number}';
  if (typeof value !== 'string') return value;
  const runs = value.match(RUNS) ?? [];
  const mixed = (run: string) => /[A-Za-z]/.test(run) && /\d/.test(run);
  const key = !/\d/.test(value) || runs.some(mixed);
  const form = (run: string) =>
    !/[A-Za-z0-9]/.test(run) ? run : key ? '{key}' : /^\d+$/.test(run) ? '{digits}' : run;
  return runs.map(form).join('');
}

/**
 * A copy of a value with its keys sorted, responseIds replaced by their place, orderIds by their form and
 * timestamps left out (`place` absent: a baseline's values, already so, only sorted).
 */
export function strip(value: unknown, place?: (responseId: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => strip(v, place));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const k of sortedKeys(value)) {
    const v = value[k];
    if (place && k === 'timestamp') continue;
    if (place && k === 'orderId') out[k] = orderIdForm(v);
    else out[k] = place && k === 'responseId' && typeof v === 'string' ? place(v) : strip(v, place);
  }
  return out;
}

/** Leaves every `orderId` out of a value (in place). */
function dropOrderIds(value: unknown): void {
  if (Array.isArray(value)) for (const v of value) dropOrderIds(v);
  else if (isObject(value)) {
    delete value.orderId;
    for (const v of Object.values(value)) dropOrderIds(v);
  }
}

/** A compared text without its orderIds' forms, as a baseline file written before they were compared has it. */
export function withoutOrderIdForms(text: string): string {
  if (!text.includes('"orderId":')) return text;
  const fields = JSON.parse(text) as unknown;
  dropOrderIds(fields);
  return JSON.stringify(fields);
}

/**
 * The compared fields of a body (its context and data; the siteId of the path is not the body's: a staging
 * site and production may send the same under two siteIds), keys sorted: a body not an object is kept whole.
 */
export function comparedFields(
  body: unknown,
  place: (responseId: string) => string,
  location: (pageUrl: string) => string = pagePath,
): Record<string, unknown> {
  if (!isObject(body)) return { body: body ?? null };
  const fields: Record<string, unknown> = {};
  for (const k of sortedKeys(body)) {
    const v = body[k];
    if (k === 'context' && isObject(v)) {
      const context: Record<string, unknown> = {};
      for (const ck of sortedKeys(v)) {
        if (VOLATILE_CONTEXT.has(ck)) continue;
        const cv = v[ck];
        context[ck] = ck === 'pageUrl' && typeof cv === 'string' ? location(cv) : strip(cv, place);
      }
      fields.context = context;
    } else fields[k] = strip(v, place);
  }
  return fields;
}

/**
 * The fields as compared (built with sorted keys: comparedFields or strip), `--ignore` paths left out, as
 * JSON. Equal fields give equal text: integer-like keys, which objects keep first, do so on both sides.
 */
export function fieldsText(
  fields: Record<string, unknown>,
  ignore: readonly IgnorePath[],
  use?: IgnoreUse,
): string {
  for (const [i, path] of ignore.entries()) if (dropPath(fields, path, 0)) use?.used(i);
  use?.fields(fields);
  return JSON.stringify(fields);
}

/** The name a responseId gets by its place on its page. */
export function responsePlace(n: number): string {
  return `response ${n}`;
}
