// The field changes between two versions of one event: each differing value once, at its path. A list whose
// items are the same in another order (results, banners) is one change on the list's path, with both orders.
// An impression's results and banners are the items its response impressed (impressions.ts): when another
// uid is among them, or one as many times, they are one change on the list's path, with both lists.
import { isObject } from '../../shared/values';
import { align } from './align';
import { canonical } from './normalize';

export interface FieldChange {
  path: string;
  base?: unknown;
  current?: unknown;
}

/**
 * The uids of the items an event's compared fields name (`data.results[]`, `data.result`), in order: what
 * tells a missing or extra click, cart line or product view apart from another of its kind.
 */
export function namedUids(text: string): string[] {
  let fields: unknown;
  try {
    fields = JSON.parse(text);
  } catch {
    return [];
  }
  const data = isObject(fields) && isObject(fields.data) ? fields.data : {};
  const items = Array.isArray(data.results) ? data.results : [data.result];
  const uids: string[] = [];
  for (const item of items) if (isObject(item) && typeof item.uid === 'string') uids.push(item.uid);
  return uids;
}

function child(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function sameItems(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const counts = new Map<string, number>();
  for (const k of a) counts.set(k, (counts.get(k) ?? 0) + 1);
  for (const k of b) {
    const n = counts.get(k);
    if (!n) return false;
    counts.set(k, n - 1);
  }
  return true;
}

/** The uids of a list's items, when every item has one. */
function itemUids(items: readonly unknown[]): string[] | null {
  const uids: string[] = [];
  for (const item of items) {
    if (!isObject(item) || typeof item.uid !== 'string') return null;
    uids.push(item.uid);
  }
  return uids;
}

/** no list compared as impressed: an event other than an impression, or a list inside another */
const NONE: ReadonlySet<string> = new Set();

/** The lists an impression's items are in: compared as the uids impressed, each as many times as it was. */
const IMPRESSED = new Set(['data.results', 'data.banners']);

function listChanges(path: string, base: unknown[], current: unknown[], out: FieldChange[]): void {
  const bKeys = base.map((v) => canonical(v ?? null));
  const cKeys = current.map((v) => canonical(v ?? null));
  if (bKeys.length === cKeys.length && bKeys.every((k, i) => k === cKeys[i])) return;
  if (sameItems(bKeys, cKeys)) {
    out.push({ path, base, current });
    return;
  }
  // items only on one side are named at their index; a gap with as many on each side pairs up, index by index
  let gapB: number[] = [];
  let gapC: number[] = [];
  const flush = () => {
    const paired = Math.min(gapB.length, gapC.length);
    for (let k = 0; k < paired; k++)
      valueChanges(`${path}[${gapC[k]}]`, base[gapB[k]!], current[gapC[k]!], out, NONE);
    for (let k = paired; k < gapB.length; k++)
      out.push({ path: `${path}[${gapB[k]}]`, base: base[gapB[k]!] });
    for (let k = paired; k < gapC.length; k++)
      out.push({ path: `${path}[${gapC[k]}]`, current: current[gapC[k]!] });
    gapB = [];
    gapC = [];
  };
  for (const [b, c] of align(bKeys, cKeys)) {
    if (b >= 0 && c >= 0) flush();
    else if (b >= 0) gapB.push(b);
    else gapC.push(c);
  }
  flush();
}

function valueChanges(
  path: string,
  base: unknown,
  current: unknown,
  out: FieldChange[],
  impressed: ReadonlySet<string>,
): void {
  if (Array.isArray(base) && Array.isArray(current)) {
    const [b, c] = impressed.has(path) ? [itemUids(base), itemUids(current)] : [null, null];
    if (b && c && !sameItems(b, c)) out.push({ path, base, current });
    else listChanges(path, base, current, out);
    return;
  }
  if (isObject(base) && isObject(current)) {
    const keys = [...new Set([...Object.keys(base), ...Object.keys(current)])].sort();
    for (const key of keys) {
      const p = child(path, key);
      if (!(key in current)) out.push({ path: p, base: base[key] });
      else if (!(key in base)) out.push({ path: p, current: current[key] });
      else valueChanges(p, base[key], current[key], out, impressed);
    }
    return;
  }
  if (canonical(base) !== canonical(current)) out.push({ path, base, current });
}

/** The changes between two events' compared fields (canonical JSON texts); `impression`: of an impression. */
export function fieldChanges(
  baseText: string,
  currentText: string,
  impression = false,
): FieldChange[] {
  const out: FieldChange[] = [];
  const impressed = impression ? IMPRESSED : NONE;
  valueChanges('', JSON.parse(baseText), JSON.parse(currentText), out, impressed);
  return out;
}
