// GET /_sandbox/readiness?siteId=: the site's integration readiness, read from the timelines as judged now
// (src/main/tracking/timeline/readiness.ts). Thin: check the query, ask the timelines' reads, answer.
import { Router } from 'express';
import type { TimelineEngine } from '../../tracking/timeline/engine';
import type { SandboxAccount } from '../../config';
import { siteReadiness } from '../../tracking/timeline/timeline-reads';
import { BadQuery, mount } from '../admin-query';
import { Slicer } from '../../slices';
import { SITE_ID_PATTERN } from '../../../shared/site-id';
import { shown } from '../../../shared/text';

export function adminReadinessRouter(
  timelines: TimelineEngine,
  accounts: () => readonly SandboxAccount[],
): Router {
  const router = Router();
  mount(router, 'readiness', async (_req, res, q) => {
    // the example a message gives: the config's first site, which a user can ask for as it is
    const example = `e.g. GET /_sandbox/readiness?siteId=${accounts()[0]?.siteId ?? 'demo42'}`;
    if (q.siteId === undefined || q.siteId === '') {
      throw new BadQuery(
        'siteId',
        `query parameter siteId is required: readiness is per site, ${example}`,
      );
    }
    // a siteId the beacon path refuses never sent anything a timeline holds: no readiness to report
    if (!SITE_ID_PATTERN.test(q.siteId)) {
      throw new BadQuery(
        'siteId',
        `query parameter siteId must be six lowercase letters or digits (${SITE_ID_PATTERN.source}, the rule of the beacon path's siteId), got ${shown(q.siteId)}: no beacon can be sent for it; use a configured site's siteId, ${example}`,
      );
    }
    const account = accounts().find((a) => a.siteId === q.siteId);
    res.json(await siteReadiness(timelines, q.siteId, account, new Slicer()));
  });
  return router;
}
