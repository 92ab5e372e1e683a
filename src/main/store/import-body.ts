// Reading an import body (`POST /_sandbox/import`, up to 250 MB) off the event loop: a worker thread
// decodes and parses the text (one JSON document, or NDJSON) and hands the events back in batches, each a
// small message, so the sandbox keeps answering beacons while a large export is read back in.
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

// Messages waiting on a port are all taken in one turn of the loop: the worker sends the next batch only
// once the main thread took the last one and had a turn of its loop (a flag in shared memory says so).
// (`__name`: the helper esbuild adds around named functions when it keeps names, as tsx does)
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const __name = (f) => f;
const read = ${readImportText.toString()};
const taken = new Int32Array(workerData.taken);
read(new TextDecoder().decode(workerData.data), (message) => {
  parentPort.postMessage(message);
  if (message.kind !== 'events') return;
  Atomics.wait(taken, 0, 0);
  Atomics.store(taken, 0, 0);
});
`;

/** Put the batches back into the document: its event list, or the array itself. */
function assemble(messages: ImportMessage[]): { value: unknown } | { problems: string[] } {
  let value: unknown;
  let list: unknown[] | null = null;
  for (const m of messages) {
    if (m.kind === 'problems') return { problems: m.problems };
    if (m.kind === 'value') {
      value = m.value;
      list =
        m.events === 'array'
          ? (value as unknown[])
          : m.events === 'field'
            ? (value as { events: unknown[] }).events
            : null;
    } else if (m.kind === 'events') {
      for (const item of m.batch) list!.push(item);
    }
  }
  return { value };
}

/** Read a small body (or one an earlier parser already turned into text) right here. */
export function readImportBodyHere(text: string): { value: unknown } | { problems: string[] } {
  const messages: ImportMessage[] = [];
  readImportText(text, (m) => messages.push(m));
  return assemble(messages);
}

/** Bodies below this are read on the loop: a worker's start costs more than their parse. */
const WORKER_FROM_BYTES = 256 * 1024;

/** Read an import body's bytes (UTF-8); large ones in a worker thread. Never rejects for a bad body. */
export async function readImportBody(
  data: Buffer,
): Promise<{ value: unknown } | { problems: string[] }> {
  if (data.length < WORKER_FROM_BYTES) return readImportBodyHere(data.toString('utf8'));
  // hand the bytes over without a copy when the buffer owns its memory (small ones share a pool)
  const own = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
  const taken = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { data, taken: taken.buffer },
    transferList: own ? [data.buffer as ArrayBuffer] : [],
  });
  const messages: ImportMessage[] = [];
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: { value: unknown } | { problems: string[] }) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      resolve(result);
    };
    worker.on('message', (m: ImportMessage) => {
      messages.push(m);
      if (m.kind === 'problems' || m.kind === 'end') settle(assemble(messages));
      else if (m.kind === 'events')
        setImmediate(() => {
          Atomics.store(taken, 0, 1);
          Atomics.notify(taken, 0);
        });
    });
    worker.on('error', (err) =>
      settle({ problems: [`the body could not be read (${err.message})`] }),
    );
    worker.on('exit', (code) =>
      settle({
        problems: [`the body could not be read (its reader stopped with code ${code})`],
      }),
    );
  });
}
