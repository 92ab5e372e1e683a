// Large beacon bodies are judged in a worker thread: parsing 1 MB of `{},` (340,000 objects) takes the
// event loop ~50 ms, and a page can send such bodies in a loop while the storefront's own beacons wait.
// One worker per process, started on the first large body and kept (idle, it does not keep the process
// alive). When it cannot run (it failed to start three times, or died mid-job) the body is judged on the
// loop as before: slower, never wrong.
import type { Worker } from 'node:worker_threads';
import { startWorkerModule } from '../base/worker-module';
import type { BodyVerdict } from './body-verdict';
import type { BodyJob } from './body-worker-main';

/** Bodies of at least this many characters go to the worker; smaller ones cost less than the hop. */
export const WORKER_FROM_CHARS = 65_536;

type Reply = { id: number; verdict: BodyVerdict } | { id: number; failed: string };

class BodyWorker {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, (v: BodyVerdict | null) => void>();
  private failures = 0;
  /** jobs the worker answered (tests and the bench see that it ran) */
  judged = 0;

  judge(endpoint: string, text: string): Promise<BodyVerdict | null> {
    const worker = this.start();
    if (!worker) return Promise.resolve(null);
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ id, endpoint, text } satisfies BodyJob);
    });
  }

  private start(): Worker | null {
    if (this.worker) return this.worker;
    if (this.failures >= 3) return null;
    let worker: Worker;
    try {
      worker = startWorkerModule('body-worker-main', import.meta.url);
    } catch {
      this.failures++;
      return null;
    }
    worker.unref();
    worker.on('message', (m: Reply) => {
      const resolve = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (this.pending.size === 0) worker.unref();
      if ('verdict' in m) this.judged++;
      resolve?.('verdict' in m ? m.verdict : null);
    });
    const down = () => {
      if (this.worker !== worker) return;
      this.failures++;
      this.worker = null;
      for (const resolve of this.pending.values()) resolve(null);
      this.pending.clear();
    };
    worker.on('error', down);
    worker.on('exit', down);
    this.worker = worker;
    return worker;
  }
}

const shared = new BodyWorker();

/** The verdict on a large body's text, judged off the event loop; null when the worker cannot run. */
export function judgeOffLoop(endpoint: string, text: string): Promise<BodyVerdict | null> {
  return shared.judge(endpoint, text);
}

/** How many bodies the worker has judged in this process. */
export function judgedOffLoop(): number {
  return shared.judged;
}
