// Admin API over beacon timelines: the page list with filters, one page, and the report (json, junit, html).
// Thin: parse and check the query, ask core.timelines, shape the answer.
import { Router, type Request, type Response } from 'express';
import type { SandboxCore } from '../../core';
import type { TimelineFilter } from '../../tracking/timeline/engine';
import { pageDto, pageSummary, summaryOf, verdictOf } from '../../tracking/timeline/dto';
import {
  FAIL_ON,
  htmlReportParts,
  jsonReportParts,
  junitReportParts,
  type FailOn,
} from '../../tracking/timeline/report';
import { Slicer } from '../../slices';
import { concat, mapped, streamBody } from '../stream-body';
import type { PageTimelineDto, Verdict } from '../../../shared/timeline';
import type { PageState } from '../../tracking/timeline/model';
import { isResponseKind, RESPONSE_KINDS } from '../../../shared/kinds';

const VERDICTS = ['pass', 'warn', 'fail'] as const;
const FILTERS = ['siteId', 'verdict', 'sessionId', 'pageLoadId', 'q', 'kind'] as const;
export const DEFAULT_TIMELINE_LIMIT = 500;
const MAX_LIMIT = 100_000;

class BadParameter extends Error {
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
  }
}

function one(req: Request, name: string): string | undefined {
  const v = req.query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string')
    throw new BadParameter(name, `${name} was given more than once: give it once`);
  return v;
}

function parse(
  req: Request,
  allowed: readonly string[],
): TimelineFilter & { limit?: number; view?: string; format?: string; finished?: boolean } {
  for (const key of Object.keys(req.query)) {
    if (!allowed.includes(key))
      throw new BadParameter(
        key,
        `unknown query parameter "${key}"; allowed: ${allowed.join(', ')}`,
      );
  }
  const out: TimelineFilter & {
    limit?: number;
    view?: string;
    format?: string;
    finished?: boolean;
  } = {};
  for (const name of ['siteId', 'sessionId', 'pageLoadId', 'q'] as const) {
    const v = one(req, name);
    if (v !== undefined) out[name] = v;
  }
  const verdict = one(req, 'verdict');
  if (verdict !== undefined) {
    if (!(VERDICTS as readonly string[]).includes(verdict))
      throw new BadParameter('verdict', `verdict "${verdict}" is not one of pass, warn, fail`);
    out.verdict = verdict as Verdict;
  }
  const kind = one(req, 'kind');
  if (kind !== undefined) {
    if (!isResponseKind(kind))
      throw new BadParameter(
        'kind',
        `kind "${kind}" is not a kind of response timelines hold: use one of ${RESPONSE_KINDS.join(', ')}`,
      );
    out.kind = kind;
  }
  const limit = one(req, 'limit');
  if (limit !== undefined) {
    if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > MAX_LIMIT) {
      throw new BadParameter(
        'limit',
        `limit "${limit}" must be a whole number from 1 to ${MAX_LIMIT}`,
      );
    }
    out.limit = Number(limit);
  }
  const view = one(req, 'view');
  if (view !== undefined) {
    if (view !== 'full' && view !== 'summary')
      throw new BadParameter('view', `view "${view}" must be full (pages with events) or summary`);
    out.view = view;
  }
  const format = one(req, 'format');
  if (format !== undefined) out.format = format;
  const finished = one(req, 'finished');
  if (finished !== undefined) {
    if (!['1', 'true', '0', 'false'].includes(finished))
      throw new BadParameter(
        'finished',
        `finished "${finished}" must be true (judge every page as if it has ended, as reports do) or false`,
      );
    out.finished = finished === '1' || finished === 'true';
  }
  return out;
}

function badRequest(res: Response, err: unknown): void {
  if (err instanceof BadParameter) {
    res.status(400).json({ error: 'BadRequest', parameter: err.parameter, message: err.message });
    return;
  }
  throw err;
}

