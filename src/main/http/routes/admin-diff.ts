// POST /_sandbox/diff: an uploaded recording (BASE) against the sandbox's recorded traffic (CURRENT), for
// the UI's Compare view. Thin: the body comes read (and bounded) by the declaration; ask the baselines
// area, answer its comparison.
import { Router } from 'express';
import type { BaselinesService } from '../../baseline/upload';
import { mount } from '../admin-query';

export function adminDiffRouter(baselines: BaselinesService): Router {
  const router = Router();
  // the body: a recording (NDJSON, an export, a HAR, a baseline) within the declared cap, as bytes
  mount(router, 'diff', async (_req, res, q, recording) => {
    if (recording === null || recording.toString('utf8').trim() === '')
      return void res.status(400).json({
        error: 'InvalidRecording',
        message:
          'no recording in the body: send NDJSON of events, a sandbox export, a HAR or a baseline file as BASE',
      });
    const diff = await baselines.diff(recording, q);
    if ('refused' in diff)
      return void res.status(400).json({ error: diff.refused, message: diff.message });
    res.json(diff);
  });
  return router;
}
