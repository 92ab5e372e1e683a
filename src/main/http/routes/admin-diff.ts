// POST /_sandbox/diff: an uploaded recording (BASE) against the sandbox's recorded traffic (CURRENT), for
// the UI's Compare view. Thin: the body comes read (and bounded) by the declaration; ask the baseline
// module, answer its comparison.
import { Router } from 'express';
import type { EventStore } from '../../store/types';
import { mount } from '../admin-query';
import { diffWithRecorded, readUpload } from '../../baseline/upload';

export function adminDiffRouter(events: Pick<EventStore, 'select'>): Router {
  const router = Router();
  // the body: a recording (NDJSON, an export, a HAR, a baseline) within the declared cap, as bytes
  mount(router, 'diff', async (_req, res, q, recording) => {
    if (recording === null || recording.toString('utf8').trim() === '')
      return void res.status(400).json({
        error: 'InvalidRecording',
        message:
          'no recording in the body: send NDJSON of events, a sandbox export, a HAR or a baseline file as BASE',
      });
    const base = await readUpload(recording);
    if (typeof base === 'string')
      return void res.status(400).json({ error: 'InvalidRecording', message: base });
    res.json(await diffWithRecorded(base, events.select(q)));
  });
  return router;
}
