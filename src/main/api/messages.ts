// The failure messages of the programmatic API: what a test runner prints when expectClean or
// waitForEvents fails. Plain text, one finding or event per line, readable in any terminal or CI log.
import type { RecordedEvent } from '../../shared/events.js';
import type { PageTimelineDto, TimelineFindingDto } from '../../shared/timeline.js';
import type { FilterValue } from './types.js';
import { findingCount, findingSubject, pageViewHash } from '../../shared/timeline.js';

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
  matching: RecordedEvent[];
  /** the newest events of any kind, shown when too few matched (a wrong siteId or event name shows here) */
  latest: { events: RecordedEvent[]; total: number } | null;
}

export function waitFailureMessage(f: WaitFailure): string {
  const lines = [
    `waitForEvents timed out (${describeFilter({ ...f.filter, count: f.count })}): ${f.message}${f.note ? ` (${f.note})` : ''}`,
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

export function cleanFailureMessage(f: CleanFailure): string {
  const findings = f.failing.reduce((n, p) => n + p.findings.length, 0);
  const following = f.failing.reduce(
    (n, p) => n + p.findings.filter((x) => x.causedBy !== undefined).length,
    0,
  );
  const lines = [
    `expectClean failed (${describeFilter({ ...f.filter, failOn: f.failOn })}): ${findingCount(findings, 'finding', following)} on ${f.failing.length} of ${f.pages.length} page${f.pages.length === 1 ? '' : 's'}`,
  ];
  for (const { page, findings: list } of f.failing) {
    lines.push(
      '',
      `page ${page.pageUrl || '(no pageUrl)'}`,
      `  pageLoadId ${page.pageLoadId || '(none)'} · site ${page.siteId} · session ${page.sessionId || '(none)'} · verdict ${page.verdict}`,
      `  open: ${f.sandboxUrl}/${pageViewHash(page)}`,
      `  events: ${f.sandboxUrl}/_sandbox/timelines/${encodeURIComponent(page.pageLoadId)}?siteId=${page.siteId}`,
    );
    const byId = new Map(list.map((x) => [x.id, x]));
    for (const finding of list) {
      // a finding that follows from another is folded under it (listed right after it), as check's are
      const cause = finding.causedBy !== undefined ? byId.get(finding.causedBy) : undefined;
      lines.push(
        `  ${cause ? '↳ ' : ''}${finding.severity} ${finding.rule}${findingSubject(finding)}${cause ? `, follows from ${cause.rule}` : ''}: ${finding.message.replace(/\s*\n\s*/g, ' ')}`,
        `    fix: ${finding.fix.replace(/\s*\n\s*/g, ' ')}`,
      );
    }
  }
  lines.push('', `While the sandbox runs, its Timelines view shows these pages: ${f.sandboxUrl}/`);
  return lines.join('\n');
}

export function emptyCleanMessage(filter: object, sandboxUrl: string): string {
  return [
    `expectClean failed (${describeFilter(filter)}): no page matched, so nothing was checked.`,
    'Either nothing was tracked yet (wait for it first: await sandbox.waitForEvents({ event: "render" })),',
    `or the filter matches no page (the sandbox holds them at ${sandboxUrl}/_sandbox/timelines).`,
    'Pass { allowEmpty: true } when a page without tracking is what you expect.',
  ].join('\n');
}
