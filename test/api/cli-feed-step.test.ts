// A feed step that fails after start-up (its timer ended, the step threw) is said on one line naming the
// feed, the state it stays in, what went wrong and what to do; no stack. The failure is forced in the real
// process by a preload (test/helpers/late-failure-preload.mjs): a date of 1 January 1970 cannot be written.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/sandbox';
import { CLI, spawnCli, spawnProcess } from './cli-process';

const ROOT = path.resolve(__dirname, '../..');
const PRELOAD = path.join(ROOT, 'test/helpers/late-failure-preload.mjs');

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

beforeAll(() => {
  if (!existsSync(CLI))
    throw new Error(`${CLI} is missing: run "npx electron-vite build" first (npm test does)`);
});

describe('a feed step that fails after start-up', () => {
  it('is one line naming the feed, its state, what went wrong and what to do, without a stack', async () => {
    const { dir, cleanup } = tempDir('cli-feed-step-');
    cleanups.push(cleanup);
    const data = path.join(dir, 'data');
    const first = spawnCli(['serve', '--port', '0', '--data', data], dir);
    cleanups.push(() => first.kill());
    await first.ready;
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    // feed 42 waits to index since 1 January 1970: its step ended long ago and runs at once
    const file = path.join(data, 'indexing.json');
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    const rec = stored.feeds.find((f: { feedId: number }) => f.feedId === 42);
    Object.assign(rec, {
      state: 'waiting',
      stepStartedAt: 1000,
      stepElapsedMs: 0,
      run: { id: 'run_1', cause: 'hand', requestedBy: null, requestedAt: 1000, input: 'upload' },
    });
    writeFileSync(file, JSON.stringify(stored));

    const proc = spawnProcess(
      process.execPath,
      ['--import', PRELOAD, CLI, 'serve', '--port', '0', '--data', data],
      dir,
      { LATE_FAILURE: '1970' },
    );
    cleanups.push(() => proc.kill());
    await proc.ready;
    const stderr = await proc.stderrMatching(/could not move on.*\n/);
    const lines = stderr.split('\n').filter((l) => l.includes('could not move on'));
    expect(lines).toEqual([
      'search-sandbox: feed demo42/42 could not move on from "waiting" (RangeError: Invalid time value): its autopilot stopped with the feed "running"; move it by hand (the UI\'s Feeds page, or POST /_sandbox/feeds/demo42/42/transition), or restart the sandbox to try again',
    ]);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
