// One sandbox per data directory: two processes appending to one journal would interleave sequence
// numbers and corrupt it. A lock file holds the owner's pid; a lock left by a killed process is taken over.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { DataDirError, ELSEWHERE } from './data-dir-error';
import { PRIVATE_FILE } from './private-files';

export const LOCK_FILE = 'sandbox.lock';

/** Directories locked by this process: a pid check cannot tell two sandboxes of one process apart. */
const ownLocks = new Set<string>();

export class DataDirInUseError extends DataDirError {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      path.join(dir, LOCK_FILE),
      `says data directory ${dir} is in use by another sandbox (pid ${pid}, still running)`,
      `stop that one, ${ELSEWHERE}`,
    );
    this.name = 'DataDirInUseError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else — still alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Take the lock of `dir` (which must exist); returns its release. Throws DataDirInUseError when held. */
export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, LOCK_FILE);
  if (ownLocks.has(file)) throw new DataDirInUseError(dir, process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', PRIVATE_FILE);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      ownLocks.add(file);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        ownLocks.delete(file);
        rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let owner = NaN;
    try {
      owner = Number.parseInt(readFileSync(file, 'utf8'), 10);
    } catch {
      /* vanished or unreadable: treat as stale */
    }
    // Our own pid here is a lock from an earlier process that had the same pid: stale too.
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
      throw new DataDirInUseError(dir, owner);
    }
    // Left behind by a process that is gone (kill -9, crash): take it over.
    rmSync(file, { force: true });
  }
  throw new Error(`could not take the lock ${file}: another process keeps recreating it`);
}
