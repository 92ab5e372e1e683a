// Timeline verdicts as reports: JSON, JUnit XML (one test case per page, failures carry the findings) and
// the plain text `check` prints; the HTML file a QA attaches to a ticket is report-html.ts.
import type {
  PageTimelineDto,
  PageVerdictDto,
  TimelineFindingDto,
  TimelineReportDto,
  Verdict,
} from '../../../shared/timeline';
import { findingCount, findingSubject } from '../../../shared/timeline';
import { WiderScope, type ListedElsewhere } from './wider-scope';
import { SEVERITY_RANK } from '../../../shared/verdict';
import type { UnverifiedDto } from '../../../shared/readiness';
import { dtoIdentity, JunitNames, junitPageLine, type CaseIdentity } from './junit-names';

export function verdictCounts(pages: readonly PageVerdictDto[]): Record<Verdict, number> {
  const counts: Record<Verdict, number> = { pass: 0, warn: 0, fail: 0 };
  for (const p of pages) counts[p.verdict]++;
  return counts;
}

/**
 * The JSON report; `unjudged` (`check` only) names the rules that could not judge its input, what they lacked
 * and how to give it, before the pages.
 */
export function jsonReport(
  pages: PageTimelineDto[],
  source: string,
  now: number,
  unjudged: readonly UnverifiedDto[] = [],
): TimelineReportDto & { unjudged?: readonly UnverifiedDto[] } {
  return {
    generatedAt: new Date(now).toISOString(),
    source,
    verdicts: verdictCounts(pages),
    ...(unjudged.length > 0 && { unjudged }),
    pages,
  };
}

/**
 * The JSON report's text before its verdict totals, and between them and its first page: a report
 * streamed from its first byte writes the first, then `jsonReportRest` (together the bytes of
 * `JSON.stringify(jsonReport(…))`, whose last key is `pages`).
 */
export function jsonReportHead(source: string, now: number): [string, string] {
  const placeholder = { pass: -1, warn: -1, fail: -1 };
  const marker = JSON.stringify(placeholder);
  const text = JSON.stringify({ ...jsonReport([], source, now), verdicts: placeholder });
  const at = text.indexOf(marker);
  return [text.slice(0, at), text.slice(at + marker.length, -2)];
}

/** The JSON report after its head: the totals, the pages (each made as it is written), the end. */
export function* jsonReportRest(
  verdicts: Record<Verdict, number>,
  afterVerdicts: string,
  pages: Iterable<PageTimelineDto>,
): Generator<string> {
  yield `${JSON.stringify(verdicts)}${afterVerdicts}`;
  let i = 0;
  for (const page of pages) yield `${i++ ? ',' : ''}${JSON.stringify(page)}`;
  yield ']}';
}

/** The JSON report in pieces (a page each), for writing it as a stream. */
export function* jsonReportParts(
  pages: PageTimelineDto[],
  source: string,
  now: number,
): Generator<string> {
  const [head, afterVerdicts] = jsonReportHead(source, now);
  yield head;
  yield* jsonReportRest(verdictCounts(pages), afterVerdicts, pages);
}

/**
 * Text as XML 1.0 character data. XML 1.0 allows only tab, newline, carriage return, U+0020–U+D7FF,
 * U+E000–U+FFFD and U+10000–U+10FFFF: anything else a beacon sent (control characters, U+FFFE, U+FFFF, a
 * lone surrogate) becomes U+FFFD, so the report stays well-formed for every input.
 */
