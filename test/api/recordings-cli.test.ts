// The one recordings reader behind `check`, `diff` and uploads: files, `-`, FIFOs and process
// substitution are streamed; a directory or a device is refused with one line and exit 2, an endless
// input ends at its cap, and one very long line takes time linear in its length.
import { withoutUnjudged } from '../helpers/check';
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/sandbox';
import { journey, run } from '../helpers/journey';
import { CLI, runCli } from './cli-process';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function dir(): string {
  const t = tempDir('recordings-');
  cleanups.push(t.cleanup);
  return t.dir;
}

/** Run the CLI with standard input from `stdin` (a file descriptor), or through bash for `<(…)`. */
function runWith(
  command: string,
  args: string[],
  stdin: number | 'ignore' = 'ignore',
): Promise<{ code: number; stdout: string; stderr: string }> {
  // its own process group, so that a reader that never ends is stopped with what feeds it
  const child = spawn(command, args, { stdio: [stdin, 'pipe', 'pipe'], detached: true });
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })),
  );
}

describe('reading recordings', () => {
  it('refuses a directory or a device with one line and exit 2, for check and diff', async () => {
    const cwd = dir();
    const recording = path.join(cwd, 'run.ndjson');
    writeFileSync(recording, run(journey()));
    mkdirSync(path.join(cwd, 'recordings'));
    const cases: Array<[string[], RegExp]> = [
      [['check', 'recordings'], /recordings is a directory: give a recording file/],
      [['check', '/dev/zero'], /\/dev\/zero is a device, not a recording/],
      [['diff', 'recordings', 'run.ndjson'], /recordings is a directory/],
      [['diff', 'run.ndjson', '/dev/zero'], /\/dev\/zero is a device/],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await runCli(args, cwd);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr, args.join(' ')).toMatch(message);
      expect(stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });

  it('ends an endless standard input at its cap, with one line and exit 2', async () => {
    const zero = openSync('/dev/zero', 'r');
    cleanups.push(() => closeSync(zero));
    // the device itself as standard input
    const direct = await runWith(process.execPath, [CLI, 'check', '-'], zero);
    expect(direct.code).toBe(2);
    expect(direct.stderr).toMatch(/standard input is a device/);
    // an endless pipe: read up to the cap of one line, then refused
    const piped = await runWith('bash', [
      '-c',
      `cat /dev/zero | "${process.execPath}" "${CLI}" check -`,
    ]);
    expect(piped.code).toBe(2);
    expect(piped.stderr.trim().split('\n')).toHaveLength(1);
    expect(piped.stderr).toMatch(/not a recording: more than 64 MB that is not JSON/);
  });

  it('streams process substitution and FIFOs into check and diff (a baseline read through a pipe too)', async () => {
    const cwd = dir();
    const base = path.join(cwd, 'base.ndjson');
    const current = path.join(cwd, 'current.ndjson');
    writeFileSync(base, run(journey()));
    writeFileSync(current, run(journey(), { origin: 'https://www.example.com' }));
    const node = `"${process.execPath}" "${CLI}"`;
    const check = await runWith('bash', ['-c', `${node} check <(cat "${base}")`]);
    expect(withoutUnjudged(check.stderr)).toBe('');
    expect(check.stdout).toMatch(/pages:/);
    const diff = await runWith('bash', ['-c', `${node} diff <(cat "${base}") <(cat "${current}")`]);
    expect(diff).toMatchObject({ code: 0, stderr: '' });
    // a baseline file is told apart by its first bytes: read through a pipe, they must not be lost
    const saved = path.join(cwd, 'baseline.json');
    const { baselineText } = await import('../../src/main/baseline/baseline-file');
    const { readUpload } = await import('../../src/main/baseline/upload');
    const recording = await readUpload(run(journey()));
    if (typeof recording === 'string') throw new Error(recording);
    writeFileSync(saved, baselineText(recording));
    const piped = await runWith('bash', ['-c', `${node} diff <(cat "${saved}") "${current}"`]);
    expect(piped).toMatchObject({ code: 0, stderr: '' });
  });

  it('reads one very long line through to its verdict (refused, naming its line)', async () => {
    const cwd = dir();
    const file = path.join(cwd, 'long.ndjson');
    const ctx = {
      timestamp: '2026-11-21T00:00:00Z',
      pageUrl: 'http://localhost/',
      userId: 'u',
      sessionId: 's',
      pageLoadId: 'p',
      initiator: 'i',
    };
    const first = JSON.stringify({ context: ctx, data: { responseId: 'r1' } });
    // 8 MB on line 2, read in 128 chunks and refused once read (it is no beacon body); that the reader
    // joins such a line once, not on every chunk, is counted in test/unit/recording-lines.test.ts
    writeFileSync(file, `${first}\n{"x":"${'a'.repeat(8 * 1024 * 1024)}"}\n`);
    const { code, stderr } = await runCli(['check', file], cwd);
    expect(code).toBe(2);
    expect(stderr).toMatch(/long\.ndjson:2: not a beacon body/);
  });
});
