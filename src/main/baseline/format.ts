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
import { fieldChange, firstUids } from '../../shared/diff-words';
import { idNamed } from '../../shared/page-location';

function place(change: DiffChange): string {
  const n = change.change === 'missing' ? change.baseIndex : change.currentIndex;
  return n === undefined ? change.event : `${change.event} (event ${n + 1})`;
}

/** ` of uid 102`, ` of uids 101, 102, 103`: the items a missing or extra event names, the first few. */
function namedItems(uids: readonly string[] | undefined): string {
  if (!uids || uids.length === 0) return '';
  return ` of uid${uids.length === 1 ? '' : 's'} ${firstUids(uids)}`;
}

function changeLine(change: DiffChange): string {
  const items = namedItems(change.uids);
  if (change.change === 'missing')
    return `missing  ${place(change)}${items}: sent in BASE, not now`;
  if (change.change === 'extra') return `extra    ${place(change)}${items}: not sent in BASE`;
  if (change.change === 'moved')
    return `moved    ${change.event}: event ${change.baseIndex! + 1} → event ${change.currentIndex! + 1} (now ${change.after === undefined ? 'first' : `after ${change.after}`})`;
  return `field    ${place(change)} ${change.path}${fieldChange(change)}`;
}

const listed = (items: string[]) =>
  items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;

/** A parameter's value, or that the URL has no such parameter. */
const valueOr = (v: string | undefined) => v ?? '(absent)';

/**
 * What the named parameters are: `the value of ts`, `ts, which only CURRENT's URL has` (a parameter a
 * release added: a cache buster), `ts, which only BASE's URL has` (one it dropped).
 */
function differingIn(query: readonly QueryChange[]): string {
  const names = (keep: (q: QueryChange) => boolean) => query.filter(keep).map((q) => q.name);
  const valued = names((q) => q.base !== undefined && q.current !== undefined);
  const added = names((q) => q.base === undefined);
  const dropped = names((q) => q.current === undefined);
  const only = (side: string, n: string[]) =>
    `${listed(n)}, which only ${side}'s URL ha${n.length === 1 ? 's' : 've'}`;
  return [
    ...(valued.length ? [`the value${valued.length === 1 ? '' : 's'} of ${listed(valued)}`] : []),
    ...(added.length ? [only('CURRENT', added)] : []),
    ...(dropped.length ? [only('BASE', dropped)] : []),
  ].join(', and in ');
}

/**
 * The fix for parameters whose value changes every run, in words that fit `diff` and expectMatchesBaseline
 * alike: leave them out.
 */
function ignoreHint(query: readonly QueryChange[]): string {
  const paths = query.map((q) => `query.${q.name}`);
  const flags = paths.map((p) => `--ignore ${p}`).join(' ');
  const option = `ignore: [${paths.map((p) => `'${p}'`).join(', ')}]`;
  const them = query.length === 1 ? 'it changes' : 'they change';
  return `hint     the pages differ only in ${differingIn(query)}: if ${them} every run, ignore ${listed(paths)} (${flags}, or ${option})`;
}

/**
 * A compared URL value as a hint says it, with its verb and its side (`was …in BASE`, `is …now`): `was the
 * page's orderId in BASE`, `is 847661 now, no id of the page`, `was absent in BASE`.
 */
function role(value: string | undefined, verb: string, when: string): string {
  if (value === undefined) return `${verb} absent ${when}`;
  const id = idNamed(value);
  return id ? `${verb} the page's ${id} ${when}` : `${verb} ${value} ${when}, no id of the page`;
}

/**
 * A URL part that is one of the page's own ids on one side only (`order={orderId}` in BASE, `order=847661`
 * now). Ids are compared by name, so it is no value new every run, and leaving the part out would hide
 * what changed: the orderId the page sends took another form (`reform`: data.orderId's form changed on
 * the page, said below), or the URL now names the order, or no longer does.
 */
function idHint(
  part: string,
  { base, current }: { base?: string; current?: string },
  leave: string,
  reform: boolean,
): string {
  const order = reform && [base, current].some((v) => idNamed(v) === 'orderId');
  const cause = order
    ? 'the orderId the page sends took another form (data.orderId below)'
    : "what the page's URL names changed";
  return `hint     ${part} ${role(base, 'was', 'in BASE')} and ${role(current, 'is', 'now')}: ${cause}. The page's ids are compared by name, so this is no value new every run: ignoring ${leave} would hide it (update the baseline if it is meant)`;
}

const namesId = (q: { base?: string; current?: string }) =>
  idNamed(q.base) !== undefined || idNamed(q.current) !== undefined;

/**
 * A page paired with BASE's though its URL differs in a few parameters (their values, or a parameter only
 * one of them has): each named, and the fix for one that changes every run; a parameter that is one of
 * the page's ids on one side is told apart (idHint), and no fix hides it.
 */
function queryLines(query: readonly QueryChange[], reform: boolean): string[] {
  const ignorable = query.filter((q) => !namesId(q));
  return [
    ...query.map((q) => `query    ${q.name}: ${valueOr(q.base)} → ${valueOr(q.current)}`),
    ...(ignorable.length ? [ignoreHint(ignorable)] : []),
    ...query.filter(namesId).map((q) => idHint(q.name, q, `query.${q.name}`, reform)),
  ];
}

/**
 * A page paired with BASE's though one segment of its URL path differs: named, and the fix for one that
 * changes every run (a checkout token), in words that fit `diff` and expectMatchesBaseline alike; a
 * segment that is one of the page's ids on one side is told apart (idHint).
 */
function pathLines(change: PathChange, reform: boolean): string[] {
  const { segment, base, current } = change;
  const line = `path     segment ${segment}: ${base} → ${current}`;
  if (namesId(change))
    return [line, idHint(`segment ${segment}`, change, 'context.pageUrl', reform)];
  return [
    line,
    `hint     the pages differ only in segment ${segment} of their path: if it changes every run (a checkout or order token), ignore context.pageUrl to match pages by their kind and place (--ignore context.pageUrl, or ignore: ['context.pageUrl'])`,
  ];
}

function pageLines(page: DiffPage): string[] {
  const head = `${page.status.padEnd(8)} ${page.kind} ${page.pageUrl ? page.page : '(no pageUrl)'}`;
  if (page.status === 'added')
    return [`${head}: only in CURRENT (${page.currentEvents.join(', ') || 'no events'})`];
  if (page.status === 'removed')
    return [`${head}: only in BASE (${page.baseEvents.join(', ') || 'no events'})`];
  // an orderId of another form on the page: what its URL's id no longer agreeing with it comes from
  const reform = page.changes.some((c) => c.change === 'field' && /(^|\.)orderId$/.test(c.path!));
  return [
    head,
    ...(page.query ? queryLines(page.query, reform) : []).map((l) => `  ${l}`),
    ...(page.path ? pathLines(page.path, reform) : []).map((l) => `  ${l}`),
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
