// GET /_sandbox/readiness?siteId=: the site's integration readiness, read from the timelines as judged now
// (src/main/tracking/timeline/readiness.ts). Thin: the declaration checks the siteId (required, the beacon
// path's rule), the tracking domain says whether the sandbox knows the site, the timelines' reads answer.
import { Router } from 'express';
import type { TimelineEngine } from '../../tracking/timeline/engine';
import type { SandboxAccount } from '../../config';
import { siteReadiness } from '../../tracking/timeline/timeline-reads';
import { knownReadinessSite } from '../../tracking/timeline/readiness-config';
import { mount } from '../admin-query';
import { Slicer } from '../../slices';

export function adminReadinessRouter(
  timelines: TimelineEngine,
  accounts: () => readonly SandboxAccount[],
  /** whether beacons of a siteId were recorded (and are still kept) */
  sentBy: (siteId: string) => boolean,
): Router {
  const router = Router();
  mount(
    router,
    'readiness',
    async (_req, res, { siteId, finished }) => {
      const account = knownReadinessSite(siteId, accounts(), sentBy);
      res.json(await siteReadiness(timelines, siteId, account, new Slicer(), finished === true));
    },
    // a siteId's refusals name the config's sites
    { bounds: () => ({ sites: accounts().map((a) => a.siteId) }) },
  );
  return router;
}