export function xml(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A line for a terminal: control characters (escape sequences that could retitle or clear the user's
 * terminal, carriage returns, C1 controls) and lone surrogates from beacons are shown escaped, never sent.
 */
export function terminalSafe(line: string): string {
  // most lines hold none of them: one pass over the codes, not the replacement's search with its lookbehind
  if (!holdsUnsafe(line)) return line;
  return line.replace(
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    /[\u0000-\u0008\u000A-\u001F\u007F-\u009F\u2028\u2029]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * A character `terminalSafe` escapes (a control but the tab, a line separator, any surrogate): one class
 * without lookarounds, which the regular expression engine scans faster than a loop over the codes.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F\u2028\u2029\uD800-\uDFFF]/;

/** Does `line` hold a character `terminalSafe` escapes? */
function holdsUnsafe(line: string): boolean {
  return UNSAFE.test(line);
}

export function pageTitle(p: PageVerdictDto): string {
  return `page ${p.pageLoadId || '(no pageLoadId)'} ${p.pageUrl}`.trim();
}

/** `order page, ` for pages of the rest of the visit (product, cart, order); search-side pages say their kinds. */
function visitKind(p: PageVerdictDto): string {
  return p.pageKind === 'product' || p.pageKind === 'cart' || p.pageKind === 'order'
    ? `${p.pageKind} page, `
    : '';
}

function findingText(f: TimelineFindingDto): string {
  const set = f.severityFrom
    ? ` (${f.defaultSeverity ? `${f.defaultSeverity} by default, ` : ''}set by ${f.severityFrom})`
    : '';
  const follows = f.causedBy !== undefined ? ` (follows from ${f.causedBy})` : '';
  return `[${f.severity}] ${f.rule}${findingSubject(f)}${set}${follows}: ${f.message}\n  fix: ${f.fix}\n  events: ${eventList(f)}`;
}

/** A finding about the whole session or site, told with an earlier page: named in a line. */
function toldElsewhere({ finding: f, scope, page }: ListedElsewhere): string {
  return `[${f.severity}] ${f.rule}${findingSubject(f)}: about the whole ${scope}, told with page ${page}\n  events: ${eventList(f)}`;
}

/** The kinds of response on a page, in order of appearance: `search, autocomplete`. */
export function kindsOf(p: PageVerdictDto): string {
  return [...new Set(p.responses.map((r) => r.kind))].join(', ');
}

/** The severity from which a finding fails a page in CI: `error` (default), `warning` or `info` (strictest). */
export type FailOn = 'error' | 'warning' | 'info';
export const FAIL_ON: readonly FailOn[] = ['error', 'warning', 'info'];

/** Does a finding of this severity fail a CI run that fails on `failOn`? */
export function failing(f: Pick<TimelineFindingDto, 'severity'>, failOn: FailOn): boolean {
  return SEVERITY_RANK[f.severity] >= SEVERITY_RANK[failOn];
}

/** Does the page fail a CI run that fails on `failOn`? */
export function fails(p: PageVerdictDto, failOn: FailOn = 'error'): boolean {
  return p.findings.some((f) => failing(f, failOn));
}

const FINISHED =
  'Judged as finished: the page was still waiting for impressions, and is judged as if it has ended.';

/** ` · judged as finished` for a page that was still pending when it was judged. */
function finishedNote(p: PageVerdictDto): string {
  return p.judgedAsFinished ? ', judged as finished' : '';
}

/** JUnit XML: one test case per page; findings at or above `failOn` are its failure, the rest its system-out. */
export function junitReport(
  pages: PageVerdictDto[],
  source: string,
  now: number,
  failOn: FailOn = 'error',
): string {
  return [...junitReportParts(pages, source, now, failOn)].join('');
}

/** The JUnit report in pieces (a line each), for writing it as a stream. */
export function* junitReportParts(
  pages: readonly PageVerdictDto[],
  source: string,
  now: number,
  failOn: FailOn = 'error',
): Generator<string> {
  const suites = new JunitSuites<ReturnType<WiderScope['shown']>>(failOn);
  const once = new WiderScope();
  for (const page of pages) {
    const shown = once.shown(page);
    suites.add(page.siteId, shown.page.findings, shown);
  }
  yield suites.head(source, now);
  const names = new JunitNames();
  for (const suite of suites.suites()) {
    yield suite.head;
    for (const { page, elsewhere } of suite.cases) yield junitCase(page, failOn, elsewhere, names);
    yield JUNIT_SUITE_END;
  }
  yield JUNIT_END;
}

/**
 * JUnit's test suites, a site each in the order sites came, as test cases come. A case fails where it
 * carries its failure: a finding at or above `failOn` among those it shows, so a finding about the whole
 * session or site fails the page it is listed on (its first), not every page it is about; the report's
 * head and each suite's count those. `C` is what a case waits as until it is written (the page, or where
 * its text went). Every JUnit writer counts here: the whole report, the live store's and check's.
 */
export class JunitSuites<C> {
  private readonly sites = new Map<string, { cases: C[]; failures: number }>();
  private tests = 0;
  private failures = 0;

  constructor(private readonly failOn: FailOn) {}

  /** A test case of the site, with the findings it shows. */
  add(siteId: string, shown: readonly Pick<TimelineFindingDto, 'severity'>[], kept: C): void {
    let site = this.sites.get(siteId);
    if (!site) this.sites.set(siteId, (site = { cases: [], failures: 0 }));
    site.cases.push(kept);
    this.tests++;
    if (shown.some((f) => failing(f, this.failOn))) {
      site.failures++;
      this.failures++;
    }
  }

  /** The report's head, with every suite's cases counted. */
  head(source: string, now: number): string {
    return junitHead(source, now, this.tests, this.failures);
  }

  /**
   * Each suite's head and its cases; JUNIT_SUITE_END closes it. A suite is named by its site, so that a CI
   * dashboard keeps one history per site across runs; two siteIds that XML writes alike (characters it
   * cannot carry) are told apart by their place among the suites so named, ` (2)` on the second.
   */
  *suites(): Generator<{ head: string; cases: readonly C[] }> {
    const named = new Map<string, number>();
    for (const [siteId, site] of this.sites) {
      const name = xml(suiteName(siteId));
      const seen = (named.get(name) ?? 0) + 1;
      named.set(name, seen);
      yield {
        head: junitSuiteHead(
          seen === 1 ? name : `${name} (${seen})`,
          site.cases.length,
          site.failures,
        ),
        cases: site.cases,
      };
    }
  }
}

/**
 * The suite of the pages whose events named no site (bare beacon bodies in a recording, a request whose
 * path had none): said as what it holds. No site's suite can be named so: theirs start with `site `.
 */
export const NO_SITE_SUITE = 'no siteId: events that named no site';

/** A site's suite, as a CI dashboard lists it. */
function suiteName(siteId: string): string {
  return siteId === '' ? NO_SITE_SUITE : `site ${siteId}`;
}

function junitHead(source: string, now: number, tests: number, failures: number): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xml(`search-sandbox timelines (${source})`)}" tests="${tests}" failures="${failures}" errors="0" time="0" timestamp="${new Date(now).toISOString()}">\n`;
}

