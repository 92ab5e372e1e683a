// The admin API's reads of the timelines, planned over the engine's public methods: the page list (from the
// page index when its filters allow, else a walk over the candidate pages), one page by its pageLoadId, the
// report and a site's readiness. Each walk gives the event loop back between slices; the HTTP layer only
// writes the pieces.
import { readinessGaps, type ReadinessDto } from '../../../shared/readiness';
import type { PageTimelineDto, PageTimelineSummaryDto, Verdict } from '../../../shared/timeline';
import type { Slicer } from '../../slices';
import { objectWithList } from '../../store/json-pieces';
import { summaryOf } from './dto';
import type { Page } from './page';
import type { IndexFilter } from './verdict-index';
import type { TimelineFilter } from './queries';
import { jsonReportHead, jsonReportRest, type FailOn } from './report';
import { htmlPages, junitPages, type ReportChoice, type ReportSource } from './report-pages';
import { WiderScope } from './wider-scope';
import type { ReadinessSite } from './readiness';
import { readinessSiteOf } from './readiness-config';

/** What the reads use of the engine (TimelineEngine). */
export interface TimelineSource extends ReportSource {
  settle(): Generator<void>;
  finishedVerdict(page: Page): Verdict;
  byIndex(
    filter: IndexFilter,
    limit: number,
  ): { pages: Page[]; total: number; verdicts: Record<Verdict, number> };
  pageDto(page: Page): PageTimelineDto;
  summary(page: Page): PageTimelineSummaryDto;
  find(pageLoadId: string, siteId?: string): Page[];
}

export type ListView = 'full' | 'summary' | 'keys';

export interface ListRequest extends TimelineFilter {
  /** the newest this many */
  limit: number;
  /** full pages, their summaries, or `{siteId, pageLoadId}` only */
  view: ListView;
  /** every page judged as if it has ended, as the reports judge it */
  finished?: boolean;
}

/** A page as the walk keeps it: as judged now, or (finished) its DTO judged as finished. */
type Chosen = Page | PageTimelineDto;

interface Selection {
  pages: Chosen[];
  total: number;
  verdicts: Record<Verdict, number>;
}

/**
 * The page list's JSON in pieces, `{pages, total, verdicts}`: the newest `limit` matching pages, oldest
 * first. The verdict totals ignore the verdict filter, so a UI can show all three tabs at once.
 */
export async function listTimelines(
  source: TimelineSource,
  request: ListRequest,
  slicer: Slicer,
): Promise<Iterable<string>> {
  const { limit, view, finished, ...filter } = request;
  const chosen = indexAnswers(filter, finished)
    ? await fromIndex(source, filter, limit, slicer)
    : await walked(source, filter, limit, finished ?? false, slicer);
  const { pages, total, verdicts } = chosen;
  return objectWithList('pages', listed(source, pages, view), { total, verdicts });
}

/**
 * No filter but the verdict, the site, the rule and the kind: the engine's page index answers (the same
 * answer as judging every page: test/unit/timeline-page-index.test.ts).
 */
function indexAnswers(filter: TimelineFilter, finished: boolean | undefined): boolean {
  const { verdict: _v, siteId: _s, rule: _r, kind: _k, ...others } = filter;
  return !finished && Object.values(others).every((v) => v === undefined);
}

/** The index's answer, once the pages changed since the last read are judged. */
async function fromIndex(
  source: TimelineSource,
  filter: TimelineFilter,
  limit: number,
  slicer: Slicer,
): Promise<Selection> {
  for (const _ of source.settle()) await slicer.breathe();
  const { verdict, siteId, rule, kind } = filter;
  return source.byIndex({ verdict, siteId, rule, kind }, limit);
}

/** Every candidate page judged on the way (all of them after a catalog change), in slices. */
async function walked(
  source: TimelineSource,
  filter: TimelineFilter,
  limit: number,
  finished: boolean,
  slicer: Slicer,
): Promise<Selection> {
  const { verdict, ...rest } = filter;
  const verdicts: Record<Verdict, number> = { pass: 0, warn: 0, fail: 0 };
  const chosen: Chosen[] = [];
  for (const page of source.matchingSteps(rest, finished)) {
    if (page !== null) {
      const judged = finished ? source.finishedDto(page) : page;
      const v = finished ? (judged as PageTimelineDto).verdict : page.verdict;
      verdicts[v]++;
      if (verdict === undefined || v === verdict) chosen.push(judged);
    }
    await slicer.breathe();
  }
  return {
    pages: chosen.slice(Math.max(0, chosen.length - limit)),
    total: chosen.length,
    verdicts,
  };
}

