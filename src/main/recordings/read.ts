// Reads one recording as a stream: NDJSON (a file, a FIFO, `-` for stdin, an upload) line by line, so a
// million events never sit in memory at once; an export or a HAR (one JSON document) whole, within its cap,
// and a HAR Playwright saved with its bodies apart (a zip, or side files) with them (har-files.ts).
import type { AskedSearch } from './har-searches';
import { nestsDeeperThan } from '../../shared/json-depth';
import type { RecordedEvent } from '../../shared/events';
import type { IssuedResponse } from '../search/responses';
import type { RecordedCatalog } from '../search/catalog-view';
import type { RecordedSite } from '../tracking/timeline/offline-provenance';
import { fromRecord, LinesSite, parseInput } from './inputs';
import { ARRIVAL_WINDOW, ArrivalOrder, arrivalOf } from './arrival-order';
import { InputError, type Counter, type ReadResult } from './recorded';
import { folderFiles, readHarZip, sideBodies } from './har-files';
import { isZip } from '../base/zip';
import { linesOf } from './lines';
import { mb, type RecordingSource } from './source';
import { grouped } from '../../shared/text';

export type InputItem =
  | { event: RecordedEvent }
  | {
      responses: IssuedResponse[];
      sites?: RecordedSite[];
      catalogs?: RecordedCatalog[];
      rememberedSince?: number;
      /** a HAR's search requests with the tracker's context */
      asked?: AskedSearch[];
    }
  | { note: string };

/** Deeper than this, a recorded line or document is refused (real beacons nest a handful of levels). */
const MAX_RECORDING_DEPTH = 256;

/**
 * The first chunks of a source, read until they hold `bytes` bytes or a newline (or the input ends), and
 * a source that gives them again followed by the rest: a pipe cannot be read twice.
 */
export async function peek(
  source: RecordingSource,
  bytes: number,
): Promise<{ head: Buffer; ended: boolean; source: RecordingSource }> {
  const iterator = source.chunks()[Symbol.asyncIterator]();
  const first: Buffer[] = [];
  let size = 0;
  let ended = false;
  let newline = false;
  while (size < bytes && !newline) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    first.push(next.value);
    size += next.value.length;
    newline = next.value.includes(10);
  }
  const replay: RecordingSource = {
    name: source.name,
    caps: source.caps,
    ...(source.folder !== undefined && { folder: source.folder }),
    async *chunks() {
      yield* first;
      if (ended) return;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    },
  };
  return { head: Buffer.concat(first), ended, source: replay };
}

/**
 * The whole of a source as bytes, refused past its document cap (`tooLarge`: what may be read, and what
 * to do, given the cap); `check` sees the chunks read so far as each one comes.
 */
async function readCapped(
  source: RecordingSource,
  tooLarge: (cap: string) => string,
  check?: (chunks: readonly Buffer[], size: number, added: number) => void,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source.chunks()) {
    size += chunk.length;
    if (size > source.caps.documentBytes)
      throw new InputError(`${source.name}: ${tooLarge(mb(source.caps.documentBytes))}`);
    chunks.push(chunk);
    check?.(chunks, size, chunk.length);
  }
  return Buffer.concat(chunks, size);
}

/** The whole of a source as text, refused past its document cap or nested deeper than MAX_RECORDING_DEPTH. */
export async function readWhole(source: RecordingSource): Promise<string> {
  const bytes = await readCapped(
    source,
    (cap) =>
      `a recording read whole (an export, a HAR or a baseline file) may have at most ${cap}: export fewer events, or record NDJSON, which is read line by line`,
    (chunks, size, added) => {
      // past a line's worth, input that does not even start like JSON is not read to the end (an endless pipe)
      if (size > source.caps.lineBytes && size - added <= source.caps.lineBytes) {
        const start = /\S/.exec(chunks[0]!.toString('utf8', 0, Math.min(chunks[0]!.length, 4096)));
        if (!start || (start[0] !== '{' && start[0] !== '[' && start[0] !== '\uFEFF'))
          throw new InputError(
            `${source.name}: not a recording: more than ${mb(source.caps.lineBytes)} that is not JSON (NDJSON of events, a sandbox export, a HAR or a baseline file)`,
          );
      }
    },
  );
  return shallow(bytes.toString('utf8'), source.name);
}

/** A document's text, refused when nested deeper than MAX_RECORDING_DEPTH. */
function shallow(text: string, name: string): string {
  if (nestsDeeperThan(text, MAX_RECORDING_DEPTH))
    throw new InputError(
      `${name}: JSON nested more than ${MAX_RECORDING_DEPTH} levels deep: not a recording (recorded beacons nest a handful of levels)`,
    );
  return text;
}

/** A recording read whole, with the bodies a HAR keeps apart (in its zip, or in side files beside it). */
export interface RecordingText {
  text: string;
  bodies: ReadonlyMap<string, string> | undefined;
}

/**
 * One JSON document (an export, a HAR, a baseline file, or input that is not JSON) read whole, and a HAR
 * Playwright saved with its bodies apart (a zip, or side files beside it) with those bodies. `head`: the
 * source's first bytes, when they were read already.
 */
