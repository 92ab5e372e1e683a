// How a changed field of a compared event is said, in the CLI's `diff` and the UI's Compare alike: an
// impression's items as the uids each run impressed (how often, from the item's side), a list of items as
// its uids in order, any other value as JSON, cut to a length.
import { isImpression, type DiffChange } from './baseline';

const MAX_VALUE = 200;
const MAX_UIDS = 5;

/** A value as JSON, cut at `max` characters; `(absent)` for a field one side does not have. */
export function shownValue(v: unknown, max = MAX_VALUE): string {
  if (v === undefined) return '(absent)';
  const text = JSON.stringify(v);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The uids of a list of results or banners, when every item has one: a reordered list reads as its order. */
export function uidsOf(v: unknown): string[] | null {
  if (!Array.isArray(v) || v.length === 0) return null;
  const out: string[] = [];
  for (const item of v) {
    const uid = (item as { uid?: unknown } | null)?.uid;
    if (typeof uid !== 'string') return null;
    out.push(uid);
  }
  return out;
}

/** `101, 102, 103`: the first few uids, and how many more. */
export function firstUids(uids: readonly string[]): string {
  const more = uids.length > MAX_UIDS ? ` and ${uids.length - MAX_UIDS} more` : '';
  return `${uids.slice(0, MAX_UIDS).join(', ')}${more}`;
}

function counted(uids: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const uid of uids) counts.set(uid, (counts.get(uid) ?? 0) + 1);
  return counts;
}

const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);

/** How often a uid was impressed in BASE (`before`) and now, said from the item's side. */
function impressedTimes(before: number, now: number): string {
  if (now === 0) return before === 1 ? 'in BASE, not now' : `${times(before)} in BASE, not now`;
  if (before === 0) return now === 1 ? 'now, not in BASE' : `${times(now)} now, not in BASE`;
  return `${times(now)} now, ${times(before)} in BASE`;
}

/** A whole list of an impression's items, as a comparison gives it when the uids impressed differ. */
function impressedList(change: DiffChange): boolean {
  return isImpression(change.event) && /^data\.(results|banners)$/.test(change.path ?? '');
}

/**
 * What changed in a field, after its path: `(uids impressed, 4 → 3): P3 impressed in BASE, not now` for an
 * impression's items (each uid with how often each run impressed it, those alike in one clause), `(uids in
 * order): a, b → b, a` for another list of items, else `: BEFORE → AFTER` as JSON.
 */
export function fieldChange(change: DiffChange, maxValue = MAX_VALUE): string {
  const [before, after] = [uidsOf(change.base), uidsOf(change.current)];
  if (before && after && impressedList(change)) {
    const [b, c] = [counted(before), counted(after)];
    const clauses = new Map<string, string[]>();
    for (const uid of new Set([...before, ...after])) {
      const [x, y] = [b.get(uid) ?? 0, c.get(uid) ?? 0];
      if (x === y) continue;
      const said = impressedTimes(x, y);
      clauses.set(said, [...(clauses.get(said) ?? []), uid]);
    }
    const told = [...clauses].map(([said, uids]) => `${firstUids(uids)} impressed ${said}`);
    return ` (uids impressed, ${before.length} → ${after.length}): ${told.join('; ')}`;
  }
  if (before && after) return ` (uids in order): ${before.join(', ')} → ${after.join(', ')}`;
  return `: ${shownValue(change.base, maxValue)} → ${shownValue(change.current, maxValue)}`;
}
