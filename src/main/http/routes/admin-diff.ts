// POST /_sandbox/diff: an uploaded recording (BASE) against the sandbox's recorded traffic (CURRENT), for
// the UI's Compare view. Thin: bound and read the body, ask the baselines area, answer its comparison.
import { Router, type Response } from 'express';
import { readBody } from '../body-reader';
import type { BaselinesService } from '../../baseline/upload';
import { mount } from '../admin-query';

/** the largest recording compared; a journey's recording is kilobytes */
export const DIFF_LIMIT_BYTES = 10 * 1024 * 1024;

const TOO_LARGE = `request entity too large: a recording to compare may have at most ${DIFF_LIMIT_BYTES / 1024 / 1024} MB (export one session or site: GET /_sandbox/export?sessionId=…)`;

function tooLarge(res: Response): void {
  res.setHeader('Connection', 'close');
  res.status(413).json({ error: 'RequestTooLarge', message: TOO_LARGE });
}

export function adminDiffRouter(baselines: BaselinesService): Router {
  const router = Router();
  mount(
    router,
    'diff',
    async (req, res, q) => {
      // the beacon endpoints' reader: refused at once on a Content-Length over the cap, the rest drained
      const read = await readBody(req, DIFF_LIMIT_BYTES);
      if (read.tooLarge) return tooLarge(res);
      const text = read.body?.toString('utf8') ?? '';
      if (text.trim() === '')
        return void res.status(400).json({
          error: 'InvalidRecording',
          message:
            'no recording in the body: send NDJSON of events, a sandbox export, a HAR or a baseline file as BASE',
        });
      const diff = await baselines.diff(read.body!, q);
      if (typeof diff === 'string')
        return void res.status(400).json({ error: 'InvalidRecording', message: diff });
      res.json(diff);
    },
    // a recording (NDJSON, an export, a HAR, a baseline), read by the recordings reader
    { body: 'own' },
  );
  return router;
}
