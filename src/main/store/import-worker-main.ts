// The import reader's thread (import-body.ts starts it): the body's bytes come in as they arrive; at the
// end it decodes and parses the text and checks every event (parseImport's checks, all of them before
// anything is imported), then answers with the problems, or with the sections and the number of events,
// then hands the events over as drafts in batches, each only when the sandbox asks for it: the sandbox
// never holds more than a batch or two of them, and what it imported is garbage one batch at a time.
import { parentPort, workerData } from 'node:worker_threads';
import type { EventDraft } from './types';
import { parseImportHere } from './export-format';
import { utf16Of } from '../base/utf16';
import { notUtf8At } from '../base/utf8';
import { readImportText, utf8Problem } from './import-text';

/** What the reader posts: the problems; or the sections and the count, then the batches, then the end. */
export type ReaderMessage =
  | { kind: 'problems'; problems: string[] }
  | { kind: 'checked'; sections: Record<string, unknown>; count: number }
  | { kind: 'drafts'; batch: EventDraft[] }
  | { kind: 'end' };

/** The reader's start: the chunks that arrived before it ran, and the flag by which the sandbox asks. */
export interface ReaderData {
  chunks: Uint8Array[];
  /** an Int32Array's memory: the sandbox sets it to 1 to ask for the next batch */
  asked: SharedArrayBuffer;
}

/** events per batch handed over */
export const DRAFT_BATCH = 500;

const port = parentPort!;
const { chunks, asked: askedMemory } = workerData as ReaderData;
const asked = new Int32Array(askedMemory);
// UTF-8, or UTF-16 when its first bytes say so (a file saved by PowerShell's `>`)
const utf16 = utf16Of(firstBytes(chunks, 4));
const decoder = new TextDecoder(utf16 ?? 'utf-8', { fatal: utf16 === null });
/** bytes decoded so far, and the first that is not UTF-8 (UTF-16: not looked for) */
let decoded = 0;
let notUtf8: string | null = null;
let parts: string[] = chunks.map((c) => decode(c));

/** A chunk's text; '' once a byte that is not UTF-8 was met (the import is refused naming it). */
function decode(chunk?: Uint8Array): string {
  if (notUtf8 !== null) return '';
  try {
    return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
  } catch {
    // a sequence cut at the chunk's start is the previous bytes': named at the chunk's first byte
    notUtf8 = (chunk && notUtf8At(chunk, decoded)) ?? `not valid UTF-8 at byte offset ${decoded}`;
    return '';
  } finally {
    decoded += chunk?.byteLength ?? 0;
  }
}
const post = (m: ReaderMessage) => port.postMessage(m);

/** The first `n` bytes of the chunks (fewer when they hold fewer). */
function firstBytes(list: readonly Uint8Array[], n: number): Uint8Array {
  const out: number[] = [];
  for (const c of list) for (let i = 0; i < c.length && out.length < n; i++) out.push(c[i]!);
  return Uint8Array.from(out);
}

port.on('message', (m: { chunk?: Uint8Array; end?: true }) => {
  if (m.chunk) return void parts.push(decode(m.chunk));
  port.removeAllListeners('message');
  parts.push(decode());
  if (notUtf8 !== null) return post({ kind: 'problems', problems: [utf8Problem(notUtf8)] });
  handOver(parsedImport());
});

// The text, then the document, are let go once read (each held only inside its own function): this thread
// lives until the last batch is stored, beside the sandbox's heap growing by what it stores.
function parsedImport(): ReturnType<typeof parseImportHere> {
  const body = read();
  return 'problems' in body ? body : parseImportHere(body.value);
}

function read(): ReturnType<typeof readImportText> {
  const text = parts.join('');
  parts = [];
  return readImportText(text);
}

function handOver(parsed: ReturnType<typeof parseImportHere>): void {
  if ('problems' in parsed) return post({ kind: 'problems', problems: parsed.problems });
  const { events, sections } = parsed;
  post({ kind: 'checked', sections, count: events.length });
  for (let i = 0; i < events.length; i += DRAFT_BATCH) {
    Atomics.wait(asked, 0, 0);
    Atomics.store(asked, 0, 0);
    post({ kind: 'drafts', batch: events.slice(i, i + DRAFT_BATCH) });
    // handed over: this thread's copy may go
    events.fill(null as never, i, i + DRAFT_BATCH);
  }
  post({ kind: 'end' });
}
