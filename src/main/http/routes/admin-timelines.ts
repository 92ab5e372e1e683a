// Admin API over beacon timelines: the page list with filters, one page, and the report (json, junit, html).
// Thin: parse and check the query, ask timelines, shape the answer.
import { Router } from 'express';
import type { SandboxClock } from '../../clock';
import type { TimelineEngine } from '../../tracking/timeline/engine';
import { summaryOf, verdictOf } from '../../tracking/timeline/dto';
import { jsonReportHead, jsonReportRest } from '../../tracking/timeline/report';
import { htmlPages, junitPages } from '../../tracking/timeline/report-pages';
import { mount } from '../admin-query';
import { objectWithList } from '../../store/json-pieces';
import { Slicer } from '../../slices';
import { mapped, streamBody } from '../stream-body';
import type { PageTimelineDto, PageTimelineSummaryDto, Verdict } from '../../../shared/timeline';
import { WiderScope } from '../../tracking/timeline/wider-scope';
import type { PageState } from '../../tracking/timeline/model';

export const DEFAULT_TIMELINE_LIMIT = 500;

export function adminTimelinesRouter(timelines: TimelineEngine, clock: SandboxClock): Router {
  const router = Router();

  /** GET /_sandbox/timelines?siteId&verdict&sessionId&pageLoadId&q&kind&event&rule&limit&view=full|summary|keys */
  mount(router, 'timelines', async (_req, res, q) => {
    const { verdict, limit = DEFAULT_TIMELINE_LIMIT, view = 'full', finished, ...rest } = q;
    // verdict totals ignore the verdict filter, so a UI can show all three tabs at once; every page is
    // judged on the way (all of them after a catalog change), so the loop is given back between slices
    const slicer = new Slicer();
    let verdicts: Record<Verdict, number> = { pass: 0, warn: 0, fail: 0 };
    let kept: Array<PageState | PageTimelineDto>;
    let total: number;
    const { siteId, rule, kind, ...others } = rest;
    if (!finished && Object.values(others).every((v) => v === undefined)) {
      // no filter but the verdict, the site, the rule and the kind: the engine's page index answers,
      // once the pages changed since the last read are judged (test/unit/timeline-page-index.test.ts:
      // the same answer as an engine that judges every page)
      for (const _ of timelines.settle()) await slicer.breathe();
      ({
        pages: kept,
        total,
        verdicts,
      } = timelines.byIndex({ verdict, siteId, rule, kind }, limit));
    } else {
      const chosen: Array<PageState | PageTimelineDto> = [];
      for (const page of timelines.matchingSteps(rest, finished)) {
        if (page === null) {
          await slicer.breathe();
          continue;
        }
        // judged as finished (expectClean): the verdict is the finished page's
        const judged = finished ? timelines.finishedDto(page) : page;
        const v = finished ? (judged as PageTimelineDto).verdict : verdictOf(page);
        verdicts[v]++;
        if (verdict === undefined || v === verdict) chosen.push(judged);
        await slicer.breathe();
      }
      kept = chosen.slice(Math.max(0, chosen.length - limit));
      total = chosen.length;
    }
    // keys: which pages a filter keeps (the UI's text and event-type filters), without what they hold:
    // a text every page matches asked for 100,000 summaries, 42 MB, about once a second
    const dto = (p: PageState | PageTimelineDto) =>
      view === 'keys'
        ? { siteId: p.siteId, pageLoadId: p.pageLoadId }
        : 'tallies' in p
          ? view === 'summary'
            ? timelines.summary(p)
            : timelines.pageDto(p)
          : view === 'summary'
            ? summaryOf(p)
            : p;
    // a finding about the whole session or site is listed on its first page only (wider-scope.ts)
    const once = new WiderScope();
    const listed = (p: PageState | PageTimelineDto) => {
      const d = dto(p);
      if (view === 'keys') return d;
      return view === 'summary'
        ? once.summary(d as PageTimelineSummaryDto)
        : once.page(d as PageTimelineDto);
    };
    // the bytes res.json would send for { pages, total, verdicts } (a TimelineListDto), as a stream
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    await streamBody(
      res,
      objectWithList(
        'pages',
        mapped(kept, (p) => JSON.stringify(listed(p))),
        { total, verdicts },
      ),
      slicer,
    );
  });

  /** GET /_sandbox/timelines/:pageLoadId[?siteId=] — one page with its events and findings */
  mount(router, 'timeline', (req, res, q) => {
    const pageLoadId = String(req.params.pageLoadId);
    const found = timelines.find(pageLoadId, q.siteId);
    if (found.length === 0) {
      res.status(404).json({
        error: 'NotFound',
        message: `no timeline for pageLoadId "${pageLoadId}"${q.siteId ? ` on site ${q.siteId}` : ''}`,
      });
      return;
    }
    if (found.length > 1) {
      const sites = found.map((p) => p.siteId).join(', ');
      res.status(409).json({
        error: 'Ambiguous',
        message: `pageLoadId "${pageLoadId}" exists on sites ${sites}: add ?siteId=`,
      });
      return;
    }
    res.json(timelines.pageDto(found[0]!));
  });

  /** GET /_sandbox/report?format=json|junit|html[&failOn=error|warning] (+ the list's filters) */
  mount(router, 'report', async (_req, res, q) => {
    const { format = 'json', failOn = 'error', ...rest } = q;
    const slicer = new Slicer();
    // each page's DTO is made in its turn, the loop given back between slices (100,000 events' worth)
    // every page judged as if it has ended, as reports, expectClean and check judge it; the verdict
    // filter sees that verdict
    const { verdict, ...filter } = rest;
    const now = clock.now();
    if (format === 'json') {
      // Streamed from its first byte: the head goes out at once, the verdict totals once every page is
      // counted (no DTO built), then each page's DTO as it is written (a million stored events never
      // hold 100,000 DTOs at once). The bytes are JSON.stringify(jsonReport(…))'s; a page that changes
      // while the report is written is written as it then is.
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      const [beforeVerdicts, afterVerdicts] = jsonReportHead('sandbox', now);
      res.write(beforeVerdicts);
      const chosen: PageState[] = [];
      const verdicts: Record<Verdict, number> = { pass: 0, warn: 0, fail: 0 };
      for (const page of timelines.matchingSteps(filter, true)) {
        if (page === null) {
          await slicer.breathe();
          continue;
        }
        if (res.destroyed) return; // the client went away: nothing more to count
        const v = timelines.finishedVerdict(page);
        if (verdict === undefined || v === verdict) {
          chosen.push(page);
          verdicts[v]++;
        }
        await slicer.breathe();
      }
      const dtos = function* () {
        for (const page of chosen) yield timelines.finishedDto(page);
      };
      await streamBody(res, jsonReportRest(verdicts, afterVerdicts, dtos()), slicer);
      return;
    }
    // each page built once and kept as its written piece until the head's totals are known (report-pages.ts)
    const choice = { filter, verdict, gone: () => res.destroyed };
    const parts =
      format === 'junit'
        ? await junitPages(timelines, choice, { name: 'sandbox', now, failOn }, slicer)
        : await htmlPages(timelines, choice, { name: 'sandbox', now }, slicer);
    if (parts === null) return; // the client went away
    const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
    const [type, ext] = format === 'junit' ? ['application/xml', 'xml'] : ['text/html', 'html'];
    res.setHeader('Content-Type', `${type}; charset=utf-8`);
    res.setHeader('Content-Disposition', `inline; filename="timelines-${stamp}.${ext}"`);
    await streamBody(res, parts, slicer);
  });

  return router;
}