export function adminTimelinesRouter(core: SandboxCore): Router {
  const router = Router();

  /** GET /_sandbox/timelines?siteId&verdict&sessionId&pageLoadId&q&kind&limit&view=full|summary */
  router.get('/timelines', async (req, res) => {
    let q: ReturnType<typeof parse>;
    try {
      q = parse(req, [...FILTERS, 'limit', 'view', 'finished']);
    } catch (err) {
      badRequest(res, err);
      return;
    }
    const { verdict, limit = DEFAULT_TIMELINE_LIMIT, view = 'full', finished, ...rest } = q;
    // verdict totals ignore the verdict filter, so a UI can show all three tabs at once; every page is
    // judged on the way (all of them after a catalog change), so the loop is given back between slices
    const slicer = new Slicer();
    const verdicts: Record<Verdict, number> = { pass: 0, warn: 0, fail: 0 };
    const chosen: Array<PageState | PageTimelineDto> = [];
    for (const page of core.timelines.matching(rest)) {
      // judged as finished (expectClean): the verdict is the finished page's
      const judged = finished ? core.timelines.finishedDto(page) : page;
      const v = finished ? (judged as PageTimelineDto).verdict : verdictOf(page);
      verdicts[v]++;
      if (verdict === undefined || v === verdict) chosen.push(judged);
      await slicer.breathe();
    }
    const kept = chosen.slice(Math.max(0, chosen.length - limit));
    const dto = (p: PageState | PageTimelineDto) =>
      'tallies' in p
        ? view === 'summary'
          ? pageSummary(p)
          : pageDto(p)
        : view === 'summary'
          ? summaryOf(p)
          : p;
    // the bytes res.json would send for { pages, total, verdicts } (a TimelineListDto), as a stream
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    await streamBody(
      res,
      concat(
        '{"pages":[',
        mapped(kept, (p, i) => `${i ? ',' : ''}${JSON.stringify(dto(p))}`),
        `],${JSON.stringify({ total: chosen.length, verdicts }).slice(1)}`,
      ),
      slicer,
    );
  });

  /** GET /_sandbox/timelines/:pageLoadId[?siteId=] — one page with its events and findings */
  router.get('/timelines/:pageLoadId', (req, res) => {
    try {
      const q = parse(req, ['siteId']);
      const pageLoadId = String(req.params.pageLoadId);
      const found = core.timelines.find(pageLoadId, q.siteId);
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
      res.json(pageDto(found[0]!));
    } catch (err) {
      badRequest(res, err);
    }
  });

  /** GET /_sandbox/report?format=json|junit|html[&failOn=error|warning] (+ the list's filters) */
  router.get('/report', async (req, res) => {
    let q: ReturnType<typeof parse>;
    let failOn: FailOn;
    try {
      q = parse(req, [...FILTERS, 'format', 'failOn']);
      if (!['json', 'junit', 'html'].includes(q.format ?? 'json'))
        throw new BadParameter('format', `format "${q.format}" must be json, junit or html`);
      failOn = (one(req, 'failOn') ?? 'error') as FailOn;
      if (!FAIL_ON.includes(failOn))
        throw new BadParameter(
          'failOn',
          `failOn "${failOn}" must be error or warning (warning: pages with warnings fail the JUnit report too)`,
        );
    } catch (err) {
      badRequest(res, err);
      return;
    }
    const format = q.format ?? 'json';
    const slicer = new Slicer();
    // each page's DTO is made in its turn, the loop given back between slices (100,000 events' worth)
    // every page judged as if it has ended (CONTRACT.md "Strictness"); the verdict filter sees that verdict
    const { verdict, ...filter } = q;
    const pages: PageTimelineDto[] = [];
    for (const page of core.timelines.matching(filter)) {
      const dto = core.timelines.finishedDto(page);
      if (verdict === undefined || dto.verdict === verdict) pages.push(dto);
      await slicer.breathe();
    }
    const now = core.clock.now();
    const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
    if (format === 'json') {
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      await streamBody(res, jsonReportParts(pages, 'sandbox', now), slicer);
    } else if (format === 'junit') {
      res.setHeader('Content-Type', 'application/xml; charset=utf-8');
      res.setHeader('Content-Disposition', `inline; filename="timelines-${stamp}.xml"`);
      await streamBody(res, junitReportParts(pages, 'sandbox', now, failOn), slicer);
    } else {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.setHeader('Content-Disposition', `inline; filename="timelines-${stamp}.html"`);
      await streamBody(res, htmlReportParts(pages, 'sandbox', now), slicer);
    }
  });

  return router;
}
