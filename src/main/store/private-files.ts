// The data directory's files and directories, private (file-modes.ts), and lowdb's adapter for them.
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { prepareReplacement, replaceFile, type PreparedFile } from './durable';
import { PRIVATE_DIR } from './file-modes';

export { PRIVATE_DIR, PRIVATE_FILE } from './file-modes';

/** `mkdir -p` with private modes for each directory it creates; an existing one is left as it is. */
export async function makePrivateDir(dir: string): Promise<void> {
  // made one level at a time, not by mkdir's `recursive`: that loops for ever under /proc or /sys, where
  // mkdir answers ENOENT for a parent that is there (`serve --data /proc/nope` hung with no word)
  const target = path.resolve(dir);
  const missing: string[] = [];
  for (let at = target; ;) {
    const found = await stat(at).catch((err: NodeJS.ErrnoException) => {
      // not there, or under a file (which the walk up finds)
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null;
      throw err;
    });
    if (found?.isDirectory()) break;
    if (found)
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${at}'`), {
        code: 'ENOTDIR',
        path: at,
      });
    missing.push(at);
    const up = path.dirname(at);
    if (up === at) break;
    at = up;
  }
  for (const d of missing.reverse()) {
    try {
      await mkdir(d, { mode: PRIVATE_DIR });
    } catch (err) {
      // made meanwhile by another start: fine
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/**
 * A lowdb adapter that writes its JSON file 0600 through the durable path (durable.ts): written whole to
 * a temporary file, synced, then renamed; a write resolves once on disk. Writes asked for while one is under way are folded into one that follows it.
 */
export class PrivateJsonFile<T> {
  private tail: Promise<void> = Promise.resolve();
  private pending: { data: T; done: Promise<void> } | null = null;

  constructor(readonly file: string) {}

  async read(): Promise<T | null> {
    try {
      return JSON.parse(await readFile(this.file, 'utf8')) as T;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  write(data: T): Promise<void> {
    if (this.pending) {
      this.pending.data = data;
      return this.pending.done;
    }
    const pending = { data, done: Promise.resolve() };
    pending.done = this.tail
      .catch(() => undefined)
      .then(() => {
        this.pending = null;
        return this.save(pending.data);
      });
    this.pending = pending;
    this.tail = pending.done;
    return pending.done;
  }

  /**
   * A replacement for a change that commits elsewhere (a reset): `text()` is written at `aside` once the
   * writes asked for before are done; writes asked for after it wait until it is put in place or dropped,
   * and then write the data as it is by then (a reset's, once it changed the data in memory).
   */
  async prepareReplace(text: () => string, aside: string): Promise<PreparedFile> {
    let done!: () => void;
    const held = new Promise<void>((resolve) => (done = resolve));
    const prepared = this.tail
      .catch(() => undefined)
      .then(() => prepareReplacement(this.file, text(), aside));
    this.tail = prepared.then(
      () => held,
      () => undefined,
    );
    const file = await prepared;
    return {
      aside: file.aside,
      place: () => file.place().finally(done),
      drop: () => file.drop().finally(done),
    };
  }

  private save(data: T): Promise<void> {
    return replaceFile(this.file, JSON.stringify(data, null, 2));
  }
}

/**
 * A warning when a data directory the user made is open to other users (the sandbox never changes
 * the mode of a directory it did not create), or null.
 */
export async function looseDirWarning(dir: string): Promise<string | null> {
  const mode = (await stat(dir)).mode & 0o777;
  if ((mode & 0o077) === 0) return null;
  return `data directory ${dir} can be read by other users (mode ${mode.toString(8).padStart(4, '0')}) and holds shoppers' ids and page URLs: chmod 700 ${dir} to keep it private (the sandbox creates its own directories 0700 and its files 0600)`;
}
