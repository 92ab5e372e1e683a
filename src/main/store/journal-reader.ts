// Reads the NDJSON event journal back at start-up: events, reset markers and the header, line by line,
// skipping (and naming) torn or damaged records instead of refusing to start, and resynchronising after
// one: every intact record after a damaged one is kept. Sequence numbers are checked against the records
// around them, not trusted one by one: a record whose seq was corrupted upwards would otherwise make every
// later record look out of order; an event's id is made from its seq, so a record whose two disagree is the
// damaged one. What damage costs is said: the seqs missing where lines could not be read, a reset that
// could not be read back, an import whose commit marker is damaged. A line's checksum (record-seal.ts) tells
// a record whose bytes changed from one written so; lines of older versions carry none and are read as
// they are.
import { open, type FileHandle } from 'node:fs/promises';
import type { RecordedEvent } from '../../shared/events';
import { recordedEventProblem } from './recorded-event';
import { eventId, seqOfId } from './event-id';
import { tailKind, type TailKind } from './journal-tail';
import { unseal } from './record-seal';

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
  /** the reset's id, which reset.json names while its other files are put in place (reset-commit.ts) */
  id?: string;
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
  /** imports undone for want of an end marker: the journal ends them (abort) so that they stay undone */
  unended: string[];
  /** the unfinished last line that is no whole record (cut off at `goodLength`): what it is, its line */
  tail: { kind: TailKind; line: number } | null;
  /** the first line is the journal's header */
  header: boolean;
  /** lines that read as records (the header too) */
  records: number;
}

const CHUNK = 1 << 20;
const MAX_WARNINGS = 20;

/**
 * The highest seq a journal record is trusted with. Ids are exact only while seqs are safe integers (below
 * 2^53: past it, seq + 1 is seq again, and one id goes to several events); 10^15 events is thousands of
 * years at any rate the sandbox takes, so a record past it is damage, and what ids continue from stays far
 * below 2^53.
 */
const MAX_SEQ = 1e15;

/**
 * How far beyond the highest seq the file holds a header's or a reset's nextSeq is believed. A gap is
 * genuine: ids handed out to events no longer in the file (forgotten by retention or a reset before the
 * last compaction, an import undone, a damaged end skipped). Believing a damaged value costs little (ids
 * jump ahead, still unique); ignoring a genuine one hands ids out twice. So the bound is where no genuine
 * gap reaches: 10^12 ids is a million events a day for 2,700 years. Past it the value is a damaged field
 * (a digit run doubled, an edit), and believing it would leave the ids near 2^53.
 */
const MAX_SEQ_GAP = 1e12;

/** Stream the journal at `file`, handing each readable entry to `onEntry` in file order. */
export async function readJournal(
  file: string,
  onEntry: (entry: StoredEntry) => void,
): Promise<ReadResult> {
  const result: ReadResult = {
    lines: 0,
    warnings: [],
    goodLength: 0,
    missingNewline: false,
    unended: [],
    tail: null,
    header: false,
    records: 0,
  };
  const handle = await openIfThere(file);
  if (!handle) return result;
  const warnings = new JournalWarnings(file, result.warnings);
  try {
    const imports = new ImportGate(onEntry, warnings.note);
    const claims = new NextSeqClaims(imports.take, warnings.note);
    const order = new SeqOrder(claims.take, warnings.skip, warnings.note, imports.damaged);
    const read = (line: Buffer) => {
      const entry = takeLine(line, ++result.lines, order, warnings);
      if (entry) result.records++;
      if (result.lines === 1) result.header = entry?.kind === 'header';
    };
    const { bytes, rest } = await eachLine(handle, read);
    result.goodLength = bytes - rest.length;
    if (rest.length > 0) {
      // The last line has no newline: a write cut short by a crash, or damage (journal-tail.ts says
      // which, and what it cost, once its bytes are kept aside). Kept only if it is a whole record.
      const text = rest.toString('utf8').trim();
      if (typeof parseLine(text) === 'string') {
        result.tail = { kind: tailKind(rest), line: result.lines + 1 };
      } else {
        read(rest);
        result.goodLength = bytes;
        result.missingNewline = true;
      }
    }
    order.end();
    claims.end();
    result.unended = imports.end();
  } finally {
    await handle.close();
  }
  warnings.finish();
  return result;
}

