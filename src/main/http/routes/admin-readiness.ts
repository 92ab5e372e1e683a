// GET /_sandbox/readiness?siteId=: the site's integration readiness, read from the timelines as judged now
// (src/main/tracking/timeline/readiness.ts). Thin: check the query, read in slices, answer.
import { Router } from 'express';
import type { TimelineEngine } from '../../tracking/timeline/engine';
import type { SandboxAccount } from '../../config';
import { readinessSiteOf } from '../../tracking/timeline/readiness-config';
import { mount } from '../admin-query';
import { Slicer } from '../../slices';

export function adminReadinessRouter(
  timelines: TimelineEngine,
  accounts: () => readonly SandboxAccount[],
): Router {
  const router = Router();
  mount(router, 'readiness', async (_req, res, q) => {
    if (q.siteId === undefined || q.siteId === '') {
      res.status(400).json({
        error: 'BadRequest',
        message:
          'siteId is required: readiness is per site, e.g. GET /_sandbox/readiness?siteId=demo42',
      });
      return;
    }
    const siteId = q.siteId;
    const site = readinessSiteOf(
      siteId,
      accounts().find((a) => a.siteId === siteId),
    );
    const slicer = new Slicer();
    const steps = timelines.readinessSteps(site);
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) {
        res.json(step.value);
        return;
      }
      await slicer.breathe();
    }
  });
  return router;
}