/** A site's test suite opens (`name` written as XML); its test cases follow, then JUNIT_SUITE_END. */
function junitSuiteHead(name: string, tests: number, failures: number): string {
  return `  <testsuite name="${name}" tests="${tests}" failures="${failures}" errors="0" skipped="0" time="0">\n`;
}

export const JUNIT_SUITE_END = '  </testsuite>\n';
export const JUNIT_END = '</testsuites>\n';

/** How long a failure's message may be: a dashboard shows it in a line; the body has the whole. */
const FAILURE_MESSAGE = 200;

/**
 * A failure's message, as a dashboard lists it: the first finding's rule and message, clipped, and how many
 * more the body holds (`missing-render: 1 event … (and 1 more error: click-under-other-response)`).
 */
function failureMessage(errors: readonly TimelineFindingDto[], noun: string): string {
  const first = errors[0]!;
  const said = first.message.replace(/\s*\n\s*/g, ' ');
  const text = `${first.rule}: ${said.length > FAILURE_MESSAGE ? `${said.slice(0, FAILURE_MESSAGE - 1)}…` : said}`;
  const more = errors.slice(1);
  if (more.length === 0) return text;
  const rules = [...new Set(more.map((f) => f.rule))].join(', ');
  return `${text} (and ${more.length} more ${noun}${more.length === 1 ? '' : 's'}: ${rules})`;
}

/**
 * One page as a test case, named by `names` after its `identity` (junit-names.ts: the same for the same
 * journey, run after run; a writer that has the engine's page reads it from that, as its verdict's DTO
 * holds no events): findings at or above `failOn` are its failure, the rest its system-out after the
 * page's own ids, and so are the findings about the whole session or site told with an earlier page
 * (`elsewhere`), in a line each: they fail the page they are told on.
 */
