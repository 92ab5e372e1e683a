// The text form of a comparison, for a CI log or a failed test: a header per page that differs, one line per
// change under it (which event, which field, before and after), and a last line that counts.
import {
  differingPages,
  type DiffChange,
  type DiffPage,
  type DiffResult,
  type PathChange,
  type QueryChange,
} from '../../shared/baseline';

const MAX_VALUE = 200;

function value(v: unknown): string {
  if (v === undefined) return '(absent)';
  const text = JSON.stringify(v);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

function place(change: DiffChange): string {
  const n = change.change === 'missing' ? change.baseIndex : change.currentIndex;
  return n === undefined ? change.event : `${change.event} (event ${n + 1})`;
}

/** The uids of a list of results or banners, when every item has one: a reordered list reads as its order. */
function uids(v: unknown): string[] | null {
  if (!Array.isArray(v) || v.length === 0) return null;
  const out: string[] = [];
  for (const item of v) {
    const uid = (item as { uid?: unknown } | null)?.uid;
    if (typeof uid !== 'string') return null;
    out.push(uid);
  }
  return out;
}

const MAX_UIDS = 5;

/** ` of uid 102`, ` of uids 101, 102, 103`: the items a missing or extra event names, the first few. */
function namedItems(uids: readonly string[] | undefined): string {
  if (!uids || uids.length === 0) return '';
  const shown = uids.slice(0, MAX_UIDS).join(', ');
  const more = uids.length > MAX_UIDS ? ` and ${uids.length - MAX_UIDS} more` : '';
  return ` of uid${uids.length === 1 ? '' : 's'} ${shown}${more}`;
}

function changeLine(change: DiffChange): string {
  const items = namedItems(change.uids);
  if (change.change === 'missing')
    return `missing  ${place(change)}${items}: sent in BASE, not now`;
  if (change.change === 'extra') return `extra    ${place(change)}${items}: not sent in BASE`;
  if (change.change === 'moved')
    return `moved    ${change.event}: event ${change.baseIndex! + 1} → event ${change.currentIndex! + 1} (now ${change.after === undefined ? 'first' : `after ${change.after}`})`;
  const [before, after] = [uids(change.base), uids(change.current)];
  if (before && after)
    return `field    ${place(change)} ${change.path} (uids in order): ${before.join(', ')} → ${after.join(', ')}`;
  return `field    ${place(change)} ${change.path}: ${value(change.base)} → ${value(change.current)}`;
}

/**
 * A page paired with BASE's though its URL differs in a few parameters' values: each named, and the fix for
 * one that changes every run, in words that fit `diff` and expectMatchesBaseline alike.
 */
function queryLines(query: readonly QueryChange[]): string[] {
  const names = query.map((q) => q.name);
  const paths = names.map((n) => `query.${n}`);
  const list = (items: string[]) =>
    items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
  const flags = paths.map((p) => `--ignore ${p}`).join(' ');
  const option = `ignore: [${paths.map((p) => `'${p}'`).join(', ')}]`;
  const them = names.length === 1 ? 'it changes' : 'they change';
  return [
    ...query.map((q) => `query    ${q.name}: ${q.base} → ${q.current}`),
    `hint     the pages differ only in the value${names.length === 1 ? '' : 's'} of ${list(names)}: if ${them} every run, ignore ${list(paths)} (${flags}, or ${option})`,
  ];
}

/**
 * A page paired with BASE's though one segment of its URL path differs: named, and the fix for one that
 * changes every run (a checkout token), in words that fit `diff` and expectMatchesBaseline alike.
 */
function pathLines({ segment, base, current }: PathChange): string[] {
  return [
    `path     segment ${segment}: ${base} → ${current}`,
    `hint     the pages differ only in segment ${segment} of their path: if it changes every run (a checkout or order token), ignore context.pageUrl to match pages by their kind and place (--ignore context.pageUrl, or ignore: ['context.pageUrl'])`,
  ];
}

function pageLines(page: DiffPage): string[] {
  const head = `${page.status.padEnd(8)} ${page.kind} ${page.pageUrl ? page.page : '(no pageUrl)'}`;
  if (page.status === 'added')
    return [`${head}: only in CURRENT (${page.currentEvents.join(', ') || 'no events'})`];
  if (page.status === 'removed')
    return [`${head}: only in BASE (${page.baseEvents.join(', ') || 'no events'})`];
  return [
    head,
    ...(page.query ? queryLines(page.query) : []).map((l) => `  ${l}`),
    ...(page.path ? pathLines(page.path) : []).map((l) => `  ${l}`),
    ...page.changes.map((c) => `  ${changeLine(c)}`),
  ];
}

const pages = (n: number) => `${n} page${n === 1 ? '' : 's'}`;

/**
 * The last line: how many pages differ, of what: the pages in both runs (of them, how many changed) and
 * those in one only, with how many pages each run had.
 */
function countLine(result: DiffResult, names: { base: string; current: string }): string {
  const differ = differingPages(result);
  if (differ) return `${differ}: ${names.current} against ${names.base}`;
  const both = result.pages.length;
  return `same tracking: ${pages(both)} of ${names.current} match${both === 1 ? 'es' : ''} ${names.base}`;
}

/** The whole comparison as text; `names` are how BASE and CURRENT are called in its last line. */
export function diffText(result: DiffResult, names: { base: string; current: string }): string {
  const lines: string[] = [];
  for (const page of result.pages) if (page.status !== 'same') lines.push(...pageLines(page));
  lines.push(countLine(result, names));
  return `${lines.join('\n')}\n`;
}
