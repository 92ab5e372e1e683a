// Admin API over beacon timelines: the page list with filters, one page, and the report (json, junit, html).
// Thin: the query is checked by the declaration, the timelines' reads (timeline-reads.ts) plan and judge,
// the route writes the answer.
import { Router } from 'express';
import type { SandboxClock } from '../../clock';
import type { TimelineEngine } from '../../tracking/timeline/engine';
import { listTimelines, oneTimeline, timelineReport } from '../../tracking/timeline/timeline-reads';
import { mount } from '../admin-query';
import { clipped, shown } from '../../../shared/text';
import { Slicer } from '../../slices';
import { streamBody } from '../stream-body';

export const DEFAULT_TIMELINE_LIMIT = 500;

export function adminTimelinesRouter(timelines: TimelineEngine, clock: SandboxClock): Router {
  const router = Router();

  /** GET /_sandbox/timelines?siteId&verdict&sessionId&pageLoadId&q&kind&event&rule&limit&view=full|summary|keys */
  mount(router, 'timelines', async (_req, res, q) => {
    const { limit = DEFAULT_TIMELINE_LIMIT, view = 'full', ...filter } = q;
    const slicer = new Slicer();
    const body = await listTimelines(timelines, { ...filter, limit, view }, slicer);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    await streamBody(res, body, slicer);
  });

  /** GET /_sandbox/timelines/:pageLoadId[?siteId=] — one page with its events and findings */
  mount(router, 'timeline', (req, res, q) => {
    const pageLoadId = String(req.params.pageLoadId);
    const found = oneTimeline(timelines, pageLoadId, q.siteId);
    if ('page' in found) return void res.json(found.page);
    if (found.sites.length === 0)
      return void res.status(404).json({
        error: 'NotFound',
        message: `no timeline for pageLoadId ${shown(pageLoadId)}${q.siteId ? ` on site ${clipped(q.siteId)}` : ''}`,
      });
    // several pages of one site: pageLoadIds with unpaired surrogates, which a URL carries as U+FFFD
    const message =
      q.siteId !== undefined
        ? `${found.sites.length} pageLoadIds of site ${q.siteId} read ${shown(pageLoadId)} once their unpaired surrogates are replaced by U+FFFD, so a URL cannot tell them apart: find the one you want in GET /_sandbox/timelines?siteId=${q.siteId} (the storefront sent pageLoadIds that are not well-formed text)`
        : `pageLoadId ${shown(pageLoadId)} exists on sites ${found.sites.join(', ')}: add ?siteId=`;
    res.status(409).json({ error: 'Ambiguous', message });
  });

  /** GET /_sandbox/report?format=json|junit|html[&failOn=error|warning] (+ the list's filters) */
  mount(router, 'report', async (_req, res, q) => {
    const { format = 'json', failOn = 'error', verdict, ...filter } = q;
    const slicer = new Slicer();
    const choice = { filter, verdict, gone: () => res.destroyed };
    const report = timelineReport(
      timelines,
      { ...choice, format, failOn, name: 'sandbox', now: clock.now() },
      slicer,
    );
    res.setHeader('Content-Type', `${report.mediaType}; charset=utf-8`);
    if (report.fileName)
      res.setHeader('Content-Disposition', `inline; filename="${report.fileName}"`);
    if (report.head) res.write(report.head);
    const rest = await report.rest();
    if (rest !== null) await streamBody(res, rest, slicer);
  });

  return router;
}