export function junitCase(
  p: PageVerdictDto,
  failOn: FailOn,
  elsewhere: readonly ListedElsewhere[] = [],
  names: JunitNames = new JunitNames(),
  identity: CaseIdentity = dtoIdentity(p),
): string {
  const { classname, name } = names.of(p.siteId, identity);
  let out = `    <testcase classname="${xml(classname)}" name="${xml(name)}" time="0">\n`;
  const errors = p.findings.filter((f) => failing(f, failOn));
  if (errors.length > 0) {
    const noun = failOn === 'error' ? 'error' : 'finding';
    const following = errors.filter((f) => f.causedBy !== undefined).length;
    const body = [
      `${junitPageLine(p)}\n${findingCount(errors.length, noun, following)}`,
      ...errors.map(findingText),
    ];
    out += `      <failure type="${xml(errors[0]!.rule)}" message="${xml(failureMessage(errors, noun))}">${xml(body.join('\n\n'))}</failure>\n`;
  }
  const rest = [
    junitPageLine(p),
    ...(p.judgedAsFinished ? [FINISHED] : []),
    ...p.findings.filter((f) => !failing(f, failOn)).map(findingText),
    ...elsewhere.map(toldElsewhere),
  ];
  out += `      <system-out>${xml(rest.join('\n\n'))}</system-out>\n`;
  return `${out}    </testcase>\n`;
}

export const LABEL: Record<Verdict, string> = { pass: 'PASS', warn: 'WARN', fail: 'FAIL' };

export function textReport(pages: PageVerdictDto[]): string {
  const once = new WiderScope();
  return (
    pages
      .map((p) => {
        const { page, elsewhere } = once.shown(p);
        return textPage(page, elsewhere);
      })
      .join('') + textSummary(verdictCounts(pages))
  );
}

/**
 * One page of the text report: its verdict line and its findings, terminal-safe, each line ended. A finding
 * about the whole session or site told on an earlier page (`elsewhere`) is named in one line with its
 * events and that page, so that the page's verdict never stands without what makes it. `noSite`: what the
 * line says where a page's events named no site.
 */
export function textPage(
  p: PageVerdictDto,
  elsewhere: readonly ListedElsewhere[] = [],
  noSite = '(no site)',
): string {
  const c = p.counts;
  const lines = [
    `${LABEL[p.verdict]}  ${p.siteId || noSite}  ${pageTitle(p)}  (${visitKind(p)}session ${p.sessionId || '(none)'}, ${c.responses} response${c.responses === 1 ? '' : 's'}${c.responses > 0 ? `: ${kindsOf(p)}` : ''}, ${c.events} event${c.events === 1 ? '' : 's'}${finishedNote(p)})`,
  ];
  const byId = new Map(p.findings.map((f) => [f.id, f]));
  for (const f of p.findings) {
    const ids = eventList(f);
    // a finding that follows from another is folded under it (listed right after it)
    const cause = f.causedBy !== undefined ? byId.get(f.causedBy) : undefined;
    lines.push(
      cause
        ? `    ↳ ${f.severity.padEnd(7)} ${f.rule}${findingSubject(f)}, follows from ${cause.rule}  [${ids}]`
        : `  ${f.severity.padEnd(7)} ${f.rule}${findingSubject(f)}  [${ids}]`,
      `${cause ? '            ' : '          '}${f.message}`,
      `${cause ? '            ' : '          '}fix: ${f.fix}`,
    );
  }
  for (const { finding: f, scope, page } of elsewhere)
    lines.push(
      `  ${f.severity.padEnd(7)} ${f.rule}${findingSubject(f)}  [${eventList(f)}]  (about the whole ${scope}: told with page ${page})`,
    );
  return lines.map((l) => `${terminalSafe(l)}\n`).join('');
}

/** A finding's events as the text report lists them: `line:3, line:4 (+2 more)`. */
function eventList(f: TimelineFindingDto): string {
  const more = f.eventCount - f.eventIds.length;
  return f.eventIds.join(', ') + (more > 0 ? ` (+${more} more)` : '');
}

/** The text report's last line: `N pages: F fail, W warn, P pass`. */
export function textSummary(v: Record<Verdict, number>): string {
  const n = v.fail + v.warn + v.pass;
  return `${n} page${n === 1 ? '' : 's'}: ${v.fail} fail, ${v.warn} warn, ${v.pass} pass\n`;
}
