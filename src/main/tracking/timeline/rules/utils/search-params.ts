// What makes two page URLs "the same search" for the provider's client: origin, path and the search
// parameters its URL translator reads (`responseid-reused`'s re-visit exemption), and the query a page URL
// shows (`responseid-stale`, `missing-render`).
//
// The Snap client caches a response by its request parameters (query, filters, sort, page, page size, …),
// and builds those only from the page URL parameters its UrlTranslator maps (snap-url-manager,
// `defaultConfig.parameters.core`): `q`, `oq`, `rq`, `tag`, `page` and `fallbackQuery` in the query string;
// `pageSize`, `sort` and `filter` in the hash (`#/filter:color:Blue/sort:price:asc`), or in the query
// string when a storefront configures them there (`filter.color=Blue`, `sort.price=asc`). Everything else
// — `utm_*`, `gclid`, `fbclid`, a `#top` anchor, the storefront's own parameters — never reaches the search
// request, so it cannot change the responseId.
import { urlQuery } from '../../../page-url';

const QUERY_PARAMS = new Set(['q', 'query', 'oq', 'rq', 'tag', 'page', 'fallbackQuery']);
const HASH_PARAMS = new Set(['pageSize', 'sort', 'filter', ...QUERY_PARAMS]);
/** the same, read without the page: which page of a search a URL shows is no other search */
const PAGELESS = new Set(HASH_PARAMS);

/** `filter`, `filter.color`, `filter[color]` → `filter`: the parameter family a key belongs to. */
function family(key: string): string {
  return key.split(/[.[]/, 1)[0]!;
}

function keep(params: Array<[string, string]>, key: string, value: string, allowed: Set<string>) {
  const name = family(key);
  if (!allowed.has(name)) return;
  if (name === 'page' && allowed === PAGELESS) return;
  // the translator leaves page 1 out of the URL: `?page=1` and no page are the same search
  if (name === 'page' && (value === '1' || value === '')) return;
  params.push([name === 'query' ? 'q' : key, value]);
}

/** The Snap hash form: `#/filter:color:Blue/sort:price:asc/pageSize:24`; any other fragment is an anchor. */
function hashParams(
  hash: string,
  params: Array<[string, string]>,
  allowed: Set<string> = HASH_PARAMS,
): void {
  if (!hash.startsWith('#/')) return;
  for (const segment of hash.slice(2).split('/')) {
    if (segment === '') continue;
    const [name, ...rest] = segment.split(':').map((s) => safeDecode(s));
    keep(params, rest.length > 1 ? `${name}.${rest[0]}` : name!, rest.slice(-1)[0] ?? '', allowed);
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/**
 * `origin + path ? sorted search parameters`: equal for two URLs exactly when the provider's client would
 * send the same search request from them. An unparsable URL is its own key.
 */
export function searchKey(url: string, allowed: Set<string> = HASH_PARAMS): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  const params: Array<[string, string]> = [];
  for (const [k, v] of u.searchParams) keep(params, k, v, allowed);
  hashParams(u.hash, params, allowed);
  params.sort((a, b) => (a[0] === b[0] ? a[1].localeCompare(b[1]) : a[0].localeCompare(b[0])));
  const query = params.map(([k, v]) => `${k}=${v}`).join('&');
  return `${u.origin}${u.pathname}${query ? `?${query}` : ''}`;
}

/**
 * The search a URL shows whichever of its pages: `searchKey` without `page`. Infinite scroll's backfill
 * restores pages of one search, so its pages' events may carry another page than the render's.
 */
export function searchOf(url: string): string {
  return searchKey(url, PAGELESS);
}

/** The search a URL asks for, for messages: `q=shirt`, `q=shirt, filter.color=Blue`, or `no search parameters`. */
export function describeSearch(url: string): string {
  return described(searchKey(url));
}

/** The same, whichever of its pages (`searchOf`). */
export function describePagelessSearch(url: string): string {
  return described(searchOf(url));
}

function described(key: string): string {
  const q = key.indexOf('?');
  return q < 0 ? 'no search parameters' : key.slice(q + 1).replace(/&/g, ', ');
}

export function sameSearch(a: string, b: string): boolean {
  return searchKey(a) === searchKey(b);
}

/** A search query as pages and responses are compared by it: trimmed, spaces folded, lower case. */
export function normalQuery(q: string): string {
  return q.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The search query a page URL shows, normalised for comparing; undefined when it has none. */
function shownQuery(pageUrl: string): string | undefined {
  const q = urlQuery(pageUrl);
  return q === undefined ? undefined : normalQuery(q);
}

// parsing a URL per event is the cost of this rule: the events of a page repeat a few URLs, so the
// queries of the last URLs seen are kept (by text, URLs up to 2,048 characters; a bounded map, emptied
// when full)
const MAX_URLS = 4_096;
const MAX_CACHED_URL = 2_048;
const queries = new Map<string, string | null>();
/** The normalised query of an event's (or a response's) page URL, remembered for the last URLs seen. */
export function queryOf(at: { readonly pageUrl: string }): string | undefined {
  if (at.pageUrl.length > MAX_CACHED_URL) return shownQuery(at.pageUrl);
  let q = queries.get(at.pageUrl);
  if (q === undefined) {
    if (queries.size >= MAX_URLS) queries.clear();
    queries.set(at.pageUrl, (q = shownQuery(at.pageUrl) ?? null));
  }
  return q ?? undefined;
}
