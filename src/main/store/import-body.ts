// Reading an import body (`POST /_sandbox/import`, up to 250 MB) off the event loop: a worker thread
// decodes and parses the text (one JSON document, or NDJSON) and hands the events back in batches, each a
// small message, so the sandbox keeps answering beacons while a large export is read back in.
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';

/** What the reader posts: the document (its event list emptied), then its events in batches, then the end. */
type ImportMessage =
  | { kind: 'problems'; problems: string[] }
  | { kind: 'value'; value: unknown; events: 'array' | 'field' | null }
  | { kind: 'events'; batch: unknown[] }
  | { kind: 'end' };

/**
 * The body as text: one JSON document (an export or an array of events), or NDJSON with one event per
 * line, such as a data directory's events.ndjson (its header and reset lines are skipped).
 * Self-contained on purpose: its source is what the worker runs (no imports, no outer names).
 */
function readImportText(text: string, post: (message: ImportMessage) => void): void {
  const MAX_PROBLEMS = 20;
  const BATCH = 500;
  const sendEvents = (events: unknown[]) => {
    for (let i = 0; i < events.length; i += BATCH)
      post({ kind: 'events', batch: events.slice(i, i + BATCH) });
  };
  const trimmed = text.trim();
  if (trimmed === '') {
    post({
      kind: 'problems',
      problems: ['the body is empty: send a file saved by GET /_sandbox/export'],
    });
    return;
  }
  let value: unknown;
  let parsed = false;
  try {
    value = JSON.parse(trimmed);
    parsed = true;
  } catch (err) {
    if (!trimmed.includes('\n')) {
      post({
        kind: 'problems',
        problems: [`the body is not valid JSON (${(err as Error).message})`],
      });
      return;
    }
  }
  if (parsed) {
    if (Array.isArray(value)) {
      post({ kind: 'value', value: [], events: 'array' });
      sendEvents(value);
    } else if (
      value &&
      typeof value === 'object' &&
      Array.isArray((value as { events?: unknown }).events)
    ) {
      const events = (value as { events: unknown[] }).events;
      post({ kind: 'value', value: { ...value, events: [] }, events: 'field' });
      sendEvents(events);
    } else {
      post({ kind: 'value', value, events: null });
    }
    post({ kind: 'end' });
    return;
  }
  const events: unknown[] = [];
  const problems: string[] = [];
  trimmed.split('\n').forEach((line, i) => {
    if (line.trim() === '' || problems.length >= MAX_PROBLEMS) return;
    try {
      const v: unknown = JSON.parse(line);
      const journalLine = v && typeof v === 'object' && ('journal' in v || 'reset' in v);
      if (!journalLine) events.push(v);
    } catch (err) {
      problems.push(
        `line ${i + 1}: not valid JSON (${(err as Error).message}); the body is neither one JSON document nor NDJSON`,
      );
    }
  });
  if (problems.length) {
    post({ kind: 'problems', problems });
    return;
  }
  post({ kind: 'value', value: [], events: 'array' });
  sendEvents(events);
  post({ kind: 'end' });
}

