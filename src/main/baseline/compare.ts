// Two recordings compared (README, "Baselines"): sessions matched by their pages (the same content
// first, then the same sequence of pages, then the most alike), pages aligned in order by kind and URL path
// and query, and on each matched page its events aligned in order: an event sent alike pairs first, then
// events of one endpoint pair up as field changes, an event sent alike at another place is moved, and what
// is left is missing or extra.
import type {
  DiffChange,
  DiffPage,
  DiffResult,
  PathChange,
  QueryChange,
} from '../../shared/baseline';
import { align, type Step } from './align';
import { fieldChanges, namedUids } from './fields';
import { decoded, pageLocation } from './normalize';
import { pageKey, type RecEvent, type RecPage, type Recording, type RecSession } from './recording';

interface Keyed {
  session: RecSession;
  index: number;
  keys: string[];
  signature: string;
  /** the pages as a page pairs with another despite a few values (looseSessionKey), made when needed */
  loose?: string[];
}

function keyed(session: RecSession, index: number): Keyed {
  const keys = session.pages.map(pageKey);
  return { session, index, keys, signature: keys.join('\n') };
}

/**
 * A page as sessions are paired when none of their pages match exactly: its kind, its path with each
 * segment that carries digits as `*`, its parameters' names. A parameter new every run on every page (a
 * cache buster, a timestamp) or a checkout token in the path leaves a run's session without one page
 * alike; its pages are then paired by their values (pairByQuery, pairByPath), each named with its fix.
 */
function looseSessionKey(page: RecPage): string {
  const parts = locationParts(page.location);
  const { path } = pathParts(parts ? parts.rest : page.location);
  const names = parts ? parts.params.map(paramName).join('&') : '';
  return `${page.kind} ${path.map((s) => (/\d/.test(s) ? '*' : s)).join('/')} ${names}`;
}

const looseKeys = (k: Keyed): string[] => (k.loose ??= k.session.pages.map(looseSessionKey));

/** How many pages of two sessions line up: exactly alike, then alike but for a few values. */
function inCommon(b: Keyed, c: Keyed): [exact: number, loose: number] {
  const common = (x: string[], y: string[]) =>
    align(x, y).filter(([i, j]) => i >= 0 && j >= 0).length;
  const exact = common(b.keys, c.keys);
  return [exact, exact > 0 ? 0 : common(looseKeys(b), looseKeys(c))];
}

/**
 * What a session sent, as one number: each distinct event is numbered once (a Map hashes its text natively),
 * and the numbers are folded FNV-1a style. Two sessions that sent the same get the same number; a collision
 * only pairs two sessions of the same pages, which are then compared in full.
 */
function contentHasher(): (session: RecSession) => number {
  const ids = new Map<string, number>();
  const id = (text: string) => {
    let n = ids.get(text);
    if (n === undefined) ids.set(text, (n = ids.size + 1));
    return n;
  };
  return (session) => {
    let h = 0x811c9dc5;
    for (const page of session.pages)
      for (const e of page.events) h = Math.imul(h ^ id(e.event) ^ (id(e.text) << 8), 0x01000193);
    return h >>> 0;
  };
}

/** Did two sessions of the same pages send the same? (Event by event; most differ at once.) */
function sentAlike(a: RecSession, b: RecSession): boolean {
  for (let p = 0; p < a.pages.length; p++) {
    const x = a.pages[p]!.events;
    const y = b.pages[p]!.events;
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++)
      if (x[i]!.event !== y[i]!.event || x[i]!.text !== y[i]!.text) return false;
  }
  return true;
}

/** A few sessions of the same pages: those that sent alike pair first, the rest in the order recorded. */
function pairFew(bs: readonly Keyed[], cs: readonly Keyed[], pairs: Map<number, number>): void {
  const free = [...bs];
  const left: Keyed[] = [];
  for (const c of cs) {
    const at = free.findIndex((b) => sentAlike(b.session, c.session));
    if (at >= 0) pairs.set(c.index, free.splice(at, 1)[0]!.index);
    else left.push(c);
  }
  left.forEach((c, i) => {
    if (free[i]) pairs.set(c.index, free[i].index);
  });
}

function groups(list: readonly Keyed[]): Map<string, Keyed[]> {
  const by = new Map<string, Keyed[]>();
  for (const k of list) {
    const group = by.get(k.signature);
    if (group) group.push(k);
    else by.set(k.signature, [k]);
  }
  return by;
}