/** Is this line a journal's header (the first line of a data directory's events.ndjson)? */
export function isJournalHeader(line: string): boolean {
  const entry = parseLine(line.replace(/^\uFEFF/, '').trim());
  return typeof entry !== 'string' && entry.kind === 'header';
}

/**
 * The events a journal's text holds as a restart of a sandbox on it reads them: its resets applied (each
 * forgets the events of its site, or of every site, recorded before it), an import's events kept only
 * when its commit marker follows, in seq order. For a data directory's events.ndjson given as a recording
 * (an import, `check`, `diff`): skipping its header and reset lines and reading the rest as events would
 * bring back what a reset forgot, and refuse an import's records. `problems`: what the restart would skip
 * or undo (damaged lines, an import that did not complete), each with its line, for a caller that takes a
 * journal only whole.
 */
export function readJournalText(
  text: string,
  name: string,
): { events: RecordedEvent[]; problems: string[] } {
  const problems: string[] = [];
  const warnings = new JournalWarnings(name, problems);
  let events: RecordedEvent[] = [];
  const imports = new ImportGate((entry) => {
    if (entry.kind === 'event') events.push(entry.event);
    else if (entry.kind === 'reset') {
      const site = entry.siteId;
      events = site === undefined ? [] : events.filter((e) => e.siteId !== site);
    }
  }, warnings.note);
  const claims = new NextSeqClaims(imports.take, warnings.note);
  const order = new SeqOrder(claims.take, warnings.skip, warnings.note, imports.damaged);
  const lines = text.split('\n');
  lines.forEach((line, i) =>
    takeLine(i === 0 ? line.replace(/^\uFEFF/, '') : line, i + 1, order, warnings),
  );
  order.end();
  claims.end();
  imports.end();
  warnings.finish();
  return { events, problems };
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

/**
 * One line read: its record on in order, or, when it is damaged, the whole records found in it, or the
 * reset it still reads as.
 */
function takeLine(
  buf: Buffer | string,
  line: number,
  order: SeqOrder,
  warnings: JournalWarnings,
): JournalEntry | null {
  const text = (typeof buf === 'string' ? buf : buf.toString('utf8')).trim();
  if (text === '') return null;
  const entry = parseLine(text);
  if (typeof entry !== 'string') {
    order.take(entry, line, text);
    return entry;
  }
  // a damaged line may hold whole records glued to the damage (a newline lost or overwritten)
  const found = salvage(text);
  const reset = found.length ? null : damagedReset(unseal(text).text);
  if (reset && typeof reset !== 'string') {
    const what = reset.siteId === undefined ? 'every site' : `site ${reset.siteId}`;
    warnings.note(
      `line ${line}: a damaged reset record (${entry}) read as a reset of ${what}; kept (${excerpt(text)})`,
    );
    order.take(reset, line, text);
    return reset;
  }
  warnings.skip(
    line,
    found.length
      ? `${entry}; ${found.length} whole record${found.length === 1 ? '' : 's'} in it kept`
      : reset
        ? `${entry}: ${reset}`
        : entry,
    text,
  );
  order.damaged(line, text);
  for (const piece of found) order.take(piece, line, text);
  return found[0] ?? null;
}

/**
 * A damaged line that was a reset record (its text starts with the key): the reset it still reads as, or
 * what its loss means when its site or seq cannot be read.
 */
function damagedReset(text: string): Extract<JournalEntry, { kind: 'reset' }> | string | null {
  if (text.length > 400 || !/^.{0,4}reset/.test(text)) return null;
  const site = /siteId"?\s*:\s*(null|"([^"\\]*)")/.exec(text);
  const next = /nextSeq"?\s*:\s*(\d+)\s*[,}]/.exec(text);
  // a site read through damage (a control byte in it) is not one to reset
  if (!site || !next || /[^\x20-\x7e]/.test(site[2] ?? ''))
    return 'a reset record that could not be read: events it removed may be back (reset them again)';
  const importId = /"import"\s*:\s*"([^"\\]*)"/.exec(text)?.[1];
  return {
    kind: 'reset',
    siteId: site[2],
    nextSeq: Number(next[1]),
    ...(importId !== undefined && { importId }),
  };
}

