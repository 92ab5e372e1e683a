// Reads the NDJSON event journal back at start-up: events, reset markers and the header, line by line,
// skipping (and naming) torn or damaged records instead of refusing to start, and resynchronising after
// one: every intact record after a damaged one is kept. Sequence numbers are checked against the records
// around them, not trusted one by one: a record whose seq was corrupted upwards would otherwise make every
// later record look out of order.
import { open, type FileHandle } from 'node:fs/promises';
import type { RecordedEvent } from '../../shared/events';
import { clockOffsetProblem } from '../../shared/clock-offset';

/** First line of every journal file: lets ids continue after a compaction dropped the newest events' predecessors. */
export interface JournalHeader {
  journal: 'search-sandbox events';
  version: 1;
  nextSeq: number;
}

/** Written by `reset()`; replayed so reset events stay forgotten after a restart. */
export interface ResetRecord {
  reset: { siteId: string | null };
  nextSeq: number;
  /** the import it is part of (a replacing import's reset) */
  import?: string;
}

/** An event stored by an import: kept only when its import's commit marker follows. */
export interface ImportedEventRecord {
  import: string;
  event: RecordedEvent;
}

/** Where an import begins, and how it ended (no end: the process stopped during it). */
export interface ImportMarker {
  import: { id: string; begin?: true; commit?: true; abort?: true };
}

export type JournalEntry =
  /** `line`: the record's text, as read (absent when the event is wrapped, as an import's are) */
  | { kind: 'event'; event: RecordedEvent; line?: string; importId?: string }
  | { kind: 'reset'; siteId: string | undefined; nextSeq: number; importId?: string }
  | { kind: 'header'; nextSeq: number }
  | { kind: 'import'; id: string; marker: 'begin' | 'commit' | 'abort' };

/** What the store is handed: the imports' markers are the reader's own business. */
export type StoredEntry = Exclude<JournalEntry, { kind: 'import' }>;

export interface ReadResult {
  /** complete lines found (good or bad), i.e. what the file holds */
  lines: number;
  warnings: string[];
  /** byte length of the file without a torn last line; the file is truncated to this before appending */
  goodLength: number;
  /** the file's last byte is not a newline (the first append must start a new line) */
  missingNewline: boolean;
}

const CHUNK = 1 << 20;
const MAX_WARNINGS = 20;

/** Stream the journal at `file`, handing each readable entry to `onEntry` in file order. */
export async function readJournal(
  file: string,
  onEntry: (entry: StoredEntry) => void,
): Promise<ReadResult> {
  const result: ReadResult = { lines: 0, warnings: [], goodLength: 0, missingNewline: false };
  const handle = await openIfThere(file);
  if (!handle) return result;
  const warnings = new JournalWarnings(file, result.warnings);
  try {
    const imports = new ImportGate(onEntry, warnings.note);
    const order = new SeqOrder(imports.take, warnings.skip);
    const { bytes, rest } = await eachLine(handle, (line) =>
      takeLine(line, ++result.lines, order, warnings.skip),
    );
    result.goodLength = bytes - rest.length;
    if (rest.length > 0) {
      // The last line has no newline: a write cut short by a crash. Keep it only if it is a whole record.
      const text = rest.toString('utf8').trim();
      if (typeof parseLine(text) === 'string') {
        warnings.skip(
          result.lines + 1,
          'incomplete record at the end of the file (the process stopped while writing it)',
          text,
        );
      } else {
        takeLine(rest, ++result.lines, order, warnings.skip);
        result.goodLength = bytes;
        result.missingNewline = true;
      }
    }
    order.end();
    imports.end();
  } finally {
    await handle.close();
  }
  warnings.finish();
  return result;
}

