// Two recordings compared (README, "Baselines"): sessions matched by their pages (the same content
// first, then the same sequence of pages, then the most alike), pages aligned in order by kind and URL path
// and query, and on each matched page its events aligned in order: an event sent alike pairs first, then
// events of one endpoint pair up as field changes, an event sent alike at another place is moved, and what
// is left is missing or extra. The pages of a gap between matched ones that are one page but for a value
// new every run are paired by gap-pairs.ts.
import {
  isImpression,
  type DiffChange,
  type DiffPage,
  type DiffResult,
  type PathChange,
  type QueryChange,
} from '../../shared/baseline';
import { align, type Step } from './align';
import { fieldChanges, namedUids } from './fields';
import { gapPairs, looseSessionKey, withoutParams, withoutSegment } from './gap-pairs';
import { withoutOrderIdForms } from './normalize';
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
        for (const f of fieldChanges(b[bi]!.text, c[ci]!.text, isImpression(c[ci]!.event)))
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

function gapPages(
  gap: readonly Step[],
  base: RecSession,
  current: RecSession,
  out: DiffPage[],
): void {
  const pairs = gapPairs(gap, base, current);
  gap.forEach(([x, y], k) => {
    const pair = pairs.get(k);
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

/** A recording's events without their orderIds' forms (`withoutOrderIds`: the other side has none). */
function withoutOrderIds(recording: Recording): Recording {
  const sessions = recording.sessions.map((s) => ({
    pages: s.pages.map((p) => ({
      ...p,
      events: p.events.map((e) => ({ event: e.event, text: withoutOrderIdForms(e.text) })),
    })),
  }));
  return { ...recording, sessions };
}

export async function compareRecordings(
  base: Recording,
  current: Recording,
  turn: () => Promise<void> = () => Promise.resolve(),
): Promise<DiffResult> {
  // a baseline file that predates orderIds' forms matches a run as that version compared them: without them
  if (base.withoutOrderIds || current.withoutOrderIds) {
    base = withoutOrderIds(base);
    current = withoutOrderIds(current);
  }
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