/**
 * The start of a record's text as a warning shows it: at most about 80 characters, runs of zero or other
 * control bytes (a zeroed disk block) told by their length rather than printed.
 */
export function excerpt(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const runs = /[\u0000-\u001f\u007f]+/g;
  let out = '';
  let at = 0;
  // a told run that starts within the excerpt is shown whole
  let cut = 80;
  for (let m = runs.exec(text); m && out.length < 80; m = runs.exec(text)) {
    out += text.slice(at, Math.min(m.index, at + 80));
    if (out.length >= 80) break;
    out += !m[0].replace(/\0/g, '')
      ? `[${m[0].length} zero bytes]`
      : `[${m[0].length} control bytes]`;
    cut = Math.max(cut, out.length);
    at = runs.lastIndex;
  }
  if (out.length < 80) out += text.slice(at, at + 81);
  return JSON.stringify(out.length > cut ? `${out.slice(0, cut)}…` : out);
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
    this.note(`line ${line}: ${why}; skipped (${excerpt(text)})`);
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
 * skipped (and named), whichever side it errs on; the records after it are kept. An event's id is made
 * from its seq: one whose id and seq disagree is damaged whatever its neighbours, and is skipped before
 * it can make an intact neighbour look out of line. Where lines could not be read, the seqs missing
 * between the events on either side are named.
 */
class SeqOrder {
  /** seq of the last event handed on */
  private last = 0;
  private held: {
    entry: Extract<JournalEntry, { kind: 'event' }>;
    line: number;
    text: string;
    /** damaged lines after it, told on once it is */
    after: Array<{ line: number; text: string }>;
  } | null = null;
  /** unreadable lines since the last event handed on */
  private unread: number[] = [];
  /**
   * the seq in the id of a record skipped for disagreeing with it, and its line, until an event after it
   * is handed on: that event's seq is past it (spent), or below it (the id was the damaged field)
   */
  private skippedId: { seq: number; line: number } | null = null;

  constructor(
    private readonly onEntry: (entry: JournalEntry, line: number) => void,
    private readonly warn: Skip,
    private readonly note: (text: string) => void,
    private readonly onDamaged: (line: number, text: string) => void,
  ) {}

  take(entry: JournalEntry, line: number, text: string): void {
    if (entry.kind !== 'event') {
      // a reset's nextSeq is past every event written before it
      this.settle(entry.kind === 'reset' ? entry.nextSeq : Infinity);
      this.onEntry(entry, line);
      return;
    }
    const { seq, id } = entry.event;
    const idSeq = seqOfId(id);
    if (idSeq !== null && idSeq !== seq) {
      this.warn(
        line,
        `seq ${seq} disagrees with its id ${id} (an id is made from its seq): a damaged record`,
        text,
      );
      this.skippedId = { seq: idSeq, line };
      return;
    }
    if (seq <= this.last) {
      // a duplicate, or a seq damaged downwards
      this.warn(line, `seq ${seq} is not after ${this.last}, the seq of a record before it`, text);
      return;
    }
    this.settle(seq);
    this.held = { entry, line, text, after: [] };
  }

  /** A line that could not be read (told on in file order, after the event held). */
  damaged(line: number, text: string): void {
    this.unread.push(line);
    if (this.held) this.held.after.push({ line, text });
    else this.onDamaged(line, text);
  }

  /** No more records. */
  end(): void {
    this.settle(Infinity);
    // the id of a damaged last record is not handed out again, unless it is too far off to be one the
    // sandbox handed out (its digits are the damage)
    const skipped = this.skippedId;
    if (skipped && skipped.seq > this.last && skipped.seq - this.last <= MAX_SEQ_GAP)
      this.onEntry({ kind: 'header', nextSeq: skipped.seq + 1 }, 0);
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
    } else {
      this.missing(held.line, seq);
      this.last = seq;
      if (this.skippedId && held.line > this.skippedId.line) this.skippedId = null;
      this.onEntry(held.entry, held.line);
    }
    for (const d of held.after) this.onDamaged(d.line, d.text);
  }

  /** The event at `line` with `seq` is handed on: name the seqs the unreadable lines before it held. */
  private missing(line: number, seq: number): void {
    if (this.unread.length === 0 || this.unread[0]! > line) return;
    const lines = this.unread.filter((l) => l <= line);
    this.unread = this.unread.filter((l) => l > line);
    const from = this.last + 1;
    const to = seq - 1;
    if (to < from || this.last === 0) return;
    const n = to - from + 1;
    const where = lines.length === 1 ? `line ${lines[0]}` : `lines ${lines[0]} to ${lines.at(-1)}`;
    this.note(
      `${where}: ${n === 1 ? `seq ${from} (1 event) is` : `seq ${from} to ${to} (${n} events) are`} missing: the unreadable ${lines.length === 1 ? 'line' : 'lines'} between seq ${this.last} and seq ${seq} held ${n === 1 ? 'it' : 'them'} (or fewer, where events were already gone before the file was last compacted)`,
    );
  }
}