/**
 * Each page's JSON as the list shows it, made as it is written. `keys` tells which pages a filter keeps
 * (the UI's text and event-type filters) without what they hold. A finding about the whole session or
 * site is listed on its first page only (wider-scope.ts).
 */
function* listed(source: TimelineSource, pages: Chosen[], view: ListView): Generator<string> {
  const once = new WiderScope();
  for (const p of pages) {
    if (view === 'keys') yield JSON.stringify({ siteId: p.siteId, pageLoadId: p.pageLoadId });
    else if (view === 'summary')
      yield JSON.stringify(once.summary('tallies' in p ? source.summary(p) : summaryOf(p)));
    else yield JSON.stringify(once.page('tallies' in p ? source.pageDto(p) : p));
  }
}

/** One page by its pageLoadId: the page, or the sites that share it (none: no such page). */
export function oneTimeline(
  source: TimelineSource,
  pageLoadId: string,
  siteId?: string,
): { page: PageTimelineDto } | { sites: string[] } {
  const found = source.find(pageLoadId, siteId);
  return found.length === 1
    ? { page: source.pageDto(found[0]!) }
    : { sites: found.map((p) => p.siteId) };
}

export type ReportFormat = 'json' | 'junit' | 'html';

export interface ReportRequest extends ReportChoice {
  format: ReportFormat;
  failOn: FailOn;
  /** the report's name and time */
  name: string;
  now: number;
}

export interface ReportBody {
  mediaType: string;
  /** a file name to offer (JUnit, HTML) */
  fileName?: string;
  /** written at once: the JSON report is streamed from its first byte */
  head: string;
  /** the rest once the pages are chosen and counted; null when the client went away (`gone`) */
  rest(): Promise<Iterable<string> | null>;
}

/** Every chosen page judged as if it has ended, as expectClean and check judge it: JSON, JUnit or HTML. */
export function timelineReport(
  source: TimelineSource,
  request: ReportRequest,
  slicer: Slicer,
): ReportBody {
  const { format, failOn, name, now } = request;
  if (format === 'json') return jsonReport(source, request, slicer);
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  const [type, ext] = format === 'junit' ? ['application/xml', 'xml'] : ['text/html', 'html'];
  return {
    mediaType: type,
    fileName: `timelines-${stamp}.${ext}`,
    head: '',
    // each page built once and kept as its written piece until the head's totals are known
    rest: () =>
      format === 'junit'
        ? junitPages(source, request, { name, now, failOn }, slicer)
        : htmlPages(source, request, { name, now }, slicer),
  };
}

/**
 * The head goes out at once, the verdict totals once every page is counted (no DTO built), then each
 * page's DTO as it is written (a million stored events never hold 100,000 DTOs at once). The bytes are
 * JSON.stringify(jsonReport(…))'s; a page that changes while the report is written is written as it then is.
 */
function jsonReport(source: TimelineSource, request: ReportRequest, slicer: Slicer): ReportBody {
  const [head, afterVerdicts] = jsonReportHead(request.name, request.now);
  const rest = async (): Promise<Iterable<string> | null> => {
    const chosen: Page[] = [];
    const verdicts: Record<Verdict, number> = { pass: 0, warn: 0, fail: 0 };
    for (const page of source.matchingSteps(request.filter, true)) {
      if (page !== null) {
        if (request.gone?.()) return null;
        const v = source.finishedVerdict(page);
        if (request.verdict === undefined || v === request.verdict) {
          chosen.push(page);
          verdicts[v]++;
        }
      }
      await slicer.breathe();
    }
    const dtos = function* () {
      for (const page of chosen) yield source.finishedDto(page);
    };
    return jsonReportRest(verdicts, afterVerdicts, dtos());
  };
  return { mediaType: 'application/json', head, rest };
}

/** A site's readiness as judged now, with what its account declares (`readinessSiteOf`), read in slices. */
export async function siteReadiness(
  source: {
    readinessSteps(site: ReadinessSite, finished?: boolean): Generator<void, ReadinessDto>;
  },
  siteId: string,
  account: Parameters<typeof readinessSiteOf>[1],
  slicer: Slicer,
  /** every page judged as if it has ended, as `check` judges them */
  finished = false,
): Promise<ReadinessDto> {
  const steps = source.readinessSteps(readinessSiteOf(siteId, account), finished);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return withGaps(step.value);
    await slicer.breathe();
  }
}

/** A site that expects something is told what keeps it from being ready, as `check --readiness` tells it. */
function withGaps(dto: ReadinessDto): ReadinessDto {
  return dto.expect.length > 0 ? { ...dto, gaps: readinessGaps(dto, dto.expect) } : dto;
}
