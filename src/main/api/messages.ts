// The failure messages of the programmatic API: what a test runner prints when expectClean or
// waitForEvents fails. Plain text, one finding or event per line, readable in any terminal or CI log.
import type { RecordedEvent } from '../../shared/events.js';
import type { PageTimelineDto, TimelineFindingDto } from '../../shared/timeline.js';
import type { FilterValue } from './types.js';
import { findingCount, findingSubject, followNote, pageViewHash } from '../../shared/timeline.js';
import { RuleTallies, type RuleTally } from '../../shared/rule-tally.js';

/** `siteId=demo42, event=impression`, or `no filter`: a filter of the package's (its values are query values). */
export function describeFilter(filter: object): string {
  const parts = Object.entries(filter as Record<string, FilterValue>)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${String(v)}`);
  return parts.length ? parts.join(', ') : 'no filter';
}

/** One recorded event on one line: id, endpoint, site, status, the ids a developer looks for. */
export function describeEvent(e: RecordedEvent): string {
  const body = (e.body ?? {}) as {
    context?: Record<string, unknown>;
    data?: Record<string, unknown>;
  };
  const ids = [
    typeof body.context?.pageLoadId === 'string' ? `pageLoadId=${body.context.pageLoadId}` : '',
    typeof body.data?.responseId === 'string' ? `responseId=${body.data.responseId}` : '',
  ].filter(Boolean);
  const verdict = e.accepted
    ? `${e.status} accepted`
    : `${e.status} rejected: ${e.errors.map((x) => x.message).join('; ') || 'no reason recorded'}`;
  return `${e.id}  ${e.category}/${e.event}  site ${e.siteId || '(none)'}  ${verdict}${ids.length ? `  ${ids.join(' ')}` : ''}`;
}

const SHOWN_EVENTS = 5;

/** The last few events of a list, with how many there were. */
function lastEvents(title: string, events: RecordedEvent[], total = events.length): string[] {
  if (events.length === 0) return [`${title}: none`];
  const shown = events.slice(-SHOWN_EVENTS);
  const head = total > shown.length ? `${title} (last ${shown.length} of ${total}):` : `${title}:`;
  return [head, ...shown.map((e) => `  ${describeEvent(e)}`)];
}

export interface WaitFailure {
  filter: object;
  count: number;
  timeoutMs: number;
  /** the sandbox's own sentence, e.g. "1 of 3 matching events were recorded within 5000 ms" */
  message: string;
  note?: string;
  /** why the filter's siteId names no site of the sandbox (a typo), when it does not */
  unknownSite?: string;
  matching: RecordedEvent[];
  /** the newest events of any kind, shown when too few matched (a wrong siteId or event name shows here) */
  latest: { events: RecordedEvent[]; total: number } | null;
}

export function waitFailureMessage(f: WaitFailure): string {
  const lines = [
    `waitForEvents timed out (${describeFilter({ ...f.filter, count: f.count })}): ${f.message}${f.note ? ` (${f.note})` : ''}`,
    ...(f.unknownSite ? [f.unknownSite] : []),
    ...lastEvents('Matching events seen', f.matching),
  ];
  if (f.latest) {
    lines.push(...lastEvents('Latest events of any kind', f.latest.events, f.latest.total));
    if (f.latest.total > 0)
      lines.push(
        'If the storefront sent these instead, check the siteId, category and event names of the filter.',
      );
    else
      lines.push(
        'Nothing reached the sandbox: check that the storefront sends beacons to it (routeToSandbox, or the beacon origin).',
      );
  }
  return lines.join('\n');
}

export interface CleanFailure {
  filter: object;
  failOn: 'error' | 'warning' | 'info';
  pages: PageTimelineDto[];
  failing: Array<{ page: PageTimelineDto; findings: TimelineFindingDto[] }>;
  sandboxUrl: string;
}

/** How many pages a failure message shows in full before it folds the rest into one line. */
const SHOWN_PAGES = 3;
/** The first page of each rule is shown, up to this many pages in all. */
const MOST_SHOWN_PAGES = 8;

type FailingPage = CleanFailure['failing'][number];

/** Each rule's findings, worst severity first, then the rule on most pages (as the HTML report's table), then most findings. */
function ruleTallies(failing: readonly FailingPage[]): RuleTally[] {
  const tallies = new RuleTallies();
  for (const { findings } of failing) tallies.add(findings);
  return tallies.sorted((a, b) => b.findings - a.findings);
}

/** `missing-render ×40 (error), order ×6 on 3 pages (error, 2 follow from another finding)` */
function tallyText(tallies: readonly RuleTally[]): string {
  return tallies
    .map(
      (t) =>
        `${t.rule} ×${t.findings}${t.pages === t.findings ? '' : ` on ${t.pages} page${t.pages === 1 ? '' : 's'}`} (${t.severity}${t.following > 0 ? `, ${followNote(t.following)}` : ''})`,
    )
    .join(', ');
}

/**
 * The pages shown in full, worst first: the first page of each rule in the tally's order (so that each
 * rule's message and fix is on the screen once), up to a bound, then the first others up to a few.
 */
function shownPages(failing: readonly FailingPage[], tallies: readonly RuleTally[]): FailingPage[] {
  const shown: FailingPage[] = [];
  const rules = new Set<string>();
  for (const { rule } of tallies) {
    if (shown.length >= MOST_SHOWN_PAGES) break;
    if (rules.has(rule)) continue;
    const page = failing.find((p) => p.findings.some((x) => x.rule === rule))!;
    shown.push(page);
    for (const x of page.findings) rules.add(x.rule);
  }
  for (const p of failing) {
    if (shown.length >= SHOWN_PAGES) break;
    if (!shown.includes(p)) shown.push(p);
  }
  return shown;
}

/** One page in full: where it is, its links, each finding with its fix. */
function pageLines(sandboxUrl: string, { page, findings: list }: FailingPage): string[] {
  const lines = [
    '',
    `page ${page.pageUrl || '(no pageUrl)'}`,
    `  pageLoadId ${page.pageLoadId || '(none)'} · site ${page.siteId} · session ${page.sessionId || '(none)'} · verdict ${page.verdict}`,
    `  open: ${sandboxUrl}/${pageViewHash(page)}`,
    `  events: ${sandboxUrl}/_sandbox/timelines/${encodeURIComponent(page.pageLoadId)}?siteId=${page.siteId}`,
  ];
  const byId = new Map(list.map((x) => [x.id, x]));
  for (const finding of list) {
    // a finding that follows from another is folded under it (listed right after it), as check's are
    const cause = finding.causedBy !== undefined ? byId.get(finding.causedBy) : undefined;
    lines.push(
      `  ${cause ? '↳ ' : ''}${finding.severity} ${finding.rule}${findingSubject(finding)}${cause ? `, follows from ${cause.rule}` : ''}: ${finding.message.replace(/\s*\n\s*/g, ' ')}`,
      `    fix: ${finding.fix.replace(/\s*\n\s*/g, ' ')}`,
    );
  }
  return lines;
}

/**
 * What a failed expectClean says: the count and a tally by rule on top, the first pages in full, the rest
 * folded into one line, and where every page is (the report a failed Playwright test gets attached).
 */
export function cleanFailureMessage(f: CleanFailure): string {
  const findings = f.failing.reduce((n, p) => n + p.findings.length, 0);
  const following = f.failing.reduce(
    (n, p) => n + p.findings.filter((x) => x.causedBy !== undefined).length,
    0,
  );
  const lines = [
    `expectClean failed (${describeFilter({ ...f.filter, failOn: f.failOn })}): ${findingCount(findings, 'finding', following)} on ${f.failing.length} of ${f.pages.length} page${f.pages.length === 1 ? '' : 's'}`,
  ];
  const tallies = ruleTallies(f.failing);
  lines.push(`by rule: ${tallyText(tallies)}`);
  const shown = shownPages(f.failing, tallies);
  for (const p of shown) lines.push(...pageLines(f.sandboxUrl, p));
  const folded = f.failing.filter((p) => !shown.includes(p));
  if (folded.length > 0) {
    const rules = new Set(shown.flatMap((p) => p.findings.map((x) => x.rule)));
    const same = folded.every((p) => p.findings.every((x) => rules.has(x.rule)));
    lines.push(
      '',
      `… and ${folded.length} more page${folded.length === 1 ? '' : 's'}${same ? ' with findings of the rules above' : ''}: ${tallyText(ruleTallies(folded))}`,
    );
  }
  const query = new URLSearchParams({ format: 'html' });
  for (const [k, v] of Object.entries({ ...f.filter, failOn: f.failOn }) as Array<
    [string, FilterValue]
  >)
    if (v !== undefined) query.set(k, String(v));
  lines.push(
    '',
    `Every page and finding: ${f.sandboxUrl}/_sandbox/report?${query.toString()} (the report a failed test of the Playwright fixture gets attached as search-sandbox-report.html)`,
    `While the sandbox runs, its Timelines view shows these pages: ${f.sandboxUrl}/`,
  );
  return lines.join('\n');
}

export function emptyCleanMessage(
  filter: object,
  sandboxUrl: string,
  /** why the filter's siteId names no site of the sandbox (a typo), when it does not */
  unknownSite?: string,
): string {
  return [
    `expectClean failed (${describeFilter(filter)}): no page matched, so nothing was checked.`,
    ...(unknownSite ? [unknownSite] : []),
    'Either nothing was tracked yet (wait for it first: await sandbox.waitForEvents({ event: "render" })),',
    `or the filter matches no page (the sandbox holds them at ${sandboxUrl}/_sandbox/timelines).`,
    'Pass { allowEmpty: true } when a page without tracking is what you expect.',
  ].join('\n');
}