/** A nextSeq a header or reset record gives, and its line. */
interface SeqClaim {
  nextSeq: number;
  line: number;
  kind: 'header' | 'reset';
}

/**
 * Believes the nextSeq of header and reset records only within bounds: one that is no safe whole number
 * >= 0, or is more than MAX_SEQ_GAP beyond the highest seq the file holds, is a damaged field, ignored and
 * named (the reset itself is kept), and ids continue after the seqs the file holds. A header comes before
 * the events it is weighed against, so the claims are weighed at the end of the file, and the largest
 * believed is handed on then, as a header; a reset is handed on in place, without its own.
 */
class NextSeqClaims {
  private highest = 0;
  private readonly claims: SeqClaim[] = [];

  constructor(
    private readonly onEntry: (entry: JournalEntry, line: number) => void,
    private readonly note: (text: string) => void,
  ) {}

  readonly take = (entry: JournalEntry, line: number): void => {
    if (entry.kind === 'event') this.highest = Math.max(this.highest, entry.event.seq);
    if (entry.kind === 'header' || entry.kind === 'reset')
      this.claims.push({ nextSeq: entry.nextSeq, line, kind: entry.kind });
    if (entry.kind === 'header') return;
    // a reset still forgets in its place; its nextSeq counts once weighed, at the end
    this.onEntry(entry.kind === 'reset' ? { ...entry, nextSeq: 0 } : entry, line);
  };

  /** No more records: the claims weighed, the ignored ones named, the largest believed handed on. */
  end(): void {
    const ignored: Array<{ claim: SeqClaim; why: string }> = [];
    let believed = 0;
    for (const claim of this.claims) {
      const why = this.doubt(claim.nextSeq);
      if (why) ignored.push({ claim, why });
      else believed = Math.max(believed, claim.nextSeq);
    }
    const next = Math.max(believed, this.highest + 1);
    const from =
      next === this.highest + 1
        ? `after seq ${this.highest}, the highest the file holds`
        : "as the file's other header and reset records say";
    for (const { claim, why } of ignored)
      this.note(
        `line ${claim.line}: ${claim.kind === 'header' ? "the header's" : "this reset record's"} nextSeq ${claim.nextSeq} ${why}: a damaged field, ignored${claim.kind === 'reset' ? ' (the reset itself is kept)' : ''}; ids continue at ${eventId(next)}, ${from}. Nothing to do: the next compaction of the file drops the line`,
      );
    if (believed > 0) this.onEntry({ kind: 'header', nextSeq: believed }, 0);
  }

  /** Why `nextSeq` cannot be one the sandbox wrote, or null when it can. */
  private doubt(nextSeq: number): string | null {
    if (!Number.isSafeInteger(nextSeq) || nextSeq < 0)
      return `is no whole number from 0 to ${Number.MAX_SAFE_INTEGER} (past that, ids are no longer exact)`;
    if (nextSeq - this.highest > MAX_SEQ_GAP)
      return `is more than 10^12 beyond seq ${this.highest}, the highest the file holds, farther than the ids any sandbox hands out`;
    return null;
  }
}

