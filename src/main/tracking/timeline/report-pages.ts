// The JUnit and HTML reports of a live store, in two passes over the chosen pages, as the JSON report is
// written: the first judges each page as finished and counts what the head shows (the JUnit suites' tests
// and failures, the HTML summary's verdicts and rules) from its verdict and its findings' rules and
// severities, no DTO built; the second builds each page's DTO as its test case or section is written, and
// drops it. What waits between them is a reference to each page and the wider rules it leaves out: writing
// each case as the first pass reached it and keeping the text until the totals were known held the whole
// report in the heap (~1.8 KB a page for JUnit, more for HTML) and promoted all of it. The bytes are
// junitReportParts' and htmlReportParts' over the same pages; a page that changes between the two passes
// (a beacon meanwhile) is written as it then is, as the JSON report writes it.
import type { PageTimelineDto, PageVerdictDto, Verdict } from '../../../shared/timeline';
import { htmlParts, htmlSection, HtmlSummary } from './report-html';
import { withCauses } from './causes';
import type { Slicer } from '../../slices';
import type { TimelineFilter } from './engine';
import type { Page } from './page';
import type { Judgement } from './page-reads';
import { findingsShown, shownPage, WiderScope, type Dropped } from './wider-scope';
import { JUNIT_END, JUNIT_SUITE_END, junitCase, JunitSuites, type FailOn } from './report';
import { JunitNames, pageIdentity } from './junit-names';

/** What the reports read of the timelines (the engine). */
export interface ReportSource {
  matchingSteps(filter: TimelineFilter, finished: boolean): Iterable<Page | null>;
  finishedJudgement(page: Page): Judgement;
  finishedDto(page: Page): PageTimelineDto;
  finishedVerdictDto(page: Page): PageVerdictDto;
}

/** Which pages a report holds: the list's filters, and the verdict each page has judged as finished. */
export interface ReportChoice {
  filter: TimelineFilter;
  verdict?: Verdict;
  /** the client went away: stop */
  gone?: () => boolean;
}

/** A chosen page, and the wider rules it leaves out (listed for an earlier page: wider-scope.ts). */
interface Chosen {
  page: Page;
  dropped: Dropped | undefined;
}

/**
 * The first pass: each chosen page, in order, to `take` with its verdict and the findings it shows (a
 * finding about the whole session or site on its first page only); false when the client went away.
 */
async function choose(
  source: ReportSource,
  choice: ReportChoice,
  slicer: Slicer,
  take: (chosen: Chosen, verdict: Verdict, shown: Judgement['findings']) => void,
): Promise<boolean> {
  const once = new WiderScope();
  // most pages leave out the same few rules, listed on their session's first page: one map for each
  const shared = new Map<string, Dropped>();
  for (const page of source.matchingSteps(choice.filter, true)) {
    if (page !== null) {
      if (choice.gone?.()) return false;
      const { verdict, findings } = source.finishedJudgement(page);
      if (choice.verdict === undefined || verdict === choice.verdict) {
        let dropped = once.dropped(findings, page);
        let shown = findings;
        if (dropped !== undefined) {
          const key = [...dropped].flat().join('\0');
          dropped = shared.get(key) ?? (shared.set(key, dropped), dropped);
          shown = findingsShown(findings, dropped);
        }
        take({ page, dropped }, verdict, shown);
      }
    }
    await slicer.breathe();
  }
  return !choice.gone?.();
}

/** junitReportParts' pieces for the chosen pages; null when the client went away. */
export async function junitPages(
  source: ReportSource,
  choice: ReportChoice,
  o: { name: string; now: number; failOn: FailOn },
  slicer: Slicer,
): Promise<Iterable<string> | null> {
  const suites = new JunitSuites<Chosen>(o.failOn);
  const done = await choose(source, choice, slicer, (chosen, _verdict, shown) =>
    suites.add(chosen.page.siteId, shown, chosen),
  );
  if (!done) return null;
  return (function* () {
    yield suites.head(o.name, o.now);
    const names = new JunitNames();
    for (const suite of suites.suites()) {
      yield suite.head;
      for (const { page, dropped } of suite.cases) {
        const shown = shownPage(source.finishedVerdictDto(page), dropped);
        yield junitCase(shown.page, o.failOn, shown.elsewhere, names, pageIdentity(page));
      }
      yield JUNIT_SUITE_END;
    }
    yield JUNIT_END;
  })();
}

/** htmlReportParts' pieces for the chosen pages; null when the client went away. */
export async function htmlPages(
  source: ReportSource,
  choice: ReportChoice,
  o: { name: string; now: number },
  slicer: Slicer,
): Promise<Iterable<string> | null> {
  const summary = new HtmlSummary();
  const groups: Record<Verdict, Chosen[]> = { fail: [], warn: [], pass: [] };
  const done = await choose(source, choice, slicer, (chosen, verdict, shown) => {
    // the table of rules counts, of each rule's findings, those that follow from another (as the page lists them)
    summary.add(verdict, withCauses([...shown]));
    groups[verdict].push(chosen);
  });
  if (!done) return null;
  const section = ({ page, dropped }: Chosen) => {
    const shown = shownPage(source.finishedDto(page), dropped);
    return htmlSection(shown.page, shown.elsewhere);
  };
  return htmlParts(summary, groups, section, o.name, o.now);
}
