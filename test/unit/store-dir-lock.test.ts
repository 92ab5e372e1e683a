// One sandbox per data directory: the lock refuses a second user, and takes over one left by a dead process.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import {
  DataDirInUseError,
  LOCK_FILE,
  lockDataDir,
  processStart,
} from '../../src/main/store/dir-lock';
import { EventLog } from '../../src/main/store/event-log';
import { Journal } from '../../src/main/store/journal';
import { lockEventStore, openEventStore } from '../../src/main/store/open-events';
import { DataDirError } from '../../src/main/store/data-dir-error';
import { tempDir } from '../helpers/sandbox';
import { renderDraft } from '../helpers/event-drafts';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const lockPid = (d: string) => readFileSync(path.join(d, LOCK_FILE), 'utf8').split('\n')[0];
const onLinux = process.platform === 'linux';

function dir(): string {
  const t = tempDir('store-lock-');
  cleanups.push(t.cleanup);
  return t.dir;
}

describe('lockDataDir', () => {
  it('writes our pid, refuses a second lock in this process, and frees the dir on release', () => {
    const d = dir();
    const release = lockDataDir(d);
    expect(lockPid(d)).toBe(String(process.pid));
    expect(() => lockDataDir(d)).toThrow(DataDirInUseError);
    release();
    expect(existsSync(path.join(d, LOCK_FILE))).toBe(false);
    lockDataDir(d)();
  });

  it('refuses a directory locked by another live process, naming it and the way out', () => {
    const d = dir();
    writeFileSync(path.join(d, LOCK_FILE), `${process.ppid}\n`);
    expect(() => lockDataDir(d)).toThrow(
      `${path.join(d, LOCK_FILE)} says data directory ${d} is in use by another sandbox (pid ${process.ppid}, still running): stop that one, or use another data directory (--data DIR or SEARCH_SANDBOX_DATA), or --ephemeral to keep everything in memory`,
    );
  });

  it('takes over a lock left by a process that is gone, or an unreadable one', () => {
    const d = dir();
    writeFileSync(path.join(d, LOCK_FILE), '4194305\n'); // above Linux's pid_max: never a live process
    const release = lockDataDir(d);
    expect(lockPid(d)).toBe(String(process.pid));
    release();
    writeFileSync(path.join(d, LOCK_FILE), 'garbage');
    lockDataDir(d)();
  });

  it.skipIf(!onLinux)(
    'takes over a lock whose pid now belongs to another process: not a sandbox, or started later',
    async () => {
      const d = dir();
      // pid 1 and a `sleep` are alive, and are no sandbox (locks of older sandboxes hold only the pid)
      const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
      cleanups.push(() => void sleeper.kill('SIGKILL'));
      await new Promise((resolve) => sleeper.once('spawn', resolve));
      for (const pid of [sleeper.pid!, 1]) {
        if (pid === 1 && /node|electron/.test(readFileSync('/proc/1/cmdline', 'utf8'))) continue;
        writeFileSync(path.join(d, LOCK_FILE), `${pid}\n`);
        lockDataDir(d)();
      }
      // a live node process (a sandbox, as far as a pid-only lock can tell), but not the one that
      // wrote the lock: its start time differs
      writeFileSync(path.join(d, LOCK_FILE), `${process.ppid}\n1\n`);
      lockDataDir(d)();
      writeFileSync(path.join(d, LOCK_FILE), `${process.ppid}\n${processStart(process.ppid)}\n`);
      expect(() => lockDataDir(d)).toThrow(DataDirInUseError);
    },
  );

  it('is held by an open journal until it closes; openEventStore reports a busy dir as a DataDirError', async () => {
    const d = dir();
    const log = new EventLog({ retention: 10 });
    await Journal.open(d, log);
    await expect(openEventStore({ dataDir: d, retention: 10 })).rejects.toThrow(DataDirInUseError);
    await log.close();
    const again = await openEventStore({ dataDir: d, retention: 10 });
    await again.close();
  });

  it('is taken before the journal is read; a hook that throws while it is read throws on as it is, the lock freed', async () => {
    const d = dir();
    const first = await openEventStore({ dataDir: d, retention: 10 });
    for (const n of [1, 2]) await first.append(renderDraft('demo42', n));
    await first.close();

    const store = await lockEventStore({ dataDir: d, retention: 10 });
    // locked, not read yet: a second sandbox is refused, and the store holds nothing so far
    await expect(lockEventStore({ dataDir: d, retention: 10 })).rejects.toThrow(DataDirInUseError);
    expect(store.log.size()).toBe(0);
    const bug = new TypeError('a bug in the timelines');
    const seen: string[] = [];
    const failed = store.load({
      event(e) {
        seen.push(e.id);
        throw bug;
      },
    });
    // the hook's own error, not "events.ndjson cannot be written (…)"
    await expect(failed).rejects.toBe(bug);
    await expect(failed).rejects.not.toBeInstanceOf(DataDirError);
    expect(seen).toEqual(['ev_000000001']);
    await store.close();
    const again = await lockEventStore({ dataDir: d, retention: 10 });
    await again.load();
    expect(again.log.size()).toBe(2);
    await again.close();
  });
});