/** What the reader knows of an import still open: where it began and ended so far, and what follows. */
interface OpenImport {
  began: number;
  /** it has a reset (a replacing import) */
  reset: boolean;
  /** the first unreadable line after its last record: where its end marker would stand */
  mark: { line: number; text: string } | null;
}

/** An import the reader undoes, or keeps on a damaged commit marker: what it stored. */
interface EndedImport {
  began: number;
  reset: boolean;
  events: number;
  mark: { line: number; text: string } | null;
  /** its abort marker reads as one: its undoing was said when the marker was written */
  aborted?: true;
}

/**
 * Keeps an import all or nothing: from an import's begin marker until every open import has ended, the
 * records are held; then those of committed imports and those of no import (beacons acknowledged
 * meanwhile, resets by hand) are handed on in file order, and those of an aborted import dropped. What is
 * still held at the end of the file belongs to an import the process never finished, and is undone,
 * unless an unreadable line follows its last record: a process stopped mid-import leaves no such line
 * (a torn last line is cut off at the next start), so that line is its damaged end marker. The import is
 * then kept as committed (the end of an acknowledged import, where the answer followed it), unless the
 * line still reads as its abort marker. An import its readable abort marker ends is undone without a word:
 * that marker was written either by the import that failed, whose answer said it is undone at the next
 * start, or by the start that found it unended and said so then. It stays in the file until a compaction,
 * and repeated at every start it read as news each time; it is said once, where it happened.
 */
class ImportGate {
  private readonly open = new Map<string, OpenImport>();
  private readonly committed = new Set<string>();
  private held: StoredEntry[] = [];
  /** per import undone: where it began and how many events it had stored */
  private readonly undone = new Map<string, EndedImport>();
  /** per import kept on a damaged commit marker */
  private readonly assumed = new Map<string, EndedImport>();
  private droppedSeq = 0;

  constructor(
    private readonly onEntry: (entry: StoredEntry) => void,
    private readonly note: (text: string) => void,
  ) {}

  readonly take = (entry: JournalEntry, line: number): void => {
    if (entry.kind === 'import') {
      if (entry.marker === 'begin')
        this.open.set(entry.id, { began: line, reset: false, mark: null });
      else {
        const was = this.open.get(entry.id) ?? { began: line, reset: false, mark: null };
        this.open.delete(entry.id);
        if (entry.marker === 'commit') this.committed.add(entry.id);
        else this.undone.set(entry.id, { ...was, events: 0, mark: null, aborted: true });
      }
      if (this.open.size === 0) this.release();
      return;
    }
    const ofImport = 'importId' in entry ? entry.importId : undefined;
    if (this.open.size === 0 && (ofImport === undefined || this.committed.has(ofImport)))
      return this.onEntry(entry);
    this.held.push(entry);
    if (ofImport === undefined || this.undone.has(ofImport) || this.committed.has(ofImport)) return;
    let state = this.open.get(ofImport);
    if (!state) this.open.set(ofImport, (state = { began: line, reset: false, mark: null })); // its begin was lost to damage
    // an unreadable line before this record was not the import's end
    if (state.mark && state.mark.line <= line) state.mark = null;
    if (entry.kind === 'reset') state.reset = true;
  };

  /** An unreadable line, in file order. */
  readonly damaged = (line: number, text: string): void => {
    for (const state of this.open.values())
      state.mark ??= { line, text: text.length > 200 ? '' : text };
  };