export async function readRecordingText(
  source: RecordingSource,
  head?: Buffer,
): Promise<RecordingText> {
  const file = source.name;
  if (head === undefined) ({ head, source } = await peek(source, source.caps.lineBytes));
  if (isZip(head)) {
    const bytes = await readCapped(
      source,
      (cap) => `a zip may have at most ${cap}: record fewer requests`,
    );
    const zip = await readHarZip(bytes, file, source.caps);
    try {
      const text = shallow(zip.text, file);
      return { text, bodies: await sideBodies(text, file, zip.files, source.caps) };
    } finally {
      zip.close();
    }
  }
  const text = await readWhole(source);
  const folder = source.folder === undefined ? null : folderFiles(source.folder);
  return { text, bodies: await sideBodies(text, file, folder, source.caps) };
}

async function readDocument(
  source: RecordingSource,
  head: Buffer,
  prefix: string,
  counter: Counter,
): Promise<ReadResult> {
  const { text, bodies } = await readRecordingText(source, head);
  return parseInput(text, source.name, prefix, counter, bodies);
}

/**
 * Is the input NDJSON of events? Its first line is then one JSON object that is a beacon body or a
 * recorded event; an export or a HAR is one document (its first line alone is not JSON, or it is
 * `{"log": …}` / `{"events": […]}` on one line).
 */
function startsNdjson(firstLine: string): boolean {
  const line = firstLine.replace(/^\uFEFF/, '').trim();
  if (!line.startsWith('{') || nestsDeeperThan(line, MAX_RECORDING_DEPTH)) return false;
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return false;
  }
  // a data directory's journal is read whole, as a restart reads it (its resets and imports replayed)
  return (
    typeof v === 'object' && v !== null && !('log' in v) && !('events' in v) && !('journal' in v)
  );
}

/**
 * The events (and an export's search responses, and notes) of one input, in order, in batches: the lines of
 * each piece read, so that the stream's per-item cost (a promise and a turn through the microtask queue for
 * each `yield` of an async generator) is paid per piece, not per event. Each batch is to be read through
 * before the next is asked for.
 */
export async function* readInput(
  input: RecordingSource,
  prefix: string,
  counter: Counter,
): AsyncGenerator<Iterable<InputItem>> {
  const file = input.name;
  const { head, source } = await peek(input, input.caps.lineBytes);
  const newline = head.indexOf(10);
  const firstLine = head.toString('utf8', 0, newline === -1 ? head.length : newline);
  if (!startsNdjson(firstLine)) {
    // one JSON document, or input that is not JSON at all: read whole, judged as the whole-file reader does
    const result = await readDocument(source, head, prefix, counter);
    const items: InputItem[] = [];
    if (
      result.responses?.length ||
      result.sites?.length ||
      result.catalogs?.length ||
      result.asked?.length
    )
      items.push({
        responses: result.responses ?? [],
        ...(result.sites && { sites: result.sites }),
        ...(result.catalogs && { catalogs: result.catalogs }),
        ...(result.rememberedSince !== undefined && { rememberedSince: result.rememberedSince }),
        ...(result.asked && { asked: result.asked }),
      });
    for (const event of result.events) items.push({ event });
    for (const note of result.notes) items.push({ note });
    yield items;
    return;
  }
  let lineNo = 0;
  // recorded events are handed on in the order the sandbox received them (arrival-order.ts)
  const order = new ArrivalOrder();
  const site = new LinesSite();
  const take = (line: string): { event: RecordedEvent; arrival: number | undefined } | null => {
    lineNo++;
    const text = lineNo === 1 ? line.replace(/^\uFEFF/, '') : line;
    // a line of an event opens with its brace: only another line can be blank
    if (text.charCodeAt(0) !== 0x7b && text.trim() === '') return null;
    if (nestsDeeperThan(text, MAX_RECORDING_DEPTH))
      throw new InputError(
        `${file}:${lineNo}: JSON nested more than ${MAX_RECORDING_DEPTH} levels deep; expected one beacon body or recorded event per line`,
      );
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (err) {
      throw new InputError(
        `${file}:${lineNo}: not valid JSON (${(err as Error).message}); expected one beacon body or recorded event per line`,
      );
    }
    const event = fromRecord(v, `${file}:${lineNo}`, `${prefix}line:${lineNo}`, counter, site);
    return { event, arrival: arrivalOf(v) };
  };
  // each line is parsed when the caller reaches it (a batch is read through before the next): an event
  // parsed, applied and dropped dies young, where a batch parsed ahead was alive at every collection
  // meanwhile and copied by it
  function* parsed(lines: string[]): Generator<InputItem> {
    for (const line of lines) {
      const item = take(line);
      if (item) for (const event of order.add(item.event, item.arrival)) yield { event };
    }
  }
  for await (const lines of linesOf(source)) yield parsed(lines);
  const rest: InputItem[] = [...order.flush()].map((event) => ({ event }));
  if (order.late > 0)
    rest.push({
      note: `${file}: ${order.late} recorded ${order.late === 1 ? 'event was' : 'events were'} written more than ${grouped(ARRIVAL_WINDOW)} events after events the sandbox received later (by seq), too far to be put back in their place, and judged where read: sort the file by seq, or export it again`,
    });
  const adopted = site.note(file);
  if (adopted !== undefined) rest.push({ note: adopted });
  if (rest.length > 0) yield rest;
}
