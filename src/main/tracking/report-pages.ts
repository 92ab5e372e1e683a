// The JUnit and HTML reports of a live store, written as the JSON report is (issue 45): a first pass counts
// what their heads need (pages, verdicts, failures per site) from each page's verdict, keeping only the
// pages chosen; the DTO of each page is built when its turn to be written comes. Building all 10,000 DTOs
// of 100,000 events first held them at once, and the collections of that heap stalled every answer
// (359 ms for JUnit, 496 ms for HTML, measured from outside). The bytes are junitReportParts' and
// htmlReportParts' over the same pages; a page that changes while the report is written is written as it
// then is.
import type { PageTimelineDto, Verdict } from '../../shared/timeline';
import type { Slicer } from '../slices';
import type { TimelineFilter } from './timeline/engine';
import type { PageState } from './timeline/model';
import {
  fails,
  HTML_END,
  htmlHead,
  htmlSectionPart,
  JUNIT_END,
  JUNIT_SUITE_END,
  junitCase,
  junitHead,
  junitSuiteHead,
  type FailOn,
} from './timeline/report';

/** What the reports read of the timelines (the engine). */
export interface ReportSource {
  matchingSteps(filter: TimelineFilter, finished: boolean): Iterable<PageState | null>;
  finishedVerdict(page: PageState): Verdict;
  finishedDto(page: PageState): PageTimelineDto;
}

interface Site {
  pages: PageState[];
  failures: number;
}

/** The pages a report holds, in order, with the counts its head shows. */
export interface ChosenPages {
  pages: PageState[];
  verdicts: Record<Verdict, number>;
  /** by site, in the order sites first appear (JUnit's suites) */
  sites: Map<string, Site>;
  failures: number;
}

/**
 * The pages of `filter` (each judged as finished, the verdict filter applied to that verdict), counted for
 * a report failing on `failOn`; the loop is given back between slices.
 */
export async function choosePages(
  source: ReportSource,
  filter: TimelineFilter,
  verdict: Verdict | undefined,
  failOn: FailOn,
  slicer: Slicer,
  gone: () => boolean = () => false,
): Promise<ChosenPages> {
  const chosen: ChosenPages = {
    pages: [],
    verdicts: { pass: 0, warn: 0, fail: 0 },
    sites: new Map(),
    failures: 0,
  };
  for (const page of source.matchingSteps(filter, true)) {
    if (page !== null) {
      if (gone()) break;
      const v = source.finishedVerdict(page);
      if (verdict === undefined || v === verdict) {
        chosen.pages.push(page);
        chosen.verdicts[v]++;
        let site = chosen.sites.get(page.siteId);
        if (!site) chosen.sites.set(page.siteId, (site = { pages: [], failures: 0 }));
        site.pages.push(page);
        if (failing(source, page, v, failOn)) {
          site.failures++;
          chosen.failures++;
        }
      }
    }
    await slicer.breathe();
  }
  return chosen;
}

/**
 * Does the page fail on `failOn`? Its verdict tells for errors (fail) and warnings (warn or fail); an info
 * finding shows only in its findings, so for `info` a page that passes has its DTO built (and dropped).
 */
function failing(source: ReportSource, page: PageState, v: Verdict, failOn: FailOn): boolean {
  if (failOn === 'error') return v === 'fail';
  if (failOn === 'warning' || v !== 'pass') return v !== 'pass';
  return fails(source.finishedDto(page), failOn);
}

/** junitReportParts' pieces for the chosen pages, each page's DTO built as its test case is written. */
export function* junitPageParts(
  source: ReportSource,
  chosen: ChosenPages,
  name: string,
  now: number,
  failOn: FailOn,
): Generator<string> {
  yield junitHead(name, now, chosen.pages.length, chosen.failures);
  for (const [siteId, site] of chosen.sites) {
    yield junitSuiteHead(siteId, site.pages.length, site.failures);
    for (const page of site.pages) yield junitCase(source.finishedDto(page), failOn);
    yield JUNIT_SUITE_END;
  }
  yield JUNIT_END;
}

/** htmlReportParts' pieces for the chosen pages, each page's DTO built as its section is written. */
export function* htmlPageParts(
  source: ReportSource,
  chosen: ChosenPages,
  name: string,
  now: number,
): Generator<string> {
  yield htmlHead(chosen.pages.length, chosen.verdicts, name, now);
  for (let i = 0; i < chosen.pages.length; i++)
    yield htmlSectionPart(source.finishedDto(chosen.pages[i]!), i);
  yield HTML_END;
}