  /** No more records; answers the imports undone for want of an end marker. */
  end(): string[] {
    const unended: string[] = [];
    for (const [id, state] of this.open) {
      // a marker is short; an abort marker that still reads as one undoes its import
      const abort = state.mark && /"?abort"?\s*:/.test(state.mark.text);
      if (state.mark && !abort) {
        this.committed.add(id);
        this.assumed.set(id, { ...state, events: 0 });
      } else {
        this.undone.set(id, { ...state, events: 0 });
        if (!state.mark) unended.push(id);
      }
    }
    this.open.clear();
    this.release();
    for (const [, { began, events, reset, mark }] of this.assumed) {
      const legible = mark && /"?commit"?\s*:/.test(mark.text);
      this.note(
        `line ${mark!.line}: this unreadable line stands where the commit marker of the import begun at line ${began} would be (after its last record${legible ? ', and it still reads as one' : ''}): the import is taken as completed and acknowledged, ${stored(events, reset)} kept${legible ? '' : "; if it was the import's abort marker instead, that import had failed and was answered so: import the file again, with replace"}`,
      );
    }
    for (const [, { began, events, reset, mark, aborted }] of this.undone)
      if (!aborted)
        this.note(
          `line ${began}: an import that did not complete (${mark ? `it ended with an abort marker, line ${mark.line}, damaged` : 'the process stopped during it, or it failed'}) was undone: ${stored(events, reset)} not restored; beacons received meanwhile are`,
        );
    // ids never repeat: the next event comes after the undone ones
    if (this.droppedSeq > 0) this.onEntry({ kind: 'header', nextSeq: this.droppedSeq + 1 });
    return unended;
  }

  private release(): void {
    const held = this.held;
    this.held = [];
    for (const entry of held) {
      const id = 'importId' in entry ? entry.importId : undefined;
      if (id === undefined || this.committed.has(id)) {
        if (id !== undefined && entry.kind === 'event') {
          const assumed = this.assumed.get(id);
          if (assumed) assumed.events++;
        }
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

/** "its 3 events and its reset are" */
function stored(events: number, reset: boolean): string {
  const what = `its ${events} event${events === 1 ? '' : 's'}${reset ? ' and its reset' : ''}`;
  return `${what} ${events === 1 && !reset ? 'is' : 'are'}`;
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

const RECORD_START = /^\{"(id|reset|journal|import|crc)":/;

/** One line → an entry, or the reason it is unreadable. */
export function parseLine(line: string): JournalEntry | string {
  const { text, problem: changed } = unseal(line);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not valid JSON (torn or garbled write)';
  }
  if (changed) return `${changed} (${readsAs(value)})`;
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
      const problem = recordedEventProblem(event, true) ?? seqProblem(event.seq);
      return problem
        ? `imported event ${problem}`
        : { kind: 'event', event: event as unknown as RecordedEvent, importId: v.import };
    }
    const m = v.import as { id?: unknown; begin?: unknown; commit?: unknown; abort?: unknown };
    const marker = m?.begin ? 'begin' : m?.commit ? 'commit' : m?.abort ? 'abort' : null;
    if (typeof m?.id !== 'string' || !marker)
      return 'import marker without id and begin/commit/abort';
    return { kind: 'import', id: m.id, marker };
  }
  const problem = recordedEventProblem(v, true) ?? seqProblem(v.seq);
  return problem
    ? `event ${problem}`
    : { kind: 'event', event: v as unknown as RecordedEvent, line: text };
}

/**
 * What a record whose checksum does not match reads as now, for the warning: which event (its id and seq,
 * which may be the changed bytes themselves), and what to do.
 */
function readsAs(value: unknown): string {
  const v = (value ?? {}) as Record<string, unknown>;
  const event = (typeof v.import === 'string' ? v.event : v) as Record<string, unknown> | null;
  if ('reset' in v) return 'it reads as a reset record';
  const what =
    'journal' in v
      ? 'the header'
      : typeof v.import === 'object'
        ? 'an import marker'
        : typeof event?.id === 'string'
          ? `event ${event.id}, seq ${JSON.stringify(event.seq)}`
          : 'a record';
  return `it reads as ${what}, not to be trusted: not loaded; the file's other records are. A changed byte is the disk's fault or a hand's: check the disk, and restore the file from a backup to have the record back; else nothing to do, the next compaction drops the line`;
}

/** A seq no id can be made from exactly (see MAX_SEQ): a damaged one, or one an older version handed out past 2^53. */
function seqProblem(seq: unknown): string | null {
  return (seq as number) > MAX_SEQ
    ? `field seq ${seq as number} is past 10^15, beyond any seq the sandbox hands out (and past 2^53 ids are no longer exact)`
    : null;
}
