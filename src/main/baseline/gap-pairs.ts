// Which pages of a gap are one page (baseline/compare.ts): of the pages only in BASE and only in CURRENT
// between two matched ones, those of one kind whose URLs differ only in a few parameters' values, in a few
// parameters only one of them has (the rest alike), or in one path segment a run may make anew (digits, or
// one of the page's ids), paired in order, so that a value new every run (a timestamp, an order number, a
// checkout token, a cache buster a release appended) does not hide a page's changes behind a page removed
// and one added. A pair's events are then compared without what tells the two apart (`withoutParams`,
// `withoutSegment`).
import type { PathChange, QueryChange } from '../../shared/baseline';
import type { Step } from './align';
import { decoded, idNamed, pageLocation } from '../../shared/page-location';
import type { RecPage, RecSession } from './recording';

/** A page of a gap paired with another (its place in the gap) and what differs between them. */
export type GapPair = { other: number; query: QueryChange[] } | { other: number; path: PathChange };

/**
 * The pairs of a gap's pages (places in `gap`, each pair under both): by parameters' values first, then by
 * parameters only one URL has, then by path.
 */
export function gapPairs(
  gap: readonly Step[],
  base: RecSession,
  current: RecSession,
): Map<number, GapPair> {
  const byValues = pairByQuery(gap, base, current, new Set(), looseKey, queryChanges);
  const byNames = pairByQuery(gap, base, current, new Set(byValues.keys()), pathKey, namesChanges);
  const byPath = pairByPath(gap, base, current, new Set([...byValues.keys(), ...byNames.keys()]));
  return new Map<number, GapPair>([...byValues, ...byNames, ...byPath]);
}

/** At most this many parameters of two pages may differ for them to be taken for one page. */
const MAX_QUERY_CHANGES = 3;

/** A compared location's parameters (`name=value` as written) and the rest of it (path and fragment). */
function locationParts(location: string): { rest: string; params: string[] } | null {
  const q = location.indexOf('?');
  if (q < 0) return null;
  const hash = location.indexOf('#', q);
  const query = location.slice(q + 1, hash < 0 ? undefined : hash);
  return {
    rest: location.slice(0, q) + (hash < 0 ? '' : location.slice(hash)),
    params: query.split('&'),
  };
}

function paramName(pair: string): string {
  const eq = pair.indexOf('=');
  return decoded(eq < 0 ? pair : pair.slice(0, eq));
}

function paramValue(pair: string): string {
  const eq = pair.indexOf('=');
  return eq < 0 ? '' : decoded(pair.slice(eq + 1));
}

/** What a page is taken for another by: its kind, its URL but for its parameters' values, their names. */
function looseKey(page: RecPage): string | null {
  const parts = locationParts(page.location);
  return parts && `${page.kind} ${parts.rest} ${parts.params.map(paramName).join('&')}`;
}

/** What a page is taken for another by when their parameters differ: its kind, its URL's path and fragment. */
function pathKey(page: RecPage): string {
  return `${page.kind} ${locationParts(page.location)?.rest ?? page.location}`;
}

/** A location's parameters by name, each name's `name=value` texts in order (none without a query). */
function paramsByName(location: string): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const pair of locationParts(location)?.params ?? []) {
    const name = paramName(pair);
    by.set(name, [...(by.get(name) ?? []), pair]);
  }
  return by;
}

/**
 * The parameters only one of two pages of one path key has (a cache buster a release appended, a parameter
 * it dropped), when they are a few, each given once, and every other parameter is alike; null otherwise
 * (parameters whose values differ too make another page: queryChanges pairs those).
 */
