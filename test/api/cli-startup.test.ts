// The offline commands (`check`, `diff`, `tail`) start without the server: express, the TLS certificate
// maker and the UI's routes are loaded by `serve` only (they were ~170 ms of every `check` run's start).
// Observed on the built CLI: every CommonJS package a run loads is listed by a preload.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI } from './cli-process';
import { tempDir } from '../helpers/sandbox';

const ROOT = path.resolve(__dirname, '../..');
const cleanups: Array<() => unknown> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

/** The packages (names under node_modules) that `search-sandbox ARGS` loaded. */
function loadedPackages(args: string[]): { packages: string[]; status: number | null } {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const preload = path.join(dir, 'list-loads.cjs');
  writeFileSync(
    preload,
    `const Module = require('node:module');
const seen = new Set();
const load = Module._load;
Module._load = function (request, parent, isMain) {
  let found = '';
  try { found = Module._resolveFilename(request, parent, isMain); } catch {}
  const m = /node_modules[\\\\/]((?:@[^\\\\/]+[\\\\/])?[^\\\\/]+)/.exec(found || '');
  if (m) seen.add(m[1].replace(/\\\\/g, '/'));
  return load.apply(this, arguments);
};
process.on('exit', () => require('node:fs').writeSync(2, '\\nLOADED ' + JSON.stringify([...seen]) + '\\n'));
`,
  );
  const run = spawnSync(process.execPath, ['--require', preload, CLI, ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const line = /LOADED (.*)\n?$/.exec(run.stderr);
  if (!line) throw new Error(`no list of loaded packages: ${run.stderr.slice(-500)}`);
  return { packages: JSON.parse(line[1]!) as string[], status: run.status };
}

describe('CLI startup', () => {
  it('check and diff load neither express nor the TLS certificate maker', () => {
    const session = path.join(ROOT, 'fixtures', 'sessions', 'good-search-scroll-click.ndjson');
    const check = loadedPackages(['check', session]);
    expect(check.status).toBe(0);
    expect(check.packages).not.toContain('express');
    expect(check.packages).not.toContain('selfsigned');
    // the probe sees packages at all: the validator's ajv is one check needs
    expect(check.packages).toContain('ajv');

    const diff = loadedPackages(['diff', session, session]);
    expect(diff.status).toBe(0);
    expect(diff.packages).not.toContain('express');
  });
});