// The body's bytes stream into the worker as they arrive (each chunk handed over, not copied, when it owns
// its memory), so the loop never holds the whole body: joining 70 MB held it for ~100 ms on a slow machine.
// Messages waiting on a port are all taken in one turn of the loop: the worker sends the next batch only
// once the main thread took the last one and had a turn of its loop (a flag in shared memory says so).
// (`__name`: the helper esbuild adds around named functions when it keeps names, as tsx does)
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const __name = (f) => f;
const read = ${readImportText.toString()};
const taken = new Int32Array(workerData.taken);
const decoder = new TextDecoder();
const parts = workerData.chunks.map((c) => decoder.decode(c, { stream: true }));
parentPort.on('message', (m) => {
  if (m.chunk) return void parts.push(decoder.decode(m.chunk, { stream: true }));
  parentPort.removeAllListeners('message');
  parts.push(decoder.decode());
  read(parts.join(''), (message) => {
    parentPort.postMessage(message);
    if (message.kind !== 'events') return;
    Atomics.wait(taken, 0, 0);
    Atomics.store(taken, 0, 0);
  });
});
`;

/** Puts the batches back into the document as they come: its event list, or the array itself. */
class Assembler {
  private value: unknown;
  private list: unknown[] | null = null;
  private problems: string[] | null = null;

  /** true once the reader has said all it will say */
  take(m: ImportMessage): boolean {
    if (m.kind === 'problems') {
      this.problems = m.problems;
      return true;
    }
    if (m.kind === 'value') {
      this.value = m.value;
      this.list =
        m.events === 'array'
          ? (m.value as unknown[])
          : m.events === 'field'
            ? (m.value as { events: unknown[] }).events
            : null;
    } else if (m.kind === 'events') {
      for (const item of m.batch) this.list!.push(item);
    }
    return m.kind === 'end';
  }

  result(): ImportRead {
    return this.problems ? { problems: this.problems } : { value: this.value };
  }
}

export type ImportRead = { value: unknown } | { problems: string[] };

/** Read a small body (or one an earlier parser already turned into text) right here. */
export function readImportBodyHere(text: string): ImportRead {
  const assembler = new Assembler();
  readImportText(text, (m) => void assembler.take(m));
  return assembler.result();
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
 * Read an import body (UTF-8): its bytes at once, or as they arrive (a request). Large bodies are decoded
 * and parsed in a worker thread, fed chunk by chunk. Never rejects for a bad body; `tooLarge` once more
 * than `limit` bytes arrived (the rest is not read; the caller answers and closes).
 */
export async function readImportBody(
  source: Uint8Array | Readable,
  limit = Infinity,
): Promise<ImportRead | { tooLarge: true }> {
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
        reader?.cancel();
        return { tooLarge: true };
      }
      if (reader) reader.feed(chunk);
      else {
        held.push(chunk);
        if (size >= WORKER_FROM_BYTES) reader = new WorkerReader(held.splice(0));
      }
    }
  } catch (err) {
    reader?.cancel();
    return { problems: [`the body could not be read (${(err as Error).message})`] };
  }
  if (!reader) return readImportBodyHere(Buffer.concat(held, size).toString('utf8'));
  return reader.finish();
}

/** The worker reading one body: fed chunks, then told the end; resolves with what it read. */
class WorkerReader {
  private readonly worker: Worker;
  private readonly done: Promise<ImportRead>;

  constructor(first: Uint8Array[]) {
    const taken = new Int32Array(new SharedArrayBuffer(4));
    const parts = first.map(transferable);
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { chunks: parts.map((p) => p.data), taken: taken.buffer },
      transferList: parts.flatMap((p) => p.transfer),
    });
    const assembler = new Assembler();
    this.done = new Promise((resolve) => {
      let settled = false;
      const settle = (result: ImportRead) => {
        if (settled) return;
        settled = true;
        void this.worker.terminate();
        resolve(result);
      };
      this.worker.on('message', (m: ImportMessage) => {
        if (assembler.take(m)) settle(assembler.result());
        else if (m.kind === 'events')
          setImmediate(() => {
            Atomics.store(taken, 0, 1);
            Atomics.notify(taken, 0);
          });
      });
      this.worker.on('error', (err) =>
        settle({ problems: [`the body could not be read (${err.message})`] }),
      );
      this.worker.on('exit', (code) =>
        settle({
          problems: [`the body could not be read (its reader stopped with code ${code})`],
        }),
      );
    });
  }

  feed(chunk: Uint8Array): void {
    const { data, transfer } = transferable(chunk);
    this.worker.postMessage({ chunk: data }, transfer);
  }

  finish(): Promise<ImportRead> {
    this.worker.postMessage({ end: true });
    return this.done;
  }

  cancel(): void {
    void this.worker.terminate();
  }
}