function namesChanges(b: RecPage, c: RecPage): QueryChange[] | null {
  const bp = paramsByName(b.location);
  const cp = paramsByName(c.location);
  const out: QueryChange[] = [];
  for (const name of new Set([...bp.keys(), ...cp.keys()])) {
    const [x, y] = [bp.get(name), cp.get(name)];
    if (x && y) {
      if (x.join('&') !== y.join('&')) return null;
      continue;
    }
    const only = (x ?? y)!;
    if (only.length > 1) return null;
    const value = paramValue(only[0]!);
    out.push(x ? { name, base: value } : { name, current: value });
    if (out.length > MAX_QUERY_CHANGES) return null;
  }
  return out.length ? out : null;
}

/**
 * The parameters of two pages of one loose key whose values differ, when they are a few, each given once
 * in the URL (a name repeated is a list, its values' order meant); null otherwise.
 */
function queryChanges(b: RecPage, c: RecPage): QueryChange[] | null {
  const bp = locationParts(b.location)!.params;
  const cp = locationParts(c.location)!.params;
  const out: QueryChange[] = [];
  for (let i = 0; i < bp.length; i++) {
    if (bp[i] === cp[i]) continue;
    const name = paramName(bp[i]!);
    if (bp.filter((p) => paramName(p) === name).length > 1) return null;
    out.push({ name, base: paramValue(bp[i]!), current: paramValue(cp[i]!) });
    if (out.length > MAX_QUERY_CHANGES) return null;
  }
  return out.length ? out : null;
}

/** A page's events with their context.pageUrl rewritten by `rewrite` (what a pairing leaves out of it). */
function withPageUrls(page: RecPage, rewrite: (pageUrl: string) => string): RecPage {
  const events = page.events.map((e) => {
    if (!e.text.includes('"pageUrl":"')) return e;
    const fields = JSON.parse(e.text) as { context?: { pageUrl?: unknown } };
    const context = fields.context;
    if (typeof context?.pageUrl !== 'string') return e;
    context.pageUrl = rewrite(context.pageUrl);
    return { event: e.event, text: JSON.stringify(fields) };
  });
  return { ...page, events };
}

/** A page's events with the named parameters left out of their context.pageUrl. */
export function withoutParams(page: RecPage, names: ReadonlySet<string>): RecPage {
  const none = new Map<string, string>();
  return withPageUrls(page, (url) => pageLocation(url, none, names));
}

/**
 * Of the pages only in BASE and only in CURRENT between two matched ones (`gap`, steps in order) and not
 * `taken` yet, those of one `key` whose parameters differ only as `changes` allows, paired in order: a
 * parameter new every run (a timestamp, an order key, a cache buster) would otherwise hide the page's
 * changes behind a page removed and one added. Each pair: the places in `gap` of its two pages → the
 * parameters.
 */
function pairByQuery(
  gap: readonly Step[],
  base: RecSession,
  current: RecSession,
  taken: ReadonlySet<number>,
  keyOf: (page: RecPage) => string | null,
  changes: (b: RecPage, c: RecPage) => QueryChange[] | null,
): Map<number, { other: number; query: QueryChange[] }> {
  const pairs = new Map<number, { other: number; query: QueryChange[] }>();
  if (gap.length < 2) return pairs;
  const added = new Map<string, { at: number[]; next: number }>();
  gap.forEach(([x, y], k) => {
    if (x >= 0 || taken.has(k)) return;
    const key = keyOf(current.pages[y]!);
    if (key === null) return;
    const list = added.get(key);
    if (list) list.at.push(k);
    else added.set(key, { at: [k], next: 0 });
  });
  if (added.size === 0) return pairs;
  let last = -1;
  gap.forEach(([x, y], k) => {
    if (y >= 0 || taken.has(k)) return;
    const key = keyOf(base.pages[x]!);
    const list = key === null ? undefined : added.get(key);
    if (!list) return;
    while (list.next < list.at.length && list.at[list.next]! < last) list.next++;
    const at = list.at[list.next];
    if (at === undefined) return;
    const query = changes(base.pages[x]!, current.pages[gap[at]![1]]!);
    if (!query) return;
    list.next++;
    last = at;
    pairs.set(k, { other: at, query });
    pairs.set(at, { other: k, query });
  });
  return pairs;
}

