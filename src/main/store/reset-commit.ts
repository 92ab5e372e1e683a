// A reset is one unit across the files it touches (the events journal, the search responses, the feeds
// and outbox, the uploads and catalogs). Each store first writes its new state aside, beside its live
// file under a name of the reset's own; then the reset's record (reset.json) names those files and the
// files the reset removes, with where the journal ended; then the journal's reset record, carrying the
// reset's id, is written: the commit point. Then each file is put in place, each removal made, and
// reset.json removed. A start that finds reset.json (the process stopped in between) looks in the journal
// after where it ended for the reset's record: there, the reset committed, and the start finishes it
// (what is still aside is put in place, what is still there removed); not there, it never committed, and
// what was written aside is removed. Either way the stores open as all before or all after the reset.
import { lstat, open, readdir, readFile, realpath, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { dataDirFailure } from './data-dir-error';
import { isTempName, removeFile, replaceFile, syncDir } from './durable';
import { unseal } from './record-seal';

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
  let said: string | null = null;
  try {
    if (record && (await journalHolds(journal, record)))
      said = await finishReset(dataDir, file, record);
    else if (text !== null)
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

/**
 * The committed reset `record` names, finished: what is still aside put in place, what is still there
 * removed. Only what a reset of the sandbox's can name is touched (`confine`): the rest is named in the
 * warning answered, and left alone.
 */
async function finishReset(
  dataDir: string,
  file: string,
  record: ResetRecordFile,
): Promise<string> {
  const { place, remove, refused } = await confine(dataDir, record);
  for (const p of place) await rename(p.aside, p.file).catch(notThere);
  for (const r of remove) {
    const problem = await removeNamed(r.file);
    if (problem) refused.push(`${JSON.stringify(r.name)} in remove: ${problem}`);
  }
  const touched = [...place.map((p) => p.file), ...remove.map((r) => r.file)];
  for (const dir of new Set(touched.map((f) => path.dirname(f)))) await syncDir(dir);
  const finished = `a reset stopped midway (the process ended after it was stored) was finished at start-up: ${RESET_FILE} named what it had not done yet`;
  if (refused.length === 0) return finished;
  return `${finished}. ${file} also named what no reset of the sandbox changes, which was left alone: ${refused.join('; ')}. A reset only puts in place the files it wrote aside beside them, and removes files in uploads/ and catalogs/: this ${RESET_FILE} was edited, or came with a data directory from elsewhere (check where it came from)`;
}

/** The files a reset may remove: the uploads and catalogs of the feeds it forgets. */
const REMOVED_FROM = ['uploads', 'catalogs'];

/** A name of the sandbox's own making: a reset's aside, a durable write's temp file. */
function ownName(name: string): boolean {
  return ASIDE.test(name) || isTempName(name);
}

interface Confined {
  place: Array<{ aside: string; file: string }>;
  remove: Array<{ name: string; file: string }>;
  /** each entry refused, and why */
  refused: string[];
}

/**
 * What reset.json names, as paths in the data directory, with what a reset of the sandbox's never names
 * refused: anything absolute or outside the directory (reached by `..` or through a linked folder); in
 * `place`, anything but the reset's own aside beside its file (asideFor); in `remove`, anything but a file
 * in uploads/ or catalogs/ (or a name of the sandbox's own making there or at the top). A start on a data
 * directory received from elsewhere must never remove or move a file outside it.
 */
async function confine(dataDir: string, record: ResetRecordFile): Promise<Confined> {
  const out: Confined = { place: [], remove: [], refused: [] };
  const root = await realpath(dataDir);
  for (const entry of record.place as unknown[]) {
    const placed = await placeable(dataDir, root, entry, record.id);
    if ('refused' in placed)
      out.refused.push(`${JSON.stringify(entry)} in place: ${placed.refused}`);
    else out.place.push(placed);
  }
  for (const name of record.remove as unknown[]) {
    const file = await inside(dataDir, root, name);
    const problem = typeof file === 'string' ? removable(dataDir, file) : file.refused;
    if (problem) out.refused.push(`${JSON.stringify(name)} in remove: ${problem}`);
    else out.remove.push({ name: name as string, file: file as string });
  }
  return out;
}

/** A `place` entry as paths in the data directory: its file, and the aside reset `id` wrote beside it. */
async function placeable(
  dataDir: string,
  root: string,
  entry: unknown,
  id: string,
): Promise<{ aside: string; file: string } | { refused: string }> {
  const named = (entry ?? {}) as { aside?: unknown; file?: unknown };
  const file = await inside(dataDir, root, named.file);
  if (typeof file !== 'string') return file;
  const aside = await inside(dataDir, root, named.aside);
  if (typeof aside !== 'string') return aside;
  if (aside !== asideFor(file, id))
    return { refused: `not the aside this reset writes for ${JSON.stringify(named.file)}` };
  return { aside, file };
}

/**
 * `name` as a path in the data directory, or why it is none: not a relative file name, or outside the
 * directory, by itself or through its folder's real path (a folder in it linked elsewhere).
 */
async function inside(
  dataDir: string,
  root: string,
  name: unknown,
): Promise<string | { refused: string }> {
  if (typeof name !== 'string' || name === '') return { refused: 'not a file name' };
  if (path.isAbsolute(name)) return { refused: 'an absolute path, outside the data directory' };
  const file = path.resolve(dataDir, name);
  const rel = path.relative(dataDir, file);
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel))
    return { refused: 'outside the data directory' };
  const folder = path.dirname(rel);
  const real = await realpath(path.dirname(file)).catch(() => null);
  // a folder that is not there holds nothing to move or remove
  if (real !== null && real !== path.join(root, folder))
    return { refused: `its folder ${folder} leads outside the data directory (to ${real})` };
  return file;
}

/** Why a reset does not remove `file` (in the data directory), or null when it may. */
function removable(dataDir: string, file: string): string | null {
  const folder = path.relative(dataDir, path.dirname(file));
  if (REMOVED_FROM.includes(folder)) return null;
  if (folder === '' && ownName(path.basename(file))) return null;
  return `not a file in ${REMOVED_FROM.map((f) => `${f}/`).join(' or ')}, the only files a reset removes`;
}

/** Remove a file a reset named; answers why not, when it is a folder (null: removed, or not there). */
async function removeNamed(file: string): Promise<string | null> {
  const found = await lstat(file).catch(() => null);
  if (!found) return null;
  if (found.isDirectory()) return 'a folder, not a file';
  await rm(file, { force: true });
  return null;
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
      Number.isSafeInteger(v.journalBytes) &&
      v.journalBytes >= 0 &&
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
  // the record as the journal's reader takes it: a reset whose checksum does not match is still one
  // when it reads as one (journal-reader.ts)
  const { text } = unseal(line);
  if (!text.startsWith('{"reset"')) return undefined;
  try {
    return (JSON.parse(text) as { id?: string }).id;
  } catch {
    return undefined; // torn: the reader cuts it off, so the reset is not in the journal
  }
}
