// `search-sandbox check` in-process for tests: its exit code and what it wrote, at a fixed report time;
// and input files in temp dirs that the test's cleanups remove.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCheck, type CheckIo } from '../../src/main/check/cli';
import { tempDir } from './sandbox';

export const CHECK_NOW = Date.parse('2026-11-21T05:00:00Z');

/**
 * A command's function (runCheck, runDiff) run in this process as its process runs it: the code it returns for the
 * process to exit with, and what it wrote to stdout and stderr; its report dated `now`.
 */
export async function captured(
  run: (args: string[], io: CheckIo) => Promise<number>,
  args: string[],
  now: () => number = () => CHECK_NOW,
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await run(args, { out: (t) => void (out += t), err: (t) => void (err += t), now });
  return { code, out, err };
}

export function check(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return captured(runCheck, args);
}

/** A file `name` holding `text` in a new temp dir; its removal is pushed onto `cleanups`. */
export function tempFile(cleanups: Array<() => unknown>, name: string, text: string): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** The export of the sandbox at `base`, written to a temporary file removed with `cleanups`. */
export async function exportFile(
  cleanups: Array<() => unknown>,
  base: string,
  name = 'export.json',
): Promise<string> {
  return tempFile(cleanups, name, await (await fetch(`${base}/_sandbox/export`)).text());
}

/**
 * `check`'s stderr without its one note on the rules that could not judge a recording carrying no issued
 * responses (NDJSON, a HAR without the sandbox's answers): what else it said.
 */
export function withoutUnjudged(err: string): string {
  return err.replace(
    /^search-sandbox check: the input carries none of the responses .* did not judge it .*\n/m,
    '',
  );
}