/** A page's events with one segment of their context.pageUrl's path (1 = the first) written `{segment N}`. */
export function withoutSegment(page: RecPage, segment: number): RecPage {
  return withPageUrls(page, (url) => {
    const { path, rest } = pathParts(url);
    if (path.length > segment) path[segment] = `{segment ${segment}}`;
    return path.join('/') + rest;
  });
}

/** A compared location's path split at its slashes (a leading '' before the first) and its query and fragment. */
function pathParts(location: string): { path: string[]; rest: string } {
  const end = location.search(/[?#]/);
  return {
    path: (end < 0 ? location : location.slice(0, end)).split('/'),
    rest: end < 0 ? '' : location.slice(end),
  };
}

/**
 * A segment each run may make anew (a token, an order number): it carries digits, or is one of the page's
 * ids (`{orderId}`); a renamed route does neither.
 */
function volatileSegment(segment: string): boolean {
  return /\d/.test(segment) || idNamed(decoded(segment)) !== undefined;
}

/** The one path segment, volatile on both sides, in which two pages' locations differ (the rest alike), or null. */
function pathChange(b: RecPage, c: RecPage): PathChange | null {
  if (b.kind !== c.kind) return null;
  const x = pathParts(b.location);
  const y = pathParts(c.location);
  if (x.rest !== y.rest || x.path.length !== y.path.length) return null;
  let found: PathChange | null = null;
  for (let i = 1; i < x.path.length; i++) {
    if (x.path[i] === y.path[i]) continue;
    if (found || !volatileSegment(x.path[i]!) || !volatileSegment(y.path[i]!)) return null;
    found = { segment: i, base: decoded(x.path[i]!), current: decoded(y.path[i]!) };
  }
  return found;
}

/** At most this many pages on each side of a gap are tried against each other for a path that differs. */
const MAX_PATH_PAIRING = 50;

/**
 * Of the pages of `gap` still unpaired, those of one kind whose URLs differ only in one path segment,
 * paired in order: a segment new every run (`/checkouts/c/{token}/thank-you`) would otherwise hide the
 * page's changes behind a page removed and one added, with nothing saying why.
 */
function pairByPath(
  gap: readonly Step[],
  base: RecSession,
  current: RecSession,
  taken: ReadonlySet<number>,
): Map<number, { other: number; path: PathChange }> {
  const pairs = new Map<number, { other: number; path: PathChange }>();
  const removed: number[] = [];
  const added: number[] = [];
  gap.forEach(([x], k) => {
    if (!taken.has(k)) (x >= 0 ? removed : added).push(k);
  });
  if (removed.length > MAX_PATH_PAIRING || added.length > MAX_PATH_PAIRING) return pairs;
  let from = 0;
  for (const k of removed) {
    for (let i = from; i < added.length; i++) {
      const at = added[i]!;
      const path = pathChange(base.pages[gap[k]![0]]!, current.pages[gap[at]![1]]!);
      if (!path) continue;
      pairs.set(k, { other: at, path });
      pairs.set(at, { other: k, path });
      from = i + 1;
      break;
    }
  }
  return pairs;
}

/**
 * A page as sessions are paired when none of their pages match exactly: its kind, its path with each
 * segment a run may make anew as `*`. A parameter new every run on every page (a cache buster, a
 * timestamp, even one a release appended to every page) or a checkout token in the path leaves a run's
 * session without one page alike; its pages are then paired by their parameters (pairByQuery) or path
 * (pairByPath), each named with its fix.
 */
export function looseSessionKey(page: RecPage): string {
  const { path } = pathParts(locationParts(page.location)?.rest ?? page.location);
  return `${page.kind} ${path.map((s) => (volatileSegment(s) ? '*' : s)).join('/')}`;
}
