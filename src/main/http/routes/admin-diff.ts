// POST /_sandbox/diff: an uploaded recording (BASE) against the sandbox's recorded traffic (CURRENT), for
// the UI's Compare view. Thin: bound and read the body, ask the baseline module, answer its comparison.
import { Router, type Request, type Response } from 'express';
import type { EventStore } from '../../store/types';
import { mount } from '../admin-query';
import { diffWithRecorded, readUpload } from '../../baseline/upload';

/** the largest recording compared; a journey's recording is kilobytes */
export const DIFF_LIMIT_BYTES = 10 * 1024 * 1024;

const TOO_LARGE = `request entity too large: a recording to compare may have at most ${DIFF_LIMIT_BYTES / 1024 / 1024} MB (export one session or site: GET /_sandbox/export?sessionId=…)`;

/** The body as text, or null once it passed the cap (the rest is not read). */
async function bodyText(req: Request): Promise<string | null> {
  if (typeof req.body === 'string') return req.body;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > DIFF_LIMIT_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(req: Request, res: Response): void {
  res.setHeader('Connection', 'close');
  req.resume();
  res.status(413).json({ error: 'RequestTooLarge', message: TOO_LARGE });
}

export function adminDiffRouter(events: Pick<EventStore, 'select'>): Router {
  const router = Router();
  mount(router, 'diff', async (req, res, q) => {
    if (Number(req.headers['content-length']) > DIFF_LIMIT_BYTES) return tooLarge(req, res);
    const text = await bodyText(req);
    if (text === null) return tooLarge(req, res);
    if (text.trim() === '')
      return void res.status(400).json({
        error: 'InvalidRecording',
        message:
          'no recording in the body: send NDJSON of events, a sandbox export, a HAR or a baseline file as BASE',
      });
    const base = readUpload(text);
    if (typeof base === 'string')
      return void res.status(400).json({ error: 'InvalidRecording', message: base });
    res.json(await diffWithRecorded(base, events.select(q)));
  });
  return router;
}
