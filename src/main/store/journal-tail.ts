// The end of the events journal when it is not a whole line: what it is (the start of a record, a zeroed
// disk block, bytes that are no record), what it cost, and where its bytes are kept. The start of a
// record is a write a crash cut short (never acknowledged: an append is acknowledged once synced), or the
// file itself cut there (a copy or restore that stopped early, a disk fault), and then the records after
// it are gone too: the file cannot tell which, so the warning says both. A zeroed block or garbage may
// have held many records; the next seq skips as many as those bytes could have held, so that none of
// their ids is handed out twice. The bytes are moved aside before the file is cut, so the evidence
// outlives the start that found it, and later starts say it is there.
import { closeSync, openSync, readdirSync, readSync, writeSync, fsyncSync } from 'node:fs';
import path from 'node:path';
import { dataDirFailure, DataDirError } from './data-dir-error';
import { eventId } from './event-id';
import { PRIVATE_FILE } from './file-modes';

/**
 * Fewer bytes than the shortest event record the journal writes (id, seq, receivedAt, siteId, category,
 * event, path, accepted, status, errors and body: about 170): the most events a damaged stretch can have held
 * is its length divided by this.
 */
const MIN_RECORD_BYTES = 128;

export type TailKind = 'torn' | 'zeroed' | 'garbage';

/** What the unfinished last line is: a record's start (a write cut short), zeros, or no record at all. */
export function tailKind(rest: Buffer): TailKind {
  if (rest.includes(0)) return 'zeroed';
  const start = rest.subarray(0, 2).toString('latin1');
  // eslint-disable-next-line no-control-regex -- a record holds no raw control bytes (JSON escapes them)
  if (start === '{"' && !/[\u0000-\u001f]/.test(rest.toString('utf8'))) return 'torn';
  return 'garbage';
}

/** How many seqs `bytes` of damage could have held (at least one: the record it was). */
export function seqsHeld(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / MIN_RECORD_BYTES));
}

/** The name the damaged end of `file` is kept under, beside it. */
function asideName(file: string, now: Date): string {
  return `${file}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
}

/**
 * Copy bytes `from`..`to` of the open journal `fd` to a file beside it (fsynced), before the journal is
 * cut back to `from`: the file's name, or a DataDirError (a full disk: the sandbox does not start, and
 * nothing was cut).
 */
export function keepAside(file: string, fd: number, from: number, to: number): string {
  const aside = asideName(file, new Date());
  const data = Buffer.alloc(to - from);
  let read = 0;
  while (read < data.length) {
    const n = readSync(fd, data, read, data.length - read, from + read);
    if (n === 0) break;
    read += n;
  }
  let out: number | undefined;
  try {
    out = openSync(aside, 'wx', PRIVATE_FILE);
    for (let off = 0; off < read;) off += writeSync(out, data, off, read - off);
    fsyncSync(out);
  } catch (err) {
    throw dataDirFailure(aside, err, 'write');
  } finally {
    if (out !== undefined) closeSync(out);
  }
  return aside;
}

/** What a damaged end cost, in the warning's words; `nextSeq`: the first seq it may have held. */
export function tailWarning(
  kind: TailKind,
  line: number,
  bytes: number,
  nextSeq: number,
  aside: string,
): string {
  const held = seqsHeld(bytes);
  const from = eventId(nextSeq);
  const kept = `its ${bytes} bytes were cut off and kept in ${aside}; ids continue at ${eventId(nextSeq + held)}`;
  if (kind === 'torn')
    return `line ${line}: incomplete record at the end of the file: either a write cut short by a crash (not acknowledged: appends are acknowledged once on disk), or the file was cut here (a copy or restore that stopped early, a disk fault) and the records after it are lost too, their number unknown; ${kept} (should records after it be lost, ids they had may be handed out again)`;
  const what =
    kind === 'zeroed'
      ? 'zero bytes (a zeroed disk block: the disk lost what was written there, not a write the sandbox stopped in)'
      : 'bytes that are no record (a damaged disk or a hand, not a write the sandbox stopped in)';
  return `line ${line}: the end of the file is ${what}: up to ${bytes} bytes of records are lost, seqs from ${nextSeq} on (${from} and up to ${held - 1} after it) may be lost; ${kept}`;
}

/** A journal that holds no record, only damage: refused, since the ids it handed out cannot be known. */
export function onlyDamage(file: string, bytes: number, kind: TailKind): DataDirError {
  const what = kind === 'zeroed' ? `only zero bytes (${bytes})` : `${bytes} bytes and no record`;
  return new DataDirError(
    file,
    `holds ${what}: the disk lost the journal, so the events it held and the ids it handed out are unknown`,
    'restore it from a backup, or move it away to start a new journal (ids start again at ev_000000001; the sandbox changed nothing)',
  );
}

/** The damaged ends kept beside `file` by earlier starts, as warnings (they stay until the user removes them). */
export function keptAsideWarnings(file: string): string[] {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.damaged-`;
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(prefix));
  } catch {
    return [];
  }
  return names
    .sort()
    .map(
      (n) =>
        `events journal ${file}: ${path.join(dir, n)} holds the damaged end cut off the journal at an earlier start (what it cost was said then); read it, then delete it`,
    );
}
