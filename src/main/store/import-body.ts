// Reading an import body (`POST /_sandbox/import`, up to 250 MB) off the event loop: a worker thread
// (import-worker-main.ts) decodes and parses the text and checks every event, then hands the events over
// in batches as the import asks for them, so the sandbox keeps answering beacons while a large export is
// read back in, and never holds the whole body's events at once: holding 100,000 parsed events until the
// last was stored kept some 400 MB of them alive, which every major collection had to mark while the
// beacons waited.
import type { Readable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import { startWorkerModule } from '../base/worker-module';
import type { EventDraft } from './types';
import { readImportText, utf8Problem, type ImportRead } from './import-text';
import { decodeText, utf16Of } from '../base/utf16';
import { notUtf8At } from '../base/utf8';
import type { ReaderData, ReaderMessage } from './import-worker-main';

export type { ImportRead } from './import-text';

/** A large body read and checked by the worker: its sections, and its events as they are asked for. */
export interface CheckedImport {
  sections: Record<string, unknown>;
  count: number;
  /** the events in order, in batches, each taken from the reader when the previous one is used */
  drafts: AsyncIterable<EventDraft[]>;
  /** stop the reader; the batches not taken are dropped */
  close(): void;
}

/** Read a small body (or one an earlier parser already turned into text) right here. */
export function readImportBodyHere(text: string): ImportRead {
  return readImportText(text);
}

/** Bodies below this are read on the loop: a worker's start costs more than their parse. */
const WORKER_FROM_BYTES = 256 * 1024;

/** A chunk as the worker can take it: handed over when it owns its memory, else a copy (small ones share a pool). */
function transferable(chunk: Uint8Array): { data: Uint8Array; transfer: ArrayBuffer[] } {
  const own = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength;
  return own && chunk.buffer instanceof ArrayBuffer
    ? { data: chunk, transfer: [chunk.buffer] }
    : { data: chunk.slice(), transfer: [] };
}

/**
 * Read an import body (UTF-8, or UTF-16 when its first bytes say so): its bytes at once, or as they arrive
 * (a request). Large bodies are decoded, parsed and checked in a worker thread, fed chunk by chunk, and come
 * back checked (`checked`); small ones as their value, to be checked by the caller (parseImport). Never
 * rejects for a bad body; `tooLarge` once more than `limit` bytes arrived (the rest is not read; the caller
 * answers and closes).
 */
export async function readImportBody(
  source: Uint8Array | Readable,
  limit = Infinity,
): Promise<ImportRead | { checked: CheckedImport } | { tooLarge: true }> {
  // stopping early (too large) leaves a request open, so that it can still be answered
  const chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array> =
    source instanceof Uint8Array ? [source] : source.iterator({ destroyOnReturn: false });
  const held: Uint8Array[] = [];
  let size = 0;
  let reader: WorkerReader | null = null;
  try {
    for await (const chunk of chunks) {
      size += chunk.byteLength;
      if (size > limit) {
        reader?.close();
        return { tooLarge: true };
      }
      if (reader) reader.feed(chunk);
      else {
        held.push(chunk);
        if (size >= WORKER_FROM_BYTES) reader = new WorkerReader(held.splice(0));
      }
    }
  } catch (err) {
    reader?.close();
    return { problems: [`the body could not be read (${(err as Error).message})`] };
  }
  // UTF-8, or UTF-16 when its first bytes say so (a file saved by PowerShell's `>`)
  if (!reader) {
    const bytes = Buffer.concat(held, size);
    const notUtf8 = utf16Of(bytes) === null ? notUtf8At(bytes) : null;
    if (notUtf8 !== null) return { problems: [utf8Problem(notUtf8)] };
    return readImportBodyHere(decodeText(bytes));
  }
  return reader.finish();
}

/**
 * The worker reading one body: fed chunks, then told the end; answers with the problems or the checked
 * import. It hands over the next batch of events only when asked (a flag in shared memory): messages
 * waiting on a port are all taken in one turn of the loop, and a batch taken must be used before the next.
 */
class WorkerReader {
  private readonly worker: Worker;
  private readonly asked = new Int32Array(new SharedArrayBuffer(4));
  private readonly inbox: ReaderMessage[] = [];
  private wake: (() => void) | null = null;
  private failure: string | null = null;
  private closed = false;

  constructor(first: Uint8Array[]) {
    const parts = first.map(transferable);
    this.worker = startWorkerModule('import-worker-main', import.meta.url, {
      workerData: {
        chunks: parts.map((p) => p.data),
        asked: this.asked.buffer as SharedArrayBuffer,
      } satisfies ReaderData,
      transferList: parts.flatMap((p) => p.transfer),
    });
    this.worker.on('message', (m: ReaderMessage) => {
      this.inbox.push(m);
      this.wake?.();
    });
    const fail = (why: string) => {
      if (this.closed || this.failure) return;
      this.failure = `the body could not be read (${why})`;
      this.wake?.();
    };
    this.worker.on('error', (err) => fail(err.message));
    this.worker.on('exit', (code) => fail(`its reader stopped with code ${code}`));
  }

  feed(chunk: Uint8Array): void {
    const { data, transfer } = transferable(chunk);
    this.worker.postMessage({ chunk: data }, transfer);
  }

  async finish(): Promise<ImportRead | { checked: CheckedImport }> {
    this.worker.postMessage({ end: true });
    const m = await this.next();
    if (m.kind !== 'checked') {
      this.close();
      return { problems: m.kind === 'problems' ? m.problems : ['the body could not be read'] };
    }
    return {
      checked: {
        sections: m.sections,
        count: m.count,
        drafts: this.drafts(),
        close: () => this.close(),
      },
    };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    // out of its wait, if it is in one, so that it stops
    this.ask();
    void this.worker.terminate();
    this.wake?.();
  }

  /** The batches in order: the next is asked for as one is handed on, so it is under way while that one is used. */
  private async *drafts(): AsyncGenerator<EventDraft[]> {
    try {
      this.ask();
      for (;;) {
        const m = await this.next();
        if (m.kind === 'end') return;
        if (m.kind === 'problems') throw new Error(m.problems[0]);
        if (m.kind !== 'drafts') continue;
        this.ask();
        yield m.batch;
      }
    } finally {
      this.close();
    }
  }

  private ask(): void {
    Atomics.store(this.asked, 0, 1);
    Atomics.notify(this.asked, 0);
  }

  /** The reader's next message; its failure (as problems) once it has none left. */
  private async next(): Promise<ReaderMessage> {
    while (this.inbox.length === 0) {
      if (this.failure) return { kind: 'problems', problems: [this.failure] };
      if (this.closed)
        return {
          kind: 'problems',
          problems: ['the body could not be read (its reader was closed)'],
        };
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
    return this.inbox.shift()!;
  }
}
