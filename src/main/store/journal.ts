// The append-only NDJSON event journal with group commit: every record queued in one tick goes out in one
// write(), and each append is acknowledged only once an fdatasync that began after its write returned (on
// libuv's pool, one at a time: what is written while one runs waits for the next), so neither `kill -9` nor
// a power cut loses anything acknowledged. A background compaction rewrites the file when it holds far more
// lines than retention keeps. Every line carries its record's checksum (record-seal.ts): a start skips and
// names a record whose bytes changed on disk, as it does a torn one.
import {
  close,
  closeSync,
  existsSync,
  fdatasync,
  fdatasyncSync,
  fstatSync,
  fsync,
  ftruncateSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import type { RecordedEvent, UpstreamAnswer } from '../../shared/events';
import type { EventLog, EventPersistence } from './event-log';
import {
  readJournal,
  type ImportedEventRecord,
  type ImportMarker,
  type JournalHeader,
  type ReadResult,
  type ResetRecord,
} from './journal-reader';
import { keepAside, keptAsideWarnings, onlyDamage, seqsHeld, tailWarning } from './journal-tail';
import { eventId } from './event-id';
import { lockDataDir } from './dir-lock';
import { dataDirFailure } from './data-dir-error';
import { removeTempFiles, syncDir } from './durable';
import { seal } from './record-seal';
import { makePrivateDir, PRIVATE_FILE } from './private-files';
import { beforeEachSlice, turn } from '../slices';

export const JOURNAL_FILE = 'events.ndjson';

/**
 * Where the sandbox's durable writes (durable.ts) leave temp files when killed: the data dir, its catalogs
 * and its HTTPS pair. Not uploads/: its own sweep at start (indexing/upload-stash.ts) removes them there,
 * and says which feed's request each one was, which a sweep here, first, would leave it nothing to say.
 */
const TEMP_FOLDERS = ['', 'catalogs', 'tls'];

export interface JournalOptions {
  /** compaction starts when the file holds more than 2 × retained + this many lines */
  compactSlack?: number;
  /** events written per slice of a compaction before yielding to ingest */
  compactChunk?: number;
  /** the write(2) used for appends (fault injection in tests: a disk that fills up mid-write) */
  writeSync?: WriteFn;
  /** the fdatasync(2) that acknowledges appends (fault injection in tests: a slow or failing disk) */
  datasync?: SyncFn;
}

type SyncFn = (fd: number, done: (err: NodeJS.ErrnoException | null) => void) => void;

/** Told each record of a reloaded journal as the store takes it (the timelines rebuilt in step). */
export interface RestoreHooks {
  /** the real service's answer to a stored event (kept in its own file), put on it before it is stored */
  upstream?(eventId: string): UpstreamAnswer | undefined;
  /** an event, once stored (retention applied) */
  event?(event: RecordedEvent): void;
  /** a reset record, once applied to the store */
  reset?(siteId: string | undefined): void;
}

interface Pending {
  line: string;
  resolve: () => void;
  reject: (err: Error) => void;
}

export class Journal implements EventPersistence {
  private pending: Pending[] = [];
  private flushScheduled = false;
  /** written, waiting for an fdatasync that began after their write */
  private unsynced: Pending[] = [];
  /** the fdatasync under way, if any, and the records it acknowledges */
  private syncing: Promise<void> | null = null;
  private syncBatch: Pending[] = [];
  /** a compaction renamed a new file into place: the next sync makes the directory's entry durable too */
  private dirUnsynced = false;
  /** lines in the file (records, header, resets), to decide when to compact */
  private lines: number;
  /** while a compaction runs: every line written to the old file since its snapshot */
  private tail: string[] | null = null;
  private compaction: Promise<void> | null = null;
  private closed = false;
  /** write() calls and compactions so far: group commit is observable in tests and the benchmark */
  readonly stats = { writes: 0, syncs: 0, records: 0, compactions: 0, writtenDuringCompaction: 0 };
  private readonly compactSlack: number;
  private readonly compactChunk: number;
  private readonly write: WriteFn;
  private readonly datasync: SyncFn;
  /** bytes in the file, so a failed write can be cut back off */
  private bytes: number;
  /** a failed write left part of a line that could not be cut off: the next write starts a fresh line */
  private lineOpen = false;
  /** imports begun and not committed (see writeImport) */
  private openImports = 0;
  /** holds of resets under way (see holdCompaction) */
  private holds = 0;
  /** a compaction failed: the next waits until the file holds this many lines */
  private retryAt = 0;

  private constructor(
    readonly file: string,
    private fd: number,
    lines: number,
    private readonly log: EventLog,
    private readonly loadWarnings: string[],
    private readonly releaseLock: () => void,
    options: JournalOptions,
  ) {
    this.lines = lines;
    this.bytes = fstatSync(fd).size;
    this.compactSlack = options.compactSlack ?? 1000;
    this.write = options.writeSync ?? writeSync;
    this.datasync = options.datasync ?? fdatasync;
    this.compactChunk = options.compactChunk ?? 500; // ~1 ms of JSON per slice for typical events: compaction barely moves ingest p99
  }

  /** Reload `<dir>/events.ndjson` into `log`, then journal its future appends and resets. */
  static async open(dir: string, log: EventLog, options: JournalOptions = {}): Promise<Journal> {
    return Journal.load(dir, await Journal.lock(dir), log, options);
  }

  /**
   * The data dir made and locked for this process, the temp files a killed one left swept; the function
   * given back releases it.
   */
  static async lock(dir: string): Promise<() => void> {
    await makePrivateDir(dir);
    const release = lockDataDir(dir);
    // once locked (another sandbox's writes under way are not ours to remove), before any area writes
    await removeTempFiles(dir, TEMP_FOLDERS);
    return release;
  }

  /**
   * Reload `<dir>/events.ndjson` (locked by `lock`, released when the journal closes or the load fails)
   * into `log`, each record told to `restored` once the log took it; then journal its future appends.
   */
  static async load(
    dir: string,
    release: () => void,
    log: EventLog,
    options: JournalOptions = {},
    restored: RestoreHooks = {},
  ): Promise<Journal> {
    try {
      const file = path.join(dir, JOURNAL_FILE);
      // A compaction cut short by a crash leaves its temp file; the journal itself is still whole.
      rmSync(`${file}.compact`, { force: true });
      const read = await readJournal(file, (entry) => {
        if (entry.kind === 'event') {
          // the line is the event's own JSON (this journal wrote it) unless it carries an answer inline
          const line = entry.event.upstream === undefined ? entry.line : undefined;
          const upstream = restored.upstream?.(entry.event.id);
          if (upstream !== undefined) entry.event.upstream = upstream;
          log.restore(entry.event, line);
          restored.event?.(entry.event);
        } else if (entry.kind === 'reset') {
          log.restoreReset(entry.siteId, entry.nextSeq);
          restored.reset?.(entry.siteId);
        } else log.bumpSeq(entry.nextSeq);
      });
      const warnings = [...keptAsideWarnings(file), ...read.warnings];
      const { fd, lines: kept } = openForAppend(file, read, log, warnings);
      let lines = kept;
      // an import undone for want of its end stays undone: a line damaged after it later on could
      // otherwise read as its commit marker
      for (const id of read.unended) {
        const marker: ImportMarker = { import: { id, abort: true } };
        writeAll(fd, `${seal(JSON.stringify(marker))}\n`);
        lines++;
      }
      // what the start wrote or cut (a header, abort markers, a damaged end) is on disk before anything new
      fdatasyncSync(fd);
      const journal = new Journal(file, fd, lines, log, warnings, release, options);
      log.attach(journal);
      journal.maybeCompact();
      return journal;
    } catch (err) {
      release();
      throw err;
    }
  }

  writeEvent(event: RecordedEvent, importId?: string): Promise<void> {
    // an import's event is wrapped with its import's id: the reader keeps it only once the import committed
    const record: ImportedEventRecord | RecordedEvent =
      importId === undefined ? event : { import: importId, event };
    return this.enqueue(JSON.stringify(record));
  }

  writeReset(
    siteId: string | undefined,
    nextSeq: number,
    importId?: string,
    resetId?: string,
  ): Promise<void> {
    const record: ResetRecord = {
      reset: { siteId: siteId ?? null },
      nextSeq,
      ...(importId !== undefined && { import: importId }),
      ...(resetId !== undefined && { id: resetId }),
    };
    return this.enqueue(JSON.stringify(record));
  }

  /**
   * No compaction until the function given back is called, once any running one ended; with the file's
   * length then. A reset holds it from its reset.json to its end: a start looks for the reset's record
   * after that length (reset-commit.ts), which a compaction would move or drop.
   */
  async holdCompaction(): Promise<{ bytes: number; release(): void }> {
    this.holds++;
    await this.settled();
    let released = false;
    return {
      bytes: this.bytes,
      release: () => {
        if (released) return;
        released = true;
        this.holds--;
        this.maybeCompact();
      },
    };
  }

  /**
   * An import is all or nothing across a crash: its records sit between a begin and a commit marker, and
   * the reader undoes an import it finds no commit for (beacons written meanwhile stay). No compaction runs
   * while one is open: it would write the import's events so far as plain records. An aborted import
   * keeps compaction off until the next start, which undoes it (memory still holds its events till then).
   */
  async writeImport(id: string, marker: 'begin' | 'commit' | 'abort'): Promise<void> {
    const record: ImportMarker = { import: { id, [marker]: true } };
    if (marker === 'begin') this.openImports++;
    try {
      await this.enqueue(JSON.stringify(record));
    } finally {
      if (marker === 'commit') this.openImports--;
    }
    if (marker === 'commit') this.maybeCompact();
  }

  warnings(): string[] {
    return [...this.loadWarnings];
  }

  /** Write what is queued, abandon a running compaction (the journal is whole without it), close the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.leaveSlices();
    await this.compaction?.catch(() => undefined);
    while (this.syncing || this.unsynced.length > 0) {
      this.startSync();
      await this.syncing;
    }
    closeSync(this.fd);
    this.releaseLock();
  }

  /** true while a background compaction is running (for tests) */
  get compacting(): boolean {
    return this.compaction !== null;
  }

  /** resolves when no compaction is running (for tests and orderly shutdown) */
  async settled(): Promise<void> {
    while (this.compaction) await this.compaction;
  }

  /** Queue a record's JSON for the next group commit, sealed with its checksum (record-seal.ts). */
  private enqueue(json: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`the events journal ${this.file} is closed`));
    const line = seal(json);
    return new Promise((resolve, reject) => {
      this.pending.push({ line, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        // setImmediate runs after the poll phase: every request parsed in this tick joins one write().
        setImmediate(() => this.flush());
      }
    });
  }

  /** beacons wait for the group commit: long work in slices runs it before each slice (see slices.ts) */
  private readonly leaveSlices = beforeEachSlice(() => this.flush());

  /** Write what is queued; true when there was something. */
  private flush(): boolean {
    this.flushScheduled = false;
    const batch = this.pending;
    if (batch.length === 0) return false;
    this.pending = [];
    let data = '';
    for (const p of batch) data += `${p.line}\n`;
    try {
      this.bytes += writeAll(this.fd, this.lineOpen ? `\n${data}` : data, this.write);
      this.lineOpen = false;
    } catch (err) {
      // e.g. ENOSPC: nothing of this batch is acknowledged, so none of it may come back after a restart.
      try {
        ftruncateSync(this.fd, this.bytes);
      } catch {
        this.lineOpen = true; // the fragment stays, as one garbled line the reader skips
      }
      // said as the data dir's problem (which file, why, the fix): answered 503, not as a bug
      const reason = dataDirFailure(this.file, err, 'write');
      for (const p of batch) p.reject(reason);
      return true;
    }
    this.lines += batch.length;
    this.stats.writes++;
    this.stats.records += batch.length;
    if (this.tail) {
      this.tail.push(data);
      this.stats.writtenDuringCompaction += batch.length;
    }
    for (const p of batch) this.unsynced.push(p);
    this.startSync();
    this.maybeCompact();
    return true;
  }

  /**
   * Acknowledge what is written once it is on disk: one fdatasync at a time, off the loop; the records
   * written while it runs wait for the next, so a burst pays one sync per round, not one per record. A
   * failed sync (EIO) refuses its records, said as the data dir's problem; they are in the file and may
   * come back after a restart, but none was acknowledged.
   */
  private startSync(): void {
    if (this.syncing || this.unsynced.length === 0) return;
    const batch = this.unsynced;
    this.unsynced = [];
    this.syncBatch = batch;
    const fd = this.fd;
    const dir = this.dirUnsynced;
    this.dirUnsynced = false;
    this.syncing = (async () => {
      try {
        await new Promise<void>((resolve, reject) =>
          this.datasync(fd, (err) => (err ? reject(err) : resolve())),
        );
        if (dir) await syncDir(path.dirname(this.file));
        this.stats.syncs++;
        for (const p of batch) p.resolve();
      } catch (err) {
        if (dir) this.dirUnsynced = true;
        const reason = dataDirFailure(this.file, err, 'write');
        for (const p of batch) p.reject(reason);
      } finally {
        this.syncing = null;
        this.syncBatch = [];
        this.startSync();
      }
    })();
  }

  private maybeCompact(): void {
    if (this.compaction || this.closed || this.openImports > 0 || this.holds > 0) return;
    if (this.lines <= 2 * this.log.size() + this.compactSlack) return;
    // after a failure (a full disk), not again until the file has grown by another slack's worth: a
    // compaction reads every retained event, and every beacon's write would start one
    if (this.lines < this.retryAt) return;
    // Start on the next macrotask: by then every written record has been applied to the log (its
    // continuations are microtasks), so the snapshot equals what the file holds, minus dropped events.
    let swapped = false;
    this.compaction = turn()
      .then(() => this.compact())
      .then((done) => {
        swapped = done;
      })
      .catch((err: unknown) => {
        this.retryAt = this.lines + this.compactSlack;
        console.error(
          `search-sandbox: compacting ${this.file} failed (the journal is intact; tried again after ${this.compactSlack} more records):`,
          err,
        );
      })
      .finally(() => {
        this.tail = null;
        this.compaction = null;
        // what was written while it ran may be over the bound already: the next one starts now, not at
        // the next beacon
        if (swapped) this.maybeCompact();
      });
  }

  /** Rewrite the file as the store holds it; true once the new file took the old one's place. */
  private async compact(): Promise<boolean> {
    if (this.closed || this.openImports > 0 || this.holds > 0) return false;
    const snapshot = this.log.snapshot();
    // records written and not yet acknowledged are not in the log (it takes a record once it is durable):
    // the compacted file gets them from the old one, with what is written from now on
    let unacknowledged = '';
    for (const p of [...this.syncBatch, ...this.unsynced]) unacknowledged += `${p.line}\n`;
    this.tail = unacknowledged === '' ? [] : [unacknowledged];
    const tmp = `${this.file}.compact`;
    const fd = openSync(tmp, 'w', PRIVATE_FILE);
    let swapped = false;
    try {
      writeAll(fd, `${seal(JSON.stringify(header(this.log.peekNextSeq())))}\n`);
      for (let i = 0; i < snapshot.length; i += this.compactChunk) {
        let data = '';
        // the store keeps each event's JSON as it was written, without its checksum: sealed again here
        for (const line of snapshot.lines(i, i + this.compactChunk)) data += `${seal(line)}\n`;
        writeAll(fd, data);
        // Yield so ingest keeps flowing; its writes go to the old file and are collected in `tail`.
        await turn();
        if (this.closed) return false;
      }
      // The rewritten file reaches the disk on a thread of libuv's pool, not the loop's (tens of ms for a
      // big journal, while beacons are answered); what is flushed meanwhile goes to the old file and `tail`.
      await new Promise<void>((resolve, reject) =>
        fsync(fd, (err) => (err ? reject(err) : resolve())),
      );
      if (this.closed) return false;
      // The swap runs in one synchronous step, so no flush can interleave between tail and rename. The
      // tail is synced before the rename: records acknowledged by a sync of the old file are on disk in
      // the new one whichever name a power cut leaves; the next sync makes the rename itself durable.
      const tail = this.tail ?? [];
      for (const data of tail) writeAll(fd, data);
      if (tail.length > 0) fdatasyncSync(fd);
      renameSync(tmp, this.file);
      swapped = true;
      this.dirUnsynced = true;
      // closing the replaced file frees its blocks, off the loop too, once a sync of it under way ended
      const replaced = this.fd;
      const closeReplaced = () =>
        close(replaced, (err) => {
          if (err) console.error(`search-sandbox: closing the replaced ${this.file} failed:`, err);
        });
      if (this.syncing) void this.syncing.then(closeReplaced);
      else closeReplaced();
      this.fd = fd;
      this.bytes = fstatSync(fd).size;
      this.lineOpen = false;
      this.stats.compactions++;
      this.lines = 1 + snapshot.length + tail.reduce((n, data) => n + countLines(data), 0);
      return true;
    } finally {
      if (!swapped) {
        closeSync(fd);
        rmSync(tmp, { force: true });
      }
    }
  }
}

