// A config file (`--config FILE`) as editors and hands write it, read by the real CLI: a byte order mark
// (Windows editors write one) is read past; a key given twice and a number too large to be one stop the
// start with one line naming the key and the values as written, never one of them taken silently.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { tempDir } from '../helpers/sandbox';
import { CLI, runCli, spawnCli } from './cli-process';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

beforeAll(() => {
  if (!existsSync(CLI))
    throw new Error(`${CLI} is missing: run "npx electron-vite build" first (npm test does)`);
});

const ACCOUNTS = '"accounts": [{ "siteId": "shop01", "secretKey": "k", "feeds": [] }]';

/** `text` written as a config file in a fresh directory: its path and that directory. */
function configFile(text: string | Buffer): { cwd: string; file: string } {
  const { dir, cleanup } = tempDir('cli-config-file-');
  cleanups.push(cleanup);
  const file = path.join(dir, 'search-sandbox.config.json');
  writeFileSync(file, text);
  return { cwd: dir, file };
}

async function refused(text: string): Promise<{ line: string; file: string }> {
  const { cwd, file } = configFile(text);
  const r = await runCli(['serve', '--ephemeral', '--port', '0', '--config', file], cwd);
  expect(r.stdout).toBe('');
  expect(r.code).toBe(2);
  const lines = r.stderr.split('\n').filter(Boolean);
  expect(lines, r.stderr).toHaveLength(1);
  return { line: lines[0]!, file };
}

describe('serve --config FILE', () => {
  it('reads a file that starts with a UTF-8 byte order mark as the same file without it', async () => {
    const { cwd, file } = configFile(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`{ ${ACCOUNTS} }`)]),
    );
    const cli = spawnCli(['serve', '--ephemeral', '--port', '0', '--config', file], cwd);
    cleanups.push(() => cli.kill());
    await cli.ready;
    expect(await cli.stderrMatching(/siteId shop01/)).toContain(`config    ${file}`);
  });

  it('refuses a key given twice, naming it and both values', async () => {
    const { line, file } = await refused(`{ ${ACCOUNTS}, "port": 0, "port": 1 }`);
    expect(line).toBe(
      `search-sandbox: ${file}: port: is given twice, as 0 and as 1: JSON keeps only the last one, so delete the one you do not mean`,
    );
  });

  it('refuses a key given twice inside an object, naming its path', async () => {
    const { line, file } = await refused(
      `{ "accounts": [{ "siteId": "shop01", "secretKey": "k", "feeds": [], "secretKey": "other" }] }`,
    );
    expect(line).toBe(
      `search-sandbox: ${file}: accounts[0].secretKey: is given twice, as "k" and as "other": JSON keeps only the last one, so delete the one you do not mean`,
    );
  });

  it.each([
    ['1e400', 'Infinity'],
    ['-1e400', '-Infinity'],
  ])('refuses a number too large to be one (%s), as written', async (literal, reads) => {
    const { line, file } = await refused(
      `{ ${ACCOUNTS}, "attribution": { "windowHours": ${literal} } }`,
    );
    expect(line).toBe(
      `search-sandbox: ${file}: attribution.windowHours: ${literal} is not a finite number (it reads as ${reads}): write a number between -1.7e308 and 1.7e308, within what this key takes`,
    );
  });
});