/** The journal open for reading, or null when there is none yet. */
async function openIfThere(file: string): Promise<FileHandle | null> {
  try {
    return await open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Reads the file in chunks and hands on each complete line (without its newline); returns the bytes
 * read and the unfinished last line (empty when the file ends with a newline).
 */
async function eachLine(
  handle: FileHandle,
  onLine: (line: Buffer) => void,
): Promise<{ bytes: number; rest: Buffer }> {
  // The unfinished line so far, in pieces: joined only once its newline arrives (no quadratic copying).
  let pieces: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(CHUNK);
    const { bytesRead } = await handle.read(chunk, 0, CHUNK, offset);
    if (bytesRead === 0) break;
    offset += bytesRead;
    let start = 0;
    let nl: number;
    while ((nl = chunk.indexOf(10, start)) !== -1 && nl < bytesRead) {
      const tail = chunk.subarray(start, nl);
      onLine(pieces.length ? Buffer.concat([...pieces, tail]) : tail);
      pieces = [];
      start = nl + 1;
    }
    if (start < bytesRead) pieces.push(chunk.subarray(start, bytesRead));
  }
  return { bytes: offset, rest: Buffer.concat(pieces) };
}

type Skip = (line: number, why: string, text: string) => void;

/** One line read: its record on in order, or, when it is damaged, the whole records found in it. */
function takeLine(buf: Buffer, line: number, order: SeqOrder, skip: Skip): void {
  const text = buf.toString('utf8').trim();
  if (text === '') return;
  const entry = parseLine(text);
  if (typeof entry !== 'string') return order.take(entry, line, text);
  // a damaged line may hold whole records glued to the damage (a newline lost or overwritten)
  const found = salvage(text);
  skip(
    line,
    found.length
      ? `${entry}; ${found.length} whole record${found.length === 1 ? '' : 's'} in it kept`
      : entry,
    text,
  );
  for (const piece of found) order.take(piece, line, text);
}

/** What the reader says of the file: the first MAX_WARNINGS warnings, then how many more lines it skipped. */
class JournalWarnings {
  private skipped = 0;

  constructor(
    private readonly file: string,
    private readonly list: string[],
  ) {}

  /** A record skipped, with why and the start of its text. */
  readonly skip: Skip = (line, why, text) => {
    this.skipped++;
    const sample = text.length > 80 ? `${text.slice(0, 80)}…` : text;
    this.note(`line ${line}: ${why}; skipped (${JSON.stringify(sample)})`);
  };

  readonly note = (text: string): void => {
    if (this.list.length < MAX_WARNINGS) this.list.push(`events journal ${this.file}, ${text}`);
  };

  /** After the last line. */
  finish(): void {
    if (this.skipped > MAX_WARNINGS)
      this.list.push(
        `events journal ${this.file}: ${this.skipped - MAX_WARNINGS} more unreadable lines skipped`,
      );
  }
}

/**
 * Hands entries on in file order, keeping events in increasing seq: each event is held until the next
 * record shows whether its seq fits between its neighbours'. One that does not is the damaged one and is
 * skipped (and named), whichever side it errs on; the records after it are kept.
 */
class SeqOrder {
  /** seq of the last event handed on */
  private last = 0;
  private held: {
    entry: Extract<JournalEntry, { kind: 'event' }>;
    line: number;
    text: string;
  } | null = null;

  constructor(
    private readonly onEntry: (entry: JournalEntry, line: number) => void,
    private readonly warn: (line: number, why: string, text: string) => void,
  ) {}

  take(entry: JournalEntry, line: number, text: string): void {
    if (entry.kind !== 'event') {
      // a reset's nextSeq is past every event written before it
      this.settle(entry.kind === 'reset' ? entry.nextSeq : Infinity);
      this.onEntry(entry, line);
      return;
    }
    const seq = entry.event.seq;
    if (seq <= this.last) {
      // a duplicate, or a seq damaged downwards
      this.warn(line, `seq ${seq} is not after ${this.last}, the seq of a record before it`, text);
      return;
    }
    this.settle(seq);
    this.held = { entry, line, text };
  }

  /** No more records. */
  end(): void {
    this.settle(Infinity);
  }

  /** Hand the held event on if its seq is below `next` (the next record's), else skip it as damaged. */
  private settle(next: number): void {
    const held = this.held;
    if (!held) return;
    this.held = null;
    const seq = held.entry.event.seq;
    if (seq >= next) {
      this.warn(
        held.line,
        `seq ${seq} is out of line with the records around it (${this.last} before, ${next} after): a damaged record`,
        held.text,
      );
      return;
    }
    this.last = seq;
    this.onEntry(held.entry, held.line);
  }
}

/**
 * Keeps an import all or nothing: from an import's begin marker until every open import has ended, the
 * records are held; then those of committed imports and those of no import (beacons acknowledged
 * meanwhile, resets by hand) are handed on in file order, and those of an aborted import dropped. What is
 * still held at the end of the file belongs to an import the process never finished: it is undone.
 */
class ImportGate {
  private readonly open = new Map<string, number>();
  private readonly committed = new Set<string>();
  private held: StoredEntry[] = [];
  /** per import undone: where it began and how many events it had stored */
  private readonly undone = new Map<string, { line: number; events: number }>();
  private droppedSeq = 0;

  constructor(
    private readonly onEntry: (entry: StoredEntry) => void,
    private readonly note: (text: string) => void,
  ) {}

  readonly take = (entry: JournalEntry, line: number): void => {
    if (entry.kind === 'import') {
      if (entry.marker === 'begin') this.open.set(entry.id, line);
      else {
        const began = this.open.get(entry.id) ?? line;
        this.open.delete(entry.id);
        if (entry.marker === 'commit') this.committed.add(entry.id);
        else this.undone.set(entry.id, { line: began, events: 0 });
      }
      if (this.open.size === 0) this.release();
      return;
    }
    const ofImport = 'importId' in entry ? entry.importId : undefined;
    if (this.open.size === 0 && (ofImport === undefined || this.committed.has(ofImport)))
      return this.onEntry(entry);
    this.held.push(entry);
    if (ofImport !== undefined && !this.undone.has(ofImport) && !this.committed.has(ofImport))
      if (!this.open.has(ofImport)) this.open.set(ofImport, line); // its begin was lost to damage
  };

  end(): void {
    for (const [id, line] of this.open) this.undone.set(id, { line, events: 0 });
    this.open.clear();
    this.release();
    for (const [, { line, events }] of this.undone)
      this.note(
        `line ${line}: an import that did not complete (the process stopped during it, or it failed) was undone: its ${events} event${events === 1 ? '' : 's'} and its reset are not restored; beacons received meanwhile are`,
      );
    // ids never repeat: the next event comes after the undone ones
    if (this.droppedSeq > 0) this.onEntry({ kind: 'header', nextSeq: this.droppedSeq + 1 });
  }

  private release(): void {
    const held = this.held;
    this.held = [];
    for (const entry of held) {
      const id = 'importId' in entry ? entry.importId : undefined;
      if (id === undefined || this.committed.has(id)) {
        this.onEntry(entry);
        continue;
      }
      const undone = this.undone.get(id);
      if (!undone) {
        this.held.push(entry); // its import is still open (only at the end of the file: undone there)
        continue;
      }
      if (entry.kind === 'event') {
        undone.events++;
        this.droppedSeq = Math.max(this.droppedSeq, entry.event.seq);
      }
    }
  }
}

/**
 * The whole records inside a damaged line: pieces that start where a record starts (`{"id":`,
 * `{"reset":`, `{"journal":`), each read as a record, or as one whose last character stands where its
 * newline was. Linear in the line's length: each piece is parsed once or twice.
 */
export function salvage(text: string): JournalEntry[] {
  const starts: number[] = [];
  for (let i = text.indexOf('{"', 1); i !== -1; i = text.indexOf('{"', i + 2))
    if (RECORD_START.test(text.slice(i, i + 12))) starts.push(i);
  if (starts.length === 0) return [];
  const bounds = [0, ...starts, text.length];
  const found: JournalEntry[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const piece = text.slice(bounds[k], bounds[k + 1]);
    const entry = parseLine(piece);
    const whole = typeof entry === 'string' ? parseLine(piece.slice(0, -1)) : entry;
    if (typeof whole !== 'string') found.push(whole);
  }
  return found;
}

const RECORD_START = /^\{"(id|reset|journal|import)":/;

/** One line → an entry, or the reason it is unreadable. */
export function parseLine(text: string): JournalEntry | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not valid JSON (torn or garbled write)';
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const v = value as Record<string, unknown>;
  if ('journal' in v) {
    return typeof v.nextSeq === 'number'
      ? { kind: 'header', nextSeq: v.nextSeq }
      : 'header without nextSeq';
  }
  if ('reset' in v) {
    const reset = v.reset as { siteId?: unknown } | null;
    if (!reset || typeof v.nextSeq !== 'number') return 'reset record without siteId/nextSeq';
    return {
      kind: 'reset',
      siteId: typeof reset.siteId === 'string' ? reset.siteId : undefined,
      nextSeq: v.nextSeq,
      ...(typeof v.import === 'string' && { importId: v.import }),
    };
  }
  if ('import' in v) {
    if (typeof v.import === 'string') {
      const event = v.event as Record<string, unknown> | null;
      if (!event || typeof event !== 'object') return 'imported event record without its event';
      const problem = eventProblem(event);
      return problem
        ? `imported ${problem}`
        : { kind: 'event', event: event as unknown as RecordedEvent, importId: v.import };
    }
    const m = v.import as { id?: unknown; begin?: unknown; commit?: unknown; abort?: unknown };
    const marker = m?.begin ? 'begin' : m?.commit ? 'commit' : m?.abort ? 'abort' : null;
    if (typeof m?.id !== 'string' || !marker)
      return 'import marker without id and begin/commit/abort';
    return { kind: 'import', id: m.id, marker };
  }
  const problem = eventProblem(v);
  return problem ?? { kind: 'event', event: v as unknown as RecordedEvent, line: text };
}

/** Why `v` is not a RecordedEvent, or null when it is one (also used to validate imports). */
export function eventProblem(v: Record<string, unknown>): string | null {
  if (typeof v.id !== 'string') return 'event without a string id';
  if (typeof v.seq !== 'number' || !Number.isInteger(v.seq) || v.seq < 1)
    return 'event without a positive integer seq';
  for (const key of ['receivedAt', 'siteId', 'category', 'event', 'path'] as const) {
    if (typeof v[key] !== 'string') return `event field ${key} must be a string`;
  }
  if (typeof v.accepted !== 'boolean') return 'event field accepted must be true or false';
  if (typeof v.status !== 'number') return 'event field status must be a number';
  if (!Number.isInteger(v.status) || v.status < 100 || v.status > 599)
    return `event field status must be an HTTP status (100 to 599), got ${v.status}`;
  // the service accepts a beacon exactly when it answers 200: an event saying otherwise was edited
  if (v.accepted !== (v.status === 200))
    return `event field accepted is ${v.accepted} with status ${v.status}: an event is accepted exactly when its status is 200`;
  if (!Array.isArray(v.errors)) return 'event field errors must be an array';
  if (v.clockOffsetMs !== undefined) {
    const problem = clockOffsetProblem(v.clockOffsetMs);
    if (problem) return `event ${problem}`;
  }
  return null;
}
