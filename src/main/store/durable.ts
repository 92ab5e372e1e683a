// The one way the sandbox stores what it acknowledges outside the events journal (remembered search and
// recommend responses, feed states and requests, uploads, catalogs, the real service's answers, the HTTPS
// pair, the desktop app's settings, and a user's own baselines and saved exports): a whole file is replaced atomically
// (temp file, fsync, rename, fsync of the directory), an append-only file is appended and fsynced, and
// either resolves only once the data is on disk. A failed write leaves nothing behind for the next one to
// join: no temp file, no torn line (cut back off, or else fenced off by starting the next write on a new line).
import {
  closeSync,
  constants,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { lstat, open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { dataDirFailure } from './data-dir-error';
import { PRIVATE_FILE } from './file-modes';

/** The name beside `file` of its replacement while it is written (one at a time per file: see `replacing`). */
function tmpName(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.tmp`);
}

/** Is `name` (a file's name, no folder) a temp name `tmpName` makes (or the health probe's)? */
export function isTempName(name: string): boolean {
  return name.length > '..tmp'.length && name.startsWith('.') && name.endsWith('.tmp');
}

/**
 * At start, with the data directory locked and before anything writes in it: remove the temp files a
 * process killed mid-write left in `folders` (relative to `dataDir`). Such a file was never renamed into
 * place, so no write it held was acknowledged; without this it stays until the same file is written
 * again, which may be never. Only regular files with a temp name are removed: a folder or a link there is
 * not the sandbox's leftover, and a folder that is itself a link is not looked into. Best effort: a
 * leftover that cannot be removed is in nobody's way, since the next write of its file replaces it.
 */
export async function removeTempFiles(dataDir: string, folders: readonly string[]): Promise<void> {
  for (const folder of folders) {
    const dir = path.join(dataDir, folder);
    if (!(await lstat(dir).catch(() => null))?.isDirectory()) continue;
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names.filter(isTempName)) {
      const file = path.join(dir, name);
      if ((await lstat(file).catch(() => null))?.isFile())
        await rm(file, { force: true }).catch(() => undefined);
    }
  }
}

/** The replacement under way per file: the next waits for it, so two never share the temp file. */
const replacing = new Map<string, Promise<void>>();

/** A directory's fsync failed because its file system cannot sync directories: let be. */
function cannotSyncDir(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'EINVAL' || code === 'EISDIR' || code === 'EBADF';
}

/** fsync a directory, so a rename or a new file in it survives a power cut. */
export async function syncDir(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, constants.O_RDONLY);
    await handle.sync();
  } catch (err) {
    if (!cannotSyncDir(err)) throw err;
  } finally {
    await handle?.close();
  }
}

/**
 * What a file is replaced with: its text or bytes whole, or its text in pieces made as they are written
 * (a catalog of many products: the loop is free between pieces, and no one string holds the file).
 */
export type FileData = string | Uint8Array | Iterable<string>;

/**
 * Replace `file` with `data`, whole or not at all: resolves once it is on disk; a failure (a full disk)
 * leaves the old file as it was and no temp file, and is thrown as a DataDirError naming `file`.
 */
export function replaceFile(file: string, data: FileData): Promise<void> {
  return oneAtATime(file, () =>
    writeReplacement(file, data, PRIVATE_FILE).catch((err: unknown) => {
      throw dataDirFailure(file, err, 'write');
    }),
  );
}

/**
 * `replaceFile` for a file of the user's own, outside any data directory (a baseline beside their tests, an
 * export saved from the desktop shell): the same steps, so a success means the whole file is on disk and a
 * failure leaves the old one; the file is made as their other files are (0o666 less the umask), and a
 * failure is thrown as the system's error, which names the file.
 */
export function replaceOwnFile(file: string, data: FileData): Promise<void> {
  return oneAtATime(file, () => writeReplacement(file, data, 0o666));
}

/** `write` once the replacement of `file` under way (if any) has ended: two never share the temp file. */
function oneAtATime(file: string, write: () => Promise<void>): Promise<void> {
  const before = replacing.get(file) ?? Promise.resolve();
  const run = before.catch(() => undefined).then(write);
  const settled = run.catch(() => undefined);
  replacing.set(file, settled);
  void settled.then(() => {
    if (replacing.get(file) === settled) replacing.delete(file);
  });
  return run;
}

async function writeReplacement(file: string, data: FileData, mode: number): Promise<void> {
  const drop = await writeTemp(file, data, mode);
  try {
    await rename(tmpName(file), file);
    await syncDir(path.dirname(file));
  } catch (err) {
    await drop();
    throw err;
  }
}

/**
 * `data` written and fsynced at `file`'s temp name; answers how to remove it again. A failure removes it
 * (unless something was there before: a crash's leftover, or something not ours) and is thrown as is.
 */
async function writeTemp(
  file: string,
  data: FileData,
  mode: number,
  tmp = tmpName(file),
): Promise<() => Promise<void>> {
  const existed = await lstat(tmp).then(
    () => true,
    () => false,
  );
  const drop = () =>
    existed ? Promise.resolve() : rm(tmp, { force: true }).catch(() => undefined);
  try {
    const handle = await open(tmp, 'w', mode);
    try {
      if (typeof data === 'string' || data instanceof Uint8Array) await handle.writeFile(data);
      else for (const piece of data) await handle.writeFile(piece);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (err) {
    await drop();
    throw err;
  }
  return drop;
}

/** A file's replacement on disk beside it, not in its place yet (see `prepareReplacement`). */
export interface PreparedFile {
  /** the replacement's path until it is put in place */
  readonly aside: string;
  /** rename it into place (and make that durable); only after the change it is part of committed */
  place(): Promise<void>;
  /** remove it: the file stays as it was */
  drop(): Promise<void>;
}

/**
 * The first half of `replaceFile`, for a change that spans several stores and commits elsewhere (a
 * reset, whose commit record names the files it puts in place): the replacement is written and fsynced
 * at `aside`, beside `file`, now, and the file is left as it is until `place`. Until `place` or `drop`,
 * no other replacement of `file` starts. A failure (a full disk) leaves the file as it was and nothing at
 * `aside`, and is thrown as a DataDirError naming `file`.
 */
export async function prepareReplacement(
  file: string,
  data: FileData,
  aside: string,
): Promise<PreparedFile> {
  let done!: () => void;
  const held = new Promise<void>((resolve) => (done = resolve));
  let written!: (drop: () => Promise<void>) => void;
  let failed!: (err: unknown) => void;
  const ready = new Promise<() => Promise<void>>((resolve, reject) => {
    written = resolve;
    failed = reject;
  });
  void oneAtATime(file, async () => {
    try {
      written(await writeTemp(file, data, PRIVATE_FILE, aside));
    } catch (err) {
      failed(dataDirFailure(file, err, 'write'));
      return;
    }
    await held;
  });
  const drop = await ready;
  return {
    aside,
    async place() {
      try {
        await rename(aside, file);
        await syncDir(path.dirname(file));
      } catch (err) {
        // left where it is: the reset is committed, and names it for the next start to put in place
        throw dataDirFailure(file, err, 'write');
      } finally {
        done();
      }
    },
    async drop() {
      await drop();
      done();
    },
  };
}

/**
 * `replaceFile` for a few hundred bytes written where the caller cannot wait (the desktop shell's settings,
 * on a menu click or as its window closes): the same steps, synchronously; a failure leaves no temp file
 * and is thrown as the system's error (those files are not in a data directory).
 */
export function replaceFileSync(file: string, text: string): void {
  const tmp = tmpName(file);
  try {
    const fd = openSync(tmp, 'w', PRIVATE_FILE);
    try {
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  syncDirSync(path.dirname(file));
}

/** `syncDir`, synchronously. */
function syncDirSync(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY);
    fsyncSync(fd);
  } catch (err) {
    if (!cannotSyncDir(err)) throw err;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Remove `file` and make the removal durable. */
export async function removeFile(file: string): Promise<void> {
  try {
    await rm(file, { force: true });
    await syncDir(path.dirname(file));
  } catch (err) {
    // no directory: no file either, and nothing to sync
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw dataDirFailure(file, err, 'write');
  }
}

/**
 * An append-only file of lines: each `append` resolves once its lines are on disk (fsync), appends run one
 * after the other, and one that fails is cut back off the file so that the next starts on a clean line.
 */
export class AppendFile {
  private tail: Promise<void> = Promise.resolve();
  /** a failed append left bytes that could not be cut off: the next one starts a fresh line */
  private lineOpen = false;

  private constructor(
    readonly file: string,
    private handle: FileHandle,
    private size: number,
  ) {}

  static async open(file: string): Promise<AppendFile> {
    try {
      const handle = await open(file, 'a', PRIVATE_FILE);
      const { size } = await handle.stat();
      const appender = new AppendFile(file, handle, size);
      // a file that ends inside a line (a write cut short by a crash): the next line starts afresh
      if (size > 0) {
        const last = Buffer.alloc(1);
        const read = await open(file, 'r');
        try {
          await read.read(last, 0, 1, size - 1);
        } finally {
          await read.close();
        }
        appender.lineOpen = last[0] !== 0x0a;
      }
      return appender;
    } catch (err) {
      throw dataDirFailure(file, err, 'write');
    }
  }

  /** Append `text` (whole lines, each ending in a newline); resolves once on disk. */
  append(text: string): Promise<void> {
    const run = this.tail.then(() => this.write(text));
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Replace the whole file with `text()` (atomically), made after the appends under way are written. */
  replace(text: () => string): Promise<void> {
    const run = this.tail.then(async () => {
      const data = text();
      await replaceFile(this.file, data);
      await this.handle.close().catch(() => undefined);
      this.handle = await open(this.file, 'a', PRIVATE_FILE);
      this.size = Buffer.byteLength(data);
      this.lineOpen = false;
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  /**
   * `replace` in two steps, for a change that commits elsewhere (a reset): `text()` is written at `asideFile` once
   * the appends under way are written; appends wait until it is placed (they then go to the new file) or
   * dropped (the file stays as it was). A failure to write it aside leaves the file as it was.
   */
  async prepareReplace(text: () => string, asideFile: string): Promise<PreparedFile> {
    let done!: () => void;
    const held = new Promise<void>((resolve) => (done = resolve));
    const prepared = this.tail.then(async () => {
      const data = text();
      return { data, aside: await prepareReplacement(this.file, data, asideFile) };
    });
    this.tail = prepared.then(
      () => held,
      () => undefined,
    );
    const { data, aside } = await prepared;
    return {
      aside: aside.aside,
      place: async () => {
        try {
          await aside.place();
          await this.handle.close().catch(() => undefined);
          this.handle = await open(this.file, 'a', PRIVATE_FILE);
          this.size = Buffer.byteLength(data);
          this.lineOpen = false;
        } finally {
          done();
        }
      },
      drop: async () => {
        await aside.drop();
        done();
      },
    };
  }

  async close(): Promise<void> {
    await this.tail;
    await this.handle.close().catch(() => undefined);
  }

  private async write(text: string): Promise<void> {
    const data = Buffer.from(this.lineOpen ? `\n${text}` : text, 'utf8');
    try {
      let off = 0;
      while (off < data.length) {
        const { bytesWritten } = await this.handle.write(data, off, data.length - off);
        off += bytesWritten;
      }
      await this.handle.datasync();
    } catch (err) {
      try {
        await this.handle.truncate(this.size);
        await this.handle.datasync();
      } catch {
        this.lineOpen = true; // the fragment stays as one garbled line, which readers skip
      }
      throw dataDirFailure(this.file, err, 'write');
    }
    this.size += data.length;
    this.lineOpen = false;
  }
}

/**
 * Can the data directory take a write now? null when it can, else what is wrong (a full disk, no
 * permission), in the words of a DataDirError. Writes and removes a small probe file (a page's worth: a
 * nearly full disk that still takes a few bytes would not take a record); file systems report a full
 * disk at write(), so no fsync is paid for it.
 */
export async function writeProblem(dir: string): Promise<string | null> {
  const probe = path.join(dir, `.health-probe.${process.pid}.tmp`);
  try {
    const handle = await open(probe, 'w', PRIVATE_FILE);
    try {
      await handle.writeFile(Buffer.alloc(4096, 0x20));
    } finally {
      await handle.close();
    }
    return null;
  } catch (err) {
    return dataDirFailure(dir, err, 'write').message;
  } finally {
    await rm(probe, { force: true }).catch(() => undefined);
  }
}

/** `writeProblem(dir)`, asked at most once per `everyMs`: health may be polled every few milliseconds. */
export function writeProblemProbe(dir: string, everyMs = 1000): () => Promise<string | null> {
  let last: { at: number; answer: Promise<string | null> } | null = null;
  return () => {
    const now = performance.now();
    if (!last || now - last.at >= everyMs) last = { at: now, answer: writeProblem(dir) };
    return last.answer;
  };
}
