// A reset is one unit across the files it touches (the events journal, the search responses, the feeds
// and outbox, the uploads and catalogs). Each store first writes its new state aside, beside its live
// file under a name of the reset's own; then the reset's record (reset.json) names those files and the
// files the reset removes, with where the journal ended; then the journal's reset record, carrying the
// reset's id, is written: the commit point. Then each file is put in place, each removal made, and
// reset.json removed. A start that finds reset.json (the process stopped in between) looks in the journal
// after where it ended for the reset's record: there, the reset committed, and the start finishes it
// (what is still aside is put in place, what is still there removed); not there, it never committed, and
// what was written aside is removed. Either way the stores open as all before or all after the reset.
import { readdir, readFile, rename, rm, open } from 'node:fs/promises';
import path from 'node:path';
import { dataDirFailure } from './data-dir-error';
import { removeFile, replaceFile, syncDir } from './durable';

export const RESET_FILE = 'reset.json';

/** The files a reset changes besides the journal (absolute paths inside the data directory). */
export interface ResetFiles {
  /** replacements written aside (`asideFor`): each is put in place of its file */
  place: Array<{ aside: string; file: string }>;
  /** files the reset removes (those not there are skipped) */
  remove: string[];
}

/** What reset.json holds: the files relative to the data directory, so that a moved directory still reads. */
interface ResetRecordFile {
  id: string;
  /** the journal's length before the reset's record: the record is after it, if it was written */
  journalBytes: number;
  place: Array<{ aside: string; file: string }>;
  remove: string[];
}

const ASIDE = /^\..+\.reset-[0-9a-f-]+$/;

/** Where a store writes its file's new state for reset `resetId`: beside it, hidden, named after the reset. */
export function asideFor(file: string, resetId: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.reset-${resetId}`);
}

/** Write reset.json (on disk before it resolves): what a start finishes should the journal hold the reset. */
export async function recordReset(
  dataDir: string,
  id: string,
  journalBytes: number,
  files: ResetFiles,
): Promise<void> {
  const rel = (file: string) => path.relative(dataDir, file);
  const record: ResetRecordFile = {
    id,
    journalBytes,
    place: files.place.map(({ aside, file }) => ({ aside: rel(aside), file: rel(file) })),
    remove: files.remove.map(rel),
  };
  await replaceFile(path.join(dataDir, RESET_FILE), `${JSON.stringify(record, null, 2)}\n`);
}

/** The reset is complete on disk: reset.json goes. */
export function endReset(dataDir: string): Promise<void> {
  return removeFile(path.join(dataDir, RESET_FILE));
}

/**
 * At start, before the journal or any store is read: finish the reset reset.json names if the journal
 * holds its record, else remove what it wrote aside; either way reset.json goes, with asides of resets that
 * stopped before writing it. Answers what was done (a start-up warning), or null when there was nothing.
 */
export async function recoverReset(dataDir: string, journal: string): Promise<string | null> {
  const file = path.join(dataDir, RESET_FILE);
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw dataDirFailure(file, err, 'read');
  });
  const record = text === null ? null : parseRecord(text);
  const abs = (name: string) => path.resolve(dataDir, name);
  const place = (record?.place ?? []).map((p) => ({ aside: abs(p.aside), file: abs(p.file) }));
  let said: string | null = null;
  try {
    if (record && (await journalHolds(journal, record))) {
      for (const p of place) await rename(p.aside, p.file).catch(notThere);
      for (const name of record.remove) await rm(abs(name), { force: true });
      for (const dir of new Set([...place.map((p) => p.file), ...record.remove.map(abs)]))
        await syncDir(path.dirname(dir));
      said = `a reset stopped midway (the process ended after it was stored) was finished at start-up: ${RESET_FILE} named what it had not done yet`;
    } else if (text !== null)
      said = `a reset stopped before it was stored (the process ended during it) changed nothing: what it had written aside was removed at start-up`;
    // what a reset that did not commit, or stopped before it wrote reset.json, wrote aside
    for (const name of await readdir(dataDir))
      if (ASIDE.test(name)) await rm(path.join(dataDir, name), { force: true });
  } catch (err) {
    throw dataDirFailure((err as { path?: string }).path ?? dataDir, err, 'write');
  }
  if (text !== null) await removeFile(file);
  return said;
}

function notThere(err: NodeJS.ErrnoException): void {
  // put in place before the process stopped
  if (err.code !== 'ENOENT') throw err;
}

function parseRecord(text: string): ResetRecordFile | null {
  try {
    const v = JSON.parse(text) as ResetRecordFile;
    const ok =
      typeof v.id === 'string' &&
      typeof v.journalBytes === 'number' &&
      Array.isArray(v.place) &&
      Array.isArray(v.remove);
    return ok ? v : null;
  } catch {
    // torn as it was written: replaceFile writes it whole, so this is a hand's edit; nothing committed by it
    return null;
  }
}

/** Whether the journal holds the reset's record after where it ended when reset.json was written. */
async function journalHolds(journal: string, record: ResetRecordFile): Promise<boolean> {
  const handle = await open(journal, 'r').catch(() => null);
  if (!handle) return false;
  try {
    const { size } = await handle.stat();
    if (size <= record.journalBytes) return false;
    const tail = Buffer.alloc(size - record.journalBytes);
    await handle.read(tail, 0, tail.length, record.journalBytes);
    return tail
      .toString('utf8')
      .split('\n')
      .some((line) => resetId(line) === record.id);
  } finally {
    await handle.close();
  }
}

function resetId(line: string): string | undefined {
  if (!line.startsWith('{"reset"')) return undefined;
  try {
    return (JSON.parse(line) as { id?: string }).id;
  } catch {
    return undefined; // torn: the reader cuts it off, so the reset is not in the journal
  }
}