/**
 * The journal read back, opened for appending: a damaged end kept aside and cut off (what it cost told in
 * `warnings`, and the seqs it may have held never handed out: a header line after it says so, should the
 * process stop before its next record), a header written into a new or emptied file. A file that holds no
 * record, only damage, is refused (nothing changed). Answers the lines in the file.
 */
function openForAppend(
  file: string,
  read: ReadResult,
  log: EventLog,
  warnings: string[],
): { fd: number; lines: number } {
  const existed = existsSync(file);
  const fd = openSync(file, 'a+', PRIVATE_FILE);
  try {
    const size = fstatSync(fd).size;
    if (size > 0 && read.records === 0 && read.tail?.kind !== 'torn')
      throw onlyDamage(file, size, read.tail?.kind ?? 'garbage');
    if (existed && size === 0)
      warnings.push(
        `events journal ${file} was empty (not even its header line): a new journal was started in it; if it held events, the disk lost them, and ids start again at ${eventId(log.peekNextSeq())}`,
      );
    else if (read.records > 0 && !read.header)
      warnings.push(
        `events journal ${file} has no header line (its first line is not one): the ids handed out before its first record are unknown; ids continue after the highest seq it holds`,
      );
    let bumped = false;
    if (read.tail) {
      const damaged = size - read.goodLength;
      const aside = keepAside(file, fd, read.goodLength, size);
      const next = log.peekNextSeq();
      warnings.push(
        `events journal ${file}, ${tailWarning(read.tail.kind, read.tail.line, damaged, next, aside)}`,
      );
      log.bumpSeq(next + seqsHeld(damaged));
      bumped = true;
      ftruncateSync(fd, read.goodLength);
    }
    let lines = read.lines;
    if (read.goodLength === 0 || bumped) {
      writeAll(fd, `${seal(JSON.stringify(header(log.peekNextSeq())))}\n`);
      lines = read.goodLength === 0 ? 1 : lines + 1;
    } else if (read.missingNewline) {
      writeAll(fd, '\n');
    }
    return { fd, lines };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

function header(nextSeq: number): JournalHeader {
  return { journal: 'search-sandbox events', version: 1, nextSeq };
}

/** write() until every byte is out: a single call may write less on some file systems. */
type WriteFn = (fd: number, buffer: Buffer, offset: number, length: number) => number;

/** Returns the number of bytes written. */
function writeAll(fd: number, data: string, write: WriteFn = writeSync): number {
  const buf = Buffer.from(data, 'utf8');
  let off = 0;
  while (off < buf.length) off += write(fd, buf, off, buf.length - off);
  return buf.length;
}

function countLines(data: string): number {
  let n = 0;
  for (let i = data.indexOf('\n'); i !== -1; i = data.indexOf('\n', i + 1)) n++;
  return n;
}
