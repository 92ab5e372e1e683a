// Query parameters of search.json as the provider's Snap client sends them, read into a request; a bad
// parameter is an error naming it, its value and what is expected.
import type { Filter, Sort } from './query';
import { InvalidParameter } from './errors';
import { REQUESTER_PARAMS, requesterOf, type Requester } from './requester';
import { clipped } from '../../shared/text';
import { SITE_ID_PATTERN } from '../../shared/site-id';

export interface SearchRequest {
  siteId: string;
  q: string;
  page: number;
  /** null: the site's default */
  resultsPerPage: number | null;
  filters: Filter[];
  sort: Sort | null;
  /** minimal (default): a triggered redirect answers with the redirect only; full: with the results too */
  redirectResponse: 'minimal' | 'full';
  /** beacon=true: issue a responseId (the Snap client always sends it) */
  beacon: boolean;
  /** test=true: development traffic (the Snap client's development mode sends it) */
  test: boolean;
  /** the tracking context the request carried (userId, sessionId, pageLoadId, domain, shopper) */
  requester?: Requester;
  /** what the request asked that the answer cannot do as meant, said in the answer's `notes` */
  notes: string[];
}

export const MAX_RESULTS_PER_PAGE = 250;

function bad(param: string, value: string, expected: string): InvalidParameter {
  return new InvalidParameter(`${param}=${clipped(String(JSON.stringify(value)))}: ${expected}`);
}

function flag(params: URLSearchParams, name: string): boolean {
  const v = oneParam(params, name);
  if (v === null || v === '') return false;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw bad(name, v, 'use true or false');
}

function wholeNumber(
  params: URLSearchParams,
  name: string,
  min: number,
  max: number,
): number | null {
  const v = oneParam(params, name);
  if (v === null || v === '') return null;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max)
    throw bad(name, v, `use a whole number from ${min} to ${max}`);
  return n;
}

function bound(name: string, v: string): number | null {
  if (v === '*' || v === '') return null;
  const n = Number(v);
  if (!Number.isFinite(n)) throw bad(name, v, 'use a number, or * for no bound');
  return n;
}

/**
 * The one value of a parameter, or null without one. Sent twice with different values (a storefront that
 * appends its own siteId to a URL that had one, a client that `append`s a page where it meant to `set` it),
 * it is refused: whichever were used, the other was meant. Every parameter that takes one value is read so.
 */
export function oneParam(params: URLSearchParams, name: string): string | null {
  const values = [...new Set(params.getAll(name))];
  if (values.length > 1)
    throw new InvalidParameter(
      `${name} is given ${values.length} times with different values (${values.map((v) => clipped(JSON.stringify(v))).join(', ')}): send one ${name}`,
    );
  return values[0] ?? null;
}

/** How many suggestions (or trending terms) to answer: `name`, a whole number from 0 to 50, 5 without it. */
export function countParam(params: URLSearchParams, name: string): number {
  const raw = oneParam(params, name) ?? '5';
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 0 || count > 50)
    throw bad(name, raw, 'use a whole number from 0 to 50');
  return count;
}

/** Control characters other than tab and line breaks (which separate words, like spaces). */
const CONTROL = /[^\P{Cc}\t\n\r]/u;

/**
 * A query's text: a control character in it (a NUL from a broken encoder) would split it into no words,
 * and an empty query browses the whole catalog, so it is refused rather than answered with every product.
 */
export function queryText(params: URLSearchParams, name: string): string {
  const q = oneParam(params, name) ?? '';
  const at = q.search(CONTROL);
  if (at !== -1) {
    const code = q.codePointAt(at)!.toString(16).toUpperCase().padStart(4, '0');
    throw bad(
      name,
      q,
      `a query holds no control characters (U+${code} at position ${at + 1}): send the text the shopper typed`,
    );
  }
  return q;
}

/** The siteId asked for; `known` (the configured sites, in config order) gives the example a refusal shows. */
export function siteIdOf(params: URLSearchParams, known: readonly string[] = []): string {
  const siteId = oneParam(params, 'siteId') ?? '';
  if (!SITE_ID_PATTERN.test(siteId))
    throw new InvalidParameter(
      siteId
        ? `siteId=${JSON.stringify(siteId)}: a siteId is 6 lowercase letters or digits`
        : `siteId is required, ${known[0] ? `e.g. ?siteId=${known[0]}` : 'the siteId of an account in the config file'}`,
    );
  return siteId;
}

export function parseSearchRequest(
  params: URLSearchParams,
  known: readonly string[] = [],
): SearchRequest {
  const siteId = siteIdOf(params, known);
  const filters = new Map<string, Filter>();
  const notes: string[] = [];
  let sort: Sort | null = null;
  for (const [key, value] of params) {
    const m = /^(bgfilter|filter)\.(.*?)(\.low|\.high)?$/.exec(key);
    if (m) {
      const background = m[1] === 'bgfilter';
      const field = m[2]!;
      const id = `${m[1]}.${field}`;
      if (field === '') {
        // no field to filter on: passed over, as before, but said (a template that lost the field's name)
        notes.push(
          `${clipped(key)}=${clipped(JSON.stringify(value))} names no field, so it filters nothing: send ${m[1]}.{field}=value`,
        );
        continue;
      }
      if (m[3]) {
        let f = filters.get(id);
        if (!f) filters.set(id, (f = { kind: 'range', field, low: null, high: null, background }));
        if (f.kind !== 'range')
          throw bad(
            key,
            value,
            `${id} is already a value filter; use either ${id}=value or ${id}.low/.high`,
          );
        if (m[3] === '.low') f.low = bound(key, value);
        else f.high = bound(key, value);
      } else {
        let f = filters.get(id);
        if (!f) filters.set(id, (f = { kind: 'value', field, values: [], background }));
        if (f.kind !== 'value')
          throw bad(
            key,
            value,
            `${id} is already a range filter; use either ${id}=value or ${id}.low/.high`,
          );
        f.values.push(value);
      }
      continue;
    }
    const s = /^sort\.(.+)$/.exec(key);
    if (s) {
      if (value !== 'asc' && value !== 'desc') throw bad(key, value, 'use asc or desc');
      if (sort) throw bad(key, value, `only one sort at a time (already sort.${sort.field})`);
      sort = { field: s[1]!, direction: value };
    }
  }
  // the tracking context binds the response to one shopper: two of an id would leave which one in doubt
  for (const name of REQUESTER_PARAMS) oneParam(params, name);
  const requester = requesterOf(params);
  const redirectResponse = oneParam(params, 'redirectResponse') ?? 'minimal';
  if (redirectResponse !== 'minimal' && redirectResponse !== 'full')
    throw bad('redirectResponse', redirectResponse, 'use minimal or full');
  const page = wholeNumber(params, 'page', 1, 100_000) ?? 1;
  const resultsPerPage = wholeNumber(params, 'resultsPerPage', 0, MAX_RESULTS_PER_PAGE);
  // no results per page asks for the counts and facets alone (Snap's finder does): they have no page 2
  if (resultsPerPage === 0 && page > 1)
    throw bad(
      'page',
      String(page),
      `resultsPerPage=0 asks for the counts and facets only, which have no other page than 1: drop page, or ask resultsPerPage from 1 to ${MAX_RESULTS_PER_PAGE}`,
    );
  return {
    siteId,
    q: queryText(params, 'q'),
    page,
    resultsPerPage,
    filters: [...filters.values()],
    sort,
    redirectResponse,
    beacon: flag(params, 'beacon'),
    test: flag(params, 'test'),
    ...(requester && { requester }),
    notes,
  };
}
