// Reads one input of `check` as a stream: NDJSON (a file, a FIFO or `-` for stdin) line by line, so a
// million events never sit in memory at once; an export or a HAR (one JSON document) whole, as before.
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import type { RecordedEvent } from '../../shared/events';
import type { IssuedResponse } from '../search/responses';
import { fromRecord, InputError, parseInput, type Counter } from './inputs';

export type InputItem =
  { event: RecordedEvent } | { responses: IssuedResponse[] } | { note: string };

/** The file `-` is standard input. */
function open(file: string): Readable {
  return file === '-' ? process.stdin : createReadStream(file);
}

/** Text pieces of the input, decoded as UTF-8 across chunk borders. */
async function* texts(file: string): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  try {
    for await (const chunk of open(file)) yield decoder.write(chunk as Buffer);
  } catch (err) {
    throw new InputError(
      `${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/**
 * Is the input NDJSON of events? Its first line is then one JSON object that is a beacon body or a
 * recorded event; an export or a HAR is one document (its first line alone is not JSON, or it is
 * `{"log": …}` / `{"events": […]}` on one line).
 */
function startsNdjson(firstLine: string): boolean {
  const line = firstLine.replace(/^\uFEFF/, '').trim();
  if (!line.startsWith('{')) return false;
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return false;
  }
  return typeof v === 'object' && v !== null && !('log' in v) && !('events' in v);
}

/**
 * The events (and an export's search responses, and notes) of one input, in order, in batches: the lines of
 * each piece read (~64 KiB), so that the stream's per-item cost (a promise and a turn through the
 * microtask queue for each `yield` of an async generator) is paid per piece, not per event.
 */
export async function* readInput(
  file: string,
  prefix: string,
  counter: Counter,
): AsyncGenerator<InputItem[]> {
  const pieces = texts(file);
  let buffered = '';
  let ended = false;
  // enough to see the first line (or the whole input, when it has none)
  while (!buffered.includes('\n')) {
    const next = await pieces.next();
    if (next.done) {
      ended = true;
      break;
    }
    buffered += next.value;
  }
  const firstLine = buffered.split('\n', 1)[0]!;
  if (!startsNdjson(firstLine)) {
    // one JSON document, or input that is not JSON at all: read whole, judged as the whole-file reader does
    if (!ended) for await (const piece of pieces) buffered += piece;
    const result = parseInput(buffered, file, prefix, counter);
    const items: InputItem[] = [];
    if (result.responses?.length) items.push({ responses: result.responses });
    for (const event of result.events) items.push({ event });
    for (const note of result.notes) items.push({ note });
    yield items;
    return;
  }
  let lineNo = 0;
  const take = (line: string): InputItem | null => {
    lineNo++;
    const text = lineNo === 1 ? line.replace(/^\uFEFF/, '') : line;
    if (text.trim() === '') return null;
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (err) {
      throw new InputError(
        `${file}:${lineNo}: not valid JSON (${(err as Error).message}); expected one beacon body or recorded event per line`,
      );
    }
    const event = fromRecord(v, `${file}:${lineNo}`, `${prefix}line:${lineNo}`, counter);
    return event ? { event } : null;
  };
  const lines = function* (text: string, final: boolean): Generator<string> {
    let from = 0;
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', from)) {
      yield text.charCodeAt(at - 1) === 13 ? text.slice(from, at - 1) : text.slice(from, at);
      from = at + 1;
    }
    buffered = text.slice(from);
    if (final && buffered !== '') yield buffered;
  };
  // the items of the complete lines of `text` (and of its rest, when final)
  const batch = (text: string, final: boolean): InputItem[] => {
    const items: InputItem[] = [];
    for (const line of lines(text, final)) {
      const item = take(line);
      if (item) items.push(item);
    }
    return items;
  };
  yield batch(buffered, ended);
  if (ended) return;
  for await (const piece of pieces) yield batch(buffered + piece, false);
  yield batch(buffered, true);
}
