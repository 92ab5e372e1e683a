// Two recordings compared (CONTRACT.md, "Baselines"): sessions matched by their pages (the same content
// first, then the same sequence of pages, then the most alike), pages aligned in order by kind and URL path
// and query, and on each matched page its events aligned in order: an event sent alike pairs first, then
// events of one endpoint pair up as field changes, and what is left is missing or extra.
import type { DiffChange, DiffPage, DiffResult } from '../../shared/baseline';
import { align } from './align';
import { fieldChanges } from './fields';
import { pageKey, type RecPage, type Recording, type RecSession } from './recording';

/**
 * 32-bit FNV-1a of a session's content: sessions sent alike find each other in one lookup (beside their
 * sequence of pages; a collision only pairs two sessions of the same pages, which are then compared in full).
 */
function hashText(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

interface Keyed {
  session: RecSession;
  index: number;
  keys: string[];
  signature: string;
  content: number;
}

function keyed(session: RecSession, index: number): Keyed {
  const keys = session.pages.map(pageKey);
  let content = 0x811c9dc5;
  for (const page of session.pages) {
    content = hashText(content, `\n${pageKey(page)}`);
    for (const e of page.events) content = hashText(hashText(content, e.event), e.text);
  }
  return { session, index, keys, signature: keys.join('\n'), content };
}

/** Pairs of sessions (current index → base index); sessions of one side only are left out. */
function matchSessions(base: Keyed[], current: Keyed[]): Map<number, number> {
  const pairs = new Map<number, number>();
  const taken = new Set<number>();
  const byKey = (key: (k: Keyed) => string | number) => {
    const free = new Map<string | number, number[]>();
    for (const b of base) {
      if (taken.has(b.index)) continue;
      const list = free.get(key(b));
      if (list) list.push(b.index);
      else free.set(key(b), [b.index]);
    }
    for (const c of current) {
      if (pairs.has(c.index)) continue;
      const b = free.get(key(c))?.shift();
      if (b === undefined) continue;
      pairs.set(c.index, b);
      taken.add(b);
    }
  };
  byKey((k) => `${k.content} ${k.signature}`);
  byKey((k) => k.signature);
  // the rest: the most pages in common first (bounded: past it, in the order recorded)
  const restB = base.filter((b) => !taken.has(b.index));
  const restC = current.filter((c) => !pairs.has(c.index));
  if (restB.length * restC.length <= 10_000) {
    const scored: Array<[number, number, number]> = [];
    for (const c of restC)
      for (const b of restB) {
        const common = align(b.keys, c.keys).filter(([x, y]) => x >= 0 && y >= 0).length;
        if (common > 0) scored.push([common, b.index, c.index]);
      }
    scored.sort((x, y) => y[0] - x[0] || x[2] - y[2] || x[1] - y[1]);
    for (const [, b, c] of scored)
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
    kind: page.kind,
    changes: [],
    siteId: page.siteId,
    pageLoadId: page.pageLoadId,
    baseEvents: status === 'removed' ? endpoints(page) : [],
    currentEvents: status === 'added' ? endpoints(page) : [],
  };
}

/** The changes on one page: events aligned as sent, then by endpoint within what is left. */
export function pageChanges(base: RecPage, current: RecPage): DiffChange[] {
  const changes: DiffChange[] = [];
  const b = base.events;
  const c = current.events;
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
      if (ci < 0) changes.push({ change: 'missing', event: b[bi]!.event, baseIndex: bi });
      else if (bi < 0) changes.push({ change: 'extra', event: c[ci]!.event, currentIndex: ci });
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
  return changes;
}

function sessionPages(base: RecSession, current: RecSession, out: DiffPage[]): void {
  const steps = align(base.pages.map(pageKey), current.pages.map(pageKey));
  for (const [x, y] of steps) {
    if (y < 0) out.push(onlyPage(base.pages[x]!, 'removed'));
    else if (x < 0) out.push(onlyPage(current.pages[y]!, 'added'));
    else {
      const b = base.pages[x]!;
      const c = current.pages[y]!;
      const changes = pageChanges(b, c);
      out.push({
        status: changes.length ? 'changed' : 'same',
        pageUrl: c.pageUrl,
        kind: c.kind,
        changes,
        siteId: c.siteId,
        pageLoadId: c.pageLoadId,
        baseEvents: endpoints(b),
        currentEvents: endpoints(c),
      });
    }
  }
}

export function compareRecordings(base: Recording, current: Recording): DiffResult {
  const b = base.sessions.map(keyed);
  const c = current.sessions.map(keyed);
  const pairs = matchSessions(b, c);
  const pages: DiffPage[] = [];
  const empty: RecSession = { pages: [] };
  for (const k of c) {
    const bi = pairs.get(k.index);
    sessionPages(bi === undefined ? empty : base.sessions[bi]!, k.session, pages);
  }
  const matched = new Set(pairs.values());
  for (const k of b) if (!matched.has(k.index)) sessionPages(k.session, empty, pages);
  return { same: pages.every((p) => p.status === 'same'), pages };
}
