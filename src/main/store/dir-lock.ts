// One sandbox per data directory: two processes appending to one journal would interleave sequence
// numbers and corrupt it. A lock file holds the owner's pid and, where the system says it (Linux's /proc),
// the time that process started: a lock left by a killed process is taken over, and so is one whose pid
// now belongs to another process (pids are reused: after a reboot, a lock may name pid 1).
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { DataDirError, ELSEWHERE } from './data-dir-error';
import { PRIVATE_FILE } from './private-files';
import { excerpt } from './journal-reader';

export const LOCK_FILE = 'sandbox.lock';

/** Directories locked by this process: a pid check cannot tell two sandboxes of one process apart. */
const ownLocks = new Set<string>();

/**
 * A process that ends with a lock still held (an exception nothing caught, a start that failed where no
 * close was due) releases it as it exits: the next start must not find a lock naming a dead process's pid.
 * Only a kill -9 leaves one, and the next start takes that over.
 */
let releaseOnExit = false;
function releaseAtExit(): void {
  if (releaseOnExit) return;
  releaseOnExit = true;
  process.on('exit', () => {
    for (const file of ownLocks) rmSync(file, { force: true });
    ownLocks.clear();
  });
}

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

/** When process `pid` started (clock ticks since boot, /proc/PID/stat field 22), or null where unknown. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) is in parentheses and may hold spaces: count fields after its end
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** The command line of `pid`, or null where the system does not say. */
function commandLine(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return null;
  }
}

/** What runs a sandbox: node (the CLI, a test runner using the package), Electron, or its own bin. */
const SANDBOX_HOST = /(^|\/)(node|nodejs|electron|bun|deno)[^/ ]*( |$)|search-sandbox/i;

/**
 * Is the lock's owner still running as the process that wrote it? Its start time must match the one in
 * the lock; a lock without one (written by an older sandbox) must name a process that can be a sandbox.
 */
function stillHeld(pid: number, started: string | null): boolean {
  if (!alive(pid)) return false;
  const now = processStart(pid);
  if (started !== null && now !== null) return started === now;
  const cmd = commandLine(pid);
  return cmd === null || SANDBOX_HOST.test(cmd);
}

/** Take the lock of `dir` (which must exist); returns its release. Throws DataDirInUseError when held. */
export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, LOCK_FILE);
  if (ownLocks.has(file)) throw new DataDirInUseError(dir, process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', PRIVATE_FILE);
      const started = processStart(process.pid);
      writeSync(fd, started === null ? `${process.pid}\n` : `${process.pid}\n${started}\n`);
      closeSync(fd);
      ownLocks.add(file);
      releaseAtExit();
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
    let started: string | null = null;
    let text: string | null = null;
    try {
      text = readFileSync(file, 'utf8');
      const [pid, start] = text.split('\n');
      owner = /^\d+$/.test(pid?.trim() ?? '') ? Number(pid) : NaN;
      started = start?.trim() || null;
    } catch {
      /* vanished or unreadable: treat as stale */
    }
    // a lock this sandbox never wrote (damaged, or a hand's): taken over, but not silently
    if (text !== null && !(owner > 0))
      console.error(
        `search-sandbox: ${file} names no process (${excerpt(text.trim())}): taken over, as no running sandbox can hold it`,
      );
    // Our own pid here is a lock from an earlier process that had the same pid: stale too.
    if (
      Number.isInteger(owner) &&
      owner > 0 &&
      owner !== process.pid &&
      stillHeld(owner, started)
    ) {
      throw new DataDirInUseError(dir, owner);
    }
    // Left behind by a process that is gone (kill -9, crash): take it over.
    rmSync(file, { force: true });
  }
  throw new Error(`could not take the lock ${file}: another process keeps recreating it`);
}
