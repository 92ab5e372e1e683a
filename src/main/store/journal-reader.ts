// Reads the NDJSON event journal back at start-up: events, reset markers and the header, line by line,
// skipping (and reporting) torn or garbled lines instead of refusing to start.
import { open } from 'node:fs/promises';
import type { RecordedEvent } from '../../shared/events';

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
}

export type JournalEntry =
  /** `line`: the record's text, as read */
  | { kind: 'event'; event: RecordedEvent; line: string }
  | { kind: 'reset'; siteId: string | undefined; nextSeq: number }
  | { kind: 'header'; nextSeq: number };

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
  onEntry: (entry: JournalEntry) => void,
): Promise<ReadResult> {
  const result: ReadResult = { lines: 0, warnings: [], goodLength: 0, missingNewline: false };
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return result;
    throw err;
  }
  let skipped = 0;
  const warn = (line: number, why: string, text: string) => {
    skipped++;
    if (result.warnings.length < MAX_WARNINGS) {
      const sample = text.length > 80 ? `${text.slice(0, 80)}…` : text;
      result.warnings.push(
        `events journal ${file}, line ${line}: ${why}; skipped (${JSON.stringify(sample)})`,
      );
    }
  };
  try {
    // The unfinished line so far, in pieces: joined only once its newline arrives (no quadratic copying).
    let pieces: Buffer[] = [];
    let restLength = 0;
    let offset = 0;
    let lastSeq = 0;
    const handleLine = (buf: Buffer, lineNo: number) => {
      const text = buf.toString('utf8').trim();
      if (text === '') return;
      const entry = parseLine(text);
      if (typeof entry === 'string') return warn(lineNo, entry, text);
      if (entry.kind === 'event') {
        // Indexes rely on seq order; a duplicate or out-of-order record can only come from a damaged file.
        if (entry.event.seq <= lastSeq)
          return warn(lineNo, `seq ${entry.event.seq} is not after ${lastSeq}`, text);
        lastSeq = entry.event.seq;
      }
      onEntry(entry);
    };
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
      let start = 0;
      let nl: number;
      while ((nl = chunk.indexOf(10, start)) !== -1 && nl < bytesRead) {
        const tail = chunk.subarray(start, nl);
        result.lines++;
        handleLine(pieces.length ? Buffer.concat([...pieces, tail]) : tail, result.lines);
        pieces = [];
        restLength = 0;
        start = nl + 1;
      }
      if (start < bytesRead) {
        pieces.push(chunk.subarray(start, bytesRead));
        restLength += bytesRead - start;
      }
    }
    result.goodLength = offset - restLength;
    const rest = Buffer.concat(pieces);
    if (rest.length > 0) {
      // The last line has no newline: a write cut short by a crash. Keep it only if it is a whole record.
      const text = rest.toString('utf8').trim();
      const entry = parseLine(text);
      if (typeof entry === 'string') {
        warn(
          result.lines + 1,
          'incomplete record at the end of the file (the process stopped while writing it)',
          text,
        );
      } else {
        result.lines++;
        handleLine(rest, result.lines);
        result.goodLength = offset;
        result.missingNewline = true;
      }
    }
  } finally {
    await handle.close();
  }
  if (skipped > MAX_WARNINGS)
    result.warnings.push(
      `events journal ${file}: ${skipped - MAX_WARNINGS} more unreadable lines skipped`,
    );
  return result;
}

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
    };
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
  if (!Array.isArray(v.errors)) return 'event field errors must be an array';
  return null;
}
