// The data directory holds shoppers' ids and the pages they visited: it is created 0700 and every
// file in it 0600, whatever the process umask (the umask can only take bits away from these).
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Mode of every directory the sandbox creates for its data. */
export const PRIVATE_DIR = 0o700;
/** Mode of every file the sandbox writes into its data directory. */
export const PRIVATE_FILE = 0o600;

/** `mkdir -p` with private modes for each directory it creates; an existing one is left as it is. */
export async function makePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
}

/**
 * A lowdb adapter that writes its JSON file 0600: written whole to a temporary file, then renamed,
 * as lowdb's own does; writes asked for while one is under way are folded into one that follows it.
 */
export class PrivateJsonFile<T> {
  private tail: Promise<void> = Promise.resolve();
  private pending: { data: T; done: Promise<void> } | null = null;

  constructor(private readonly file: string) {}

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

  private async save(data: T): Promise<void> {
    const tmp = path.join(path.dirname(this.file), `.${path.basename(this.file)}.tmp`);
    await writeFile(tmp, JSON.stringify(data, null, 2), { mode: PRIVATE_FILE });
    await rename(tmp, this.file);
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