/**
 * Sessions of the same pages paired: one on each side pair at once; among several, those that sent the same
 * first (by a hash of their content), then the rest in the order recorded.
 */
function pairSameSignature(
  base: readonly Keyed[],
  current: readonly Keyed[],
  pairs: Map<number, number>,
): void {
  const contentHash = contentHasher();
  const byBase = groups(base);
  for (const [signature, cs] of groups(current)) {
    const bs = byBase.get(signature);
    if (!bs) continue;
    if (bs.length === 1 && cs.length === 1) {
      pairs.set(cs[0]!.index, bs[0]!.index);
      continue;
    }
    if (bs.length * cs.length <= 256) {
      pairFew(bs, cs, pairs);
      continue;
    }
    const free = new Map<number, Keyed[]>();
    for (const b of bs) {
      const h = contentHash(b.session);
      const list = free.get(h);
      if (list) list.push(b);
      else free.set(h, [b]);
    }
    const left: Keyed[] = [];
    for (const c of cs) {
      const b = free.get(contentHash(c.session))?.shift();
      if (b) pairs.set(c.index, b.index);
      else left.push(c);
    }
    const rest = [...free.values()].flat().sort((x, y) => x.index - y.index);
    left.forEach((c, i) => {
      if (rest[i]) pairs.set(c.index, rest[i].index);
    });
  }
}

/** Pairs of sessions (current index → base index); sessions of one side only are left out. */
function matchSessions(base: Keyed[], current: Keyed[]): Map<number, number> {
  const pairs = new Map<number, number>();
  pairSameSignature(base, current, pairs);
  const taken = new Set(pairs.values());
  // the rest: the most pages in common first (bounded: past it, in the order recorded)
  const restB = base.filter((b) => !taken.has(b.index));
  const restC = current.filter((c) => !pairs.has(c.index));
  if (restB.length * restC.length <= 10_000) {
    const scored: Array<[number, number, number, number]> = [];
    for (const c of restC)
      for (const b of restB) {
        const [exact, loose] = inCommon(b, c);
        if (exact > 0 || loose > 0) scored.push([exact, loose, b.index, c.index]);
      }
    scored.sort((x, y) => y[0] - x[0] || y[1] - x[1] || x[3] - y[3] || x[2] - y[2]);
    for (const [, , b, c] of scored)
      if (!taken.has(b) && !pairs.has(c)) {
        pairs.set(c, b);
        taken.add(b);
      }
  } else
    for (let k = 0; k < Math.min(restB.length, restC.length); k++) {
      pairs.set(restC[k]!.index, restB[k]!.index);
      taken.add(restB[k]!.index);
    }
  return pairs;
}

function endpoints(page: RecPage): string[] {
  return page.events.map((e) => e.event);
}

function onlyPage(page: RecPage, status: 'added' | 'removed'): DiffPage {
  return {
    status,
    pageUrl: page.pageUrl,
    page: page.shown,
    kind: page.kind,
    changes: [],
    siteId: page.siteId,
    pageLoadId: page.pageLoadId,
    baseEvents: status === 'removed' ? endpoints(page) : [],
    currentEvents: status === 'added' ? endpoints(page) : [],
  };
}

/**
 * An event sent alike in both runs, only at another place among the page's events (a render that now comes
 * after its impressions: the race between them), is left by the alignment as a missing event and an extra
 * one: each such pair is one move, in the place the first of the two had in the list, naming the event it
 * now comes right after. Of several alike, the first missing pairs with the first extra.
 */
function withMoves(changes: DiffChange[], b: readonly RecEvent[], c: readonly RecEvent[]): void {
  // the extras alike, by what they sent: their places in `changes`, and how many are paired already
  const extras = new Map<string, { at: number[]; paired: number }>();
  changes.forEach((ch, k) => {
    if (ch.change !== 'extra') return;
    const e = c[ch.currentIndex!]!;
    const key = `${e.event} ${e.text}`;
    const alike = extras.get(key);
    if (alike) alike.at.push(k);
    else extras.set(key, { at: [k], paired: 0 });
  });
  if (extras.size === 0) return;
  const gone = new Set<number>();
  changes.forEach((ch, k) => {
    if (ch.change !== 'missing') return;
    const e = b[ch.baseIndex!]!;
    const alike = extras.get(`${e.event} ${e.text}`);
    const x = alike?.at[alike.paired++];
    if (x === undefined) return;
    const ci = changes[x]!.currentIndex!;
    const moved: DiffChange = {
      change: 'moved',
      event: e.event,
      baseIndex: ch.baseIndex,
      currentIndex: ci,
    };
    if (ci > 0) moved.after = c[ci - 1]!.event;
    changes[Math.min(k, x)] = moved;
    gone.add(Math.max(k, x));
  });
  if (gone.size === 0) return;
  let n = 0;
  for (let k = 0; k < changes.length; k++) if (!gone.has(k)) changes[n++] = changes[k]!;
  changes.length = n;
}

