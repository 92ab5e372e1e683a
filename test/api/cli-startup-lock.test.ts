// A start that fails late — after the data directory was locked and read — leaves no sandbox.lock behind
// and does not hang, whether the failure is one start-up catches or an exception nothing catches. The
// failure is forced in the real process by a preload (test/helpers/late-failure-preload.mjs).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/sandbox';
import { CLI, spawnProcess } from './cli-process';

const ROOT = path.resolve(__dirname, '../..');
const PRELOAD = path.join(ROOT, 'test/helpers/late-failure-preload.mjs');
const HANG_MS = 15_000;

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

beforeAll(() => {
  if (!existsSync(CLI))
    throw new Error(`${CLI} is missing: run "npx electron-vite build" first (npm test does)`);
});

async function failLate(how: 'uncaught' | 'server') {
  const { dir, cleanup } = tempDir('cli-startup-lock-');
  cleanups.push(cleanup);
  const data = path.join(dir, 'data');
  const proc = spawnProcess(
    process.execPath,
    ['--import', PRELOAD, CLI, 'serve', '--port', '0', '--data', data],
    dir,
    { LATE_FAILURE: how },
  );
  cleanups.push(() => proc.kill());
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    void proc.kill();
  }, HANG_MS);
  const code = await proc.exit.finally(() => clearTimeout(timer));
  return { code, hung, data, stderr: proc.stderr(), stdout: proc.stdout() };
}

describe('a start that fails late', () => {
  it('from an exception nothing catches: exits non-zero and leaves no lock behind', async () => {
    const run = await failLate('uncaught');
    expect(run.hung, run.stderr).toBe(false);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/late start-up failure \(test\)/);
    expect(existsSync(path.join(run.data, 'events.ndjson'))).toBe(true);
    expect(existsSync(path.join(run.data, 'sandbox.lock'))).toBe(false);
  });

  it('between reading the data and listening: exits 2, does not hang, leaves no lock behind', async () => {
    const run = await failLate('server');
    expect(run.hung, run.stderr).toBe(false);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/late start-up failure \(test\)/);
    expect(existsSync(path.join(run.data, 'sandbox.lock'))).toBe(false);
  });
});
