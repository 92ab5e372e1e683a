// The body worker's thread: judges the text of large beacon bodies (parse + schema) off the event loop
// and answers with the verdict only (src/main/tracking/body-worker.ts starts it).
import { parentPort } from 'node:worker_threads';
import { judgeBodyText } from './body-verdict';

export interface BodyJob {
  id: number;
  endpoint: string;
  text: string;
}

parentPort?.on('message', (job: BodyJob) => {
  let reply;
  try {
    reply = { id: job.id, verdict: judgeBodyText(job.endpoint, job.text).verdict };
  } catch (err) {
    reply = { id: job.id, failed: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply);
});