/** A missing or extra event with the uids of what it names (which result was clicked), when it names any. */
function named(change: DiffChange, e: RecEvent): DiffChange {
  const uids = namedUids(e.text);
  if (uids.length > 0) change.uids = uids;
  return change;
}

/**
 * The changes on one page: events aligned as sent, then by endpoint within what is left, then an event
 * missing in one place and extra in another, sent alike, as moved.
 */
function pageChanges(base: RecPage, current: RecPage): DiffChange[] {
  const changes: DiffChange[] = [];
  const b = base.events;
  const c = current.events;
  // most pages of a run sent what they did before: told in one pass, without the alignment's keys
  if (b.length === c.length && b.every((e, i) => e.event === c[i]!.event && e.text === c[i]!.text))
    return changes;
  let gapB: number[] = [];
  let gapC: number[] = [];
  const flush = () => {
    const inner = align(
      gapB.map((i) => b[i]!.event),
      gapC.map((j) => c[j]!.event),
    );
    for (const [x, y] of inner) {
      const bi = x >= 0 ? gapB[x]! : -1;
      const ci = y >= 0 ? gapC[y]! : -1;
      if (ci < 0)
        changes.push(named({ change: 'missing', event: b[bi]!.event, baseIndex: bi }, b[bi]!));
      else if (bi < 0)
        changes.push(named({ change: 'extra', event: c[ci]!.event, currentIndex: ci }, c[ci]!));
      else
        for (const f of fieldChanges(b[bi]!.text, c[ci]!.text))
          changes.push({
            change: 'field',
            event: c[ci]!.event,
            ...f,
            baseIndex: bi,
            currentIndex: ci,
          });
    }
    gapB = [];
    gapC = [];
  };
  const steps = align(
    b.map((e) => `${e.event} ${e.text}`),
    c.map((e) => `${e.event} ${e.text}`),
  );
  for (const [x, y] of steps) {
    if (x >= 0 && y >= 0) {
      if (gapB.length || gapC.length) flush();
    } else if (x >= 0) gapB.push(x);
    else gapC.push(y);
  }
  if (gapB.length || gapC.length) flush();
  withMoves(changes, b, c);
  return changes;
}

