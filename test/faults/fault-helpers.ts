// What the fault-injection tests share: a small disk that can be filled (a tmpfs, where the test may
// mount one), sandbox processes started on a data dir and killed, and the demo account's requests.
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { CLI, spawnCli, spawnProcess, type CliProcess } from '../api/cli-process';

/** Cleanups run after each test, newest first (register with `cleanups.push`). */
export const cleanups: Array<() => void | Promise<void>> = [];

export async function runCleanups(): Promise<void> {
  while (cleanups.length) await cleanups.pop()!();
}

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Can this process mount a tmpfs (root in a machine or container that allows it)? */
export const canMountTmpfs: boolean = (() => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const dir = mkdtempSync(path.join(tmpdir(), 'tmpfs-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    execFileSync('umount', [dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
})();

/** A tmpfs of `size` (e.g. '8m') mounted on a fresh directory, unmounted after the test. */
export function smallDisk(size: string): { dir: string; fill(): () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'small-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  cleanups.push(() => {
    execFileSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    /** Fill the disk to the last byte; the function given back frees the space again. */
    fill() {
      const filler = path.join(dir, 'filler');
      const fd = openSync(filler, 'w');
      const chunk = Buffer.alloc(64 * 1024, 0x78);
      try {
        for (let size = chunk.length; size >= 1;) {
          try {
            writeSync(fd, chunk, 0, size);
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
            size = Math.floor(size / 2); // the last pages, down to the last byte
          }
        }
      } finally {
        closeSync(fd);
      }
      return () => rmSync(filler, { force: true });
    },
  };
}

/** `serve` on a data dir, killed (SIGKILL) after the test if still running. */
export async function serve(dataDir: string, cwd: string): Promise<CliProcess> {
  const cli = spawnCli(['serve', '--port', '0', '--data', dataDir], cwd);
  cleanups.push(() => cli.kill());
  await cli.ready;
  return cli;
}

export const BASIC = `Basic ${Buffer.from('demo42:demo-secret-key').toString('base64')}`;

export function render(pageLoadId: string, responseId = `r-${pageLoadId}`) {
  return {
    context: {
      timestamp: new Date().toISOString(),
      pageUrl: 'http://localhost:5173/search?q=faults',
      userId: 'u-faults',
      sessionId: 's-faults',
      pageLoadId,
      initiator: 'fault-test',
    },
    data: { responseId },
  };
}

export function beacon(url: string, body: unknown): Promise<Response> {
  return fetch(`${url}/beacon/v2/demo42/search/render`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain' },
    body: JSON.stringify(body),
  });
}

export async function json<T = Record<string, unknown>>(
  res: Response | Promise<Response>,
): Promise<T> {
  return (await (await res).json()) as T;
}

/** The pageLoadIds of the sandbox's accepted events, oldest first: what a test reads back after a fault. */
export async function pageLoads(url: string): Promise<string[]> {
  const { events } = await json<{ events: Array<{ body: { context: { pageLoadId: string } } }> }>(
    fetch(`${url}/_sandbox/events?accepted=true`),
  );
  return events.map((e) => e.body.context.pageLoadId);
}

const PRELOAD = path.resolve(__dirname, '../helpers/crash-preload.mjs');

/**
 * A sandbox process on a copy of the data directory `from`, which crash-preload.mjs stops with kill -9
 * just before its change number `at` to the data directory (from 0), or, `fails`, makes that change fail
 * (EIO), once `arm()` is called. `stop()` kills it and answers how many changes it made once armed.
 */
export async function crashableSandbox(from: string, prefix: string, at: number, fails: boolean) {
  const dir = tempDir(prefix);
  const data = path.join(dir, 'data');
  const armed = path.join(dir, 'armed');
  const log = path.join(dir, 'changes');
  cpSync(from, data, { recursive: true });
  const proc = spawnProcess(
    process.execPath,
    ['--import', PRELOAD, CLI, 'serve', '--port', '0', '--data', data],
    dir,
    { CRASH_AT: String(at), CRASH_ARM: armed, CRASH_LOG: log, CRASH_FAIL: fails ? '1' : '0' },
  );
  cleanups.push(() => proc.kill());
  const url = await proc.ready;
  return {
    url,
    data,
    arm: () => writeFileSync(armed, ''),
    stop: async (): Promise<number> => {
      await proc.kill();
      return existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').length : 0;
    },
  };
}

/**
 * A data directory every run of a file starts from: made once by a sandbox that `fill` drives and that is
 * then stopped as a user stops it (Ctrl+C: whatever it had under way is on disk), with what `fill`
 * answered. `remove` is for the file's afterAll (tempDir's go after each test).
 */
export async function filledDataDir<T>(
  prefix: string,
  fill: (url: string) => Promise<T>,
): Promise<{ data: string; filled: T; remove: () => void }> {
  if (!existsSync(CLI))
    throw new Error(`${CLI} is missing: run "npx electron-vite build" first (npm test does)`);
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const data = path.join(dir, 'data');
  const sandbox = spawnProcess(
    process.execPath,
    [CLI, 'serve', '--port', '0', '--data', data],
    dir,
  );
  try {
    const filled = await fill(await sandbox.ready);
    sandbox.child.kill('SIGTERM');
    expect(await sandbox.exit).toBe(0);
    return { data, filled, remove };
  } catch (err) {
    remove();
    throw err;
  } finally {
    await sandbox.kill();
  }
}
