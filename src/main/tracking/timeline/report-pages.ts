// The JUnit and HTML reports of a live store: each page judged as finished once, its DTO built,
// written out as its test case or section at once and dropped; only those strings wait (strings cost the
// collector nothing to mark) until the totals the head shows are known. Building every page's DTO first
// held millions of small objects at once, which every major collection of that heap had to mark while the
// beacons waited. The bytes are junitReportParts' and htmlReportParts' over the same
// pages; the loop is given back between slices.
import type { PageTimelineDto, Verdict } from '../../../shared/timeline';
import { HtmlReport } from './report-html';
import type { Slicer } from '../../slices';
import type { TimelineFilter } from './engine';
import type { Page } from './page';
import { WiderScope } from './wider-scope';
import {
  fails,
  JUNIT_END,
  JUNIT_SUITE_END,
  junitCase,
  junitHead,
  junitSuiteHead,
  type FailOn,
} from './report';

/** What the reports read of the timelines (the engine). */
export interface ReportSource {
  matchingSteps(filter: TimelineFilter, finished: boolean): Iterable<Page | null>;
  finishedDto(page: Page): PageTimelineDto;
}

/** Which pages a report holds: the list's filters, and the verdict each page has judged as finished. */
export interface ReportChoice {
  filter: TimelineFilter;
  verdict?: Verdict;
  /** the client went away: stop */
  gone?: () => boolean;
}

/** Each chosen page's DTO to `take`, in order; false when the client went away. */
async function eachPage(
  source: ReportSource,
  choice: ReportChoice,
  slicer: Slicer,
  take: (dto: PageTimelineDto) => void,
): Promise<boolean> {
  // a finding about the whole session or site is written on its first page only (wider-scope.ts)
  const once = new WiderScope();
  for (const page of source.matchingSteps(choice.filter, true)) {
    if (page !== null) {
      if (choice.gone?.()) return false;
      const dto = source.finishedDto(page);
      if (choice.verdict === undefined || dto.verdict === choice.verdict) take(once.page(dto));
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
  const sites = new Map<string, { cases: string[]; failures: number }>();
  let total = 0;
  let failures = 0;
  const done = await eachPage(source, choice, slicer, (dto) => {
    let site = sites.get(dto.siteId);
    if (!site) sites.set(dto.siteId, (site = { cases: [], failures: 0 }));
    site.cases.push(junitCase(dto, o.failOn));
    total++;
    if (fails(dto, o.failOn)) {
      site.failures++;
      failures++;
    }
  });
  if (!done) return null;
  return (function* () {
    yield junitHead(o.name, o.now, total, failures);
    for (const [siteId, site] of sites) {
      yield junitSuiteHead(siteId, site.cases.length, site.failures);
      yield* site.cases;
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
  const report = new HtmlReport();
  const done = await eachPage(source, choice, slicer, (dto) => report.add(dto));
  if (!done) return null;
  return report.parts(o.name, o.now);
}