function matchedPage(b: RecPage, c: RecPage, query?: QueryChange[], path?: PathChange): DiffPage {
  const names = query && new Set(query.map((q) => q.name));
  const changes = names
    ? pageChanges(withoutParams(b, names), withoutParams(c, names))
    : path
      ? pageChanges(withoutSegment(b, path.segment), withoutSegment(c, path.segment))
      : pageChanges(b, c);
  const page: DiffPage = {
    status: changes.length || query || path ? 'changed' : 'same',
    pageUrl: c.pageUrl,
    page: c.shown,
    kind: c.kind,
    changes,
    siteId: c.siteId,
    pageLoadId: c.pageLoadId,
    baseEvents: endpoints(b),
    currentEvents: endpoints(c),
  };
  if (query) page.query = query;
  if (path) page.path = path;
  return page;
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
function withoutParams(page: RecPage, names: ReadonlySet<string>): RecPage {
  const none = new Map<string, string>();
  return withPageUrls(page, (url) => pageLocation(url, none, names));
}

/**
 * Of the pages only in BASE and only in CURRENT between two matched ones (`gap`, steps in order), those of
 * one kind and URL that differ only in a few parameters' values, paired in order: a parameter new every run
 * (a timestamp, an order key) would otherwise hide the page's changes behind a page removed and one added.
 * Each pair: the places in `gap` of its two pages → the parameters.
 */
function pairByQuery(
  gap: readonly Step[],
  base: RecSession,
  current: RecSession,
): Map<number, { other: number; query: QueryChange[] }> {
  const pairs = new Map<number, { other: number; query: QueryChange[] }>();
  if (gap.length < 2) return pairs;
  const added = new Map<string, { at: number[]; next: number }>();
  gap.forEach(([x, y], k) => {
    if (x >= 0) return;
    const key = looseKey(current.pages[y]!);
    if (key === null) return;
    const list = added.get(key);
    if (list) list.at.push(k);
    else added.set(key, { at: [k], next: 0 });
  });
  if (added.size === 0) return pairs;
  let last = -1;
  gap.forEach(([x, y], k) => {
    if (y >= 0) return;
    const key = looseKey(base.pages[x]!);
    const list = key === null ? undefined : added.get(key);
    if (!list) return;
    while (list.next < list.at.length && list.at[list.next]! < last) list.next++;
    const at = list.at[list.next];
    if (at === undefined) return;
    const query = queryChanges(base.pages[x]!, current.pages[gap[at]![1]]!);
    if (!query) return;
    list.next++;
    last = at;
    pairs.set(k, { other: at, query });
    pairs.set(at, { other: k, query });
  });
  return pairs;
}

/** A page's events with one segment of their context.pageUrl's path (1 = the first) written `{segment N}`. */
function withoutSegment(page: RecPage, segment: number): RecPage {
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

/** The one path segment, with digits on both sides, in which two pages' locations differ (the rest alike), or null. */
function pathChange(b: RecPage, c: RecPage): PathChange | null {
  if (b.kind !== c.kind) return null;
  const x = pathParts(b.location);
  const y = pathParts(c.location);
  if (x.rest !== y.rest || x.path.length !== y.path.length) return null;
  let found: PathChange | null = null;
  for (let i = 1; i < x.path.length; i++) {
    if (x.path[i] === y.path[i]) continue;
    // a segment each run makes anew (a token, an order number) carries digits; a renamed route does not
    if (found || !/\d/.test(x.path[i]!) || !/\d/.test(y.path[i]!)) return null;
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

function gapPages(
  gap: readonly Step[],
  base: RecSession,
  current: RecSession,
  out: DiffPage[],
): void {
  const byQuery = pairByQuery(gap, base, current);
  const byPath = pairByPath(gap, base, current, new Set(byQuery.keys()));
  gap.forEach(([x, y], k) => {
    const pair = byQuery.get(k) ?? byPath.get(k);
    if (pair) {
      if (pair.other < k) return; // told at the first of the two
      const [b, c] = x >= 0 ? [x, gap[pair.other]![1]] : [gap[pair.other]![0], y];
      const [query, path] = 'query' in pair ? [pair.query] : [undefined, pair.path];
      out.push(matchedPage(base.pages[b]!, current.pages[c]!, query, path));
    } else if (y < 0) out.push(onlyPage(base.pages[x]!, 'removed'));
    else out.push(onlyPage(current.pages[y]!, 'added'));
  });
}

function sessionPages(base: RecSession, current: RecSession, out: DiffPage[]): void {
  const steps = align(base.pages.map(pageKey), current.pages.map(pageKey));
  let gap: Step[] = [];
  for (const step of steps) {
    if (step[0] >= 0 && step[1] >= 0) {
      if (gap.length) gapPages(gap, base, current, out);
      gap = [];
      out.push(matchedPage(base.pages[step[0]]!, current.pages[step[1]]!));
    } else gap.push(step);
  }
  if (gap.length) gapPages(gap, base, current, out);
}

/** Pages compared between two turns of the event loop (`turn`): a server stays responsive meanwhile. */
const PAGES_A_TURN = 500;

export async function compareRecordings(
  base: Recording,
  current: Recording,
  turn: () => Promise<void> = () => Promise.resolve(),
): Promise<DiffResult> {
  const b = base.sessions.map(keyed);
  const c = current.sessions.map(keyed);
  const pairs = matchSessions(b, c);
  const pages: DiffPage[] = [];
  const empty: RecSession = { pages: [] };
  let since = 0;
  const compared = async (before: number) => {
    since += pages.length - before;
    if (since >= PAGES_A_TURN) {
      since = 0;
      await turn();
    }
  };
  for (const k of c) {
    const bi = pairs.get(k.index);
    const before = pages.length;
    sessionPages(bi === undefined ? empty : base.sessions[bi]!, k.session, pages);
    await compared(before);
  }
  const matched = new Set(pairs.values());
  for (const k of b)
    if (!matched.has(k.index)) {
      const before = pages.length;
      sessionPages(k.session, empty, pages);
      await compared(before);
    }
  return { same: pages.every((p) => p.status === 'same'), pages };
}
