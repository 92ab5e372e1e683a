// A missing baseline outside Playwright (vitest, node:test: the package's plain API, the built bundle): it is
// written and the call rejects, as Playwright's toMatchSnapshot fails a run without --update-snapshots, so a
// CI run whose baseline was never committed cannot pass with a note nobody reads; `update: true` (or
// SEARCH_SANDBOX_UPDATE_BASELINES=1) writes it and resolves with the note.
// Build first: `npm run -s build:types -- --noCheck && npx electron-vite build`.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type * as Package from '../../src/main/api/index';
import { tempDir } from '../helpers/sandbox';
import { builtPackage } from '../helpers/built-package';
import { journey, run, sendRun } from '../helpers/journey';

const work = tempDir('baseline-missing-');
let sandbox: Package.StartedSandbox;
beforeAll(async () => {
  sandbox = await (await builtPackage()).startSandbox();
});
afterAll(async () => {
  await sandbox?.close();
  work.cleanup();
});

async function play(): Promise<void> {
  await sandbox.reset();
  await sendRun(sandbox.url, run(journey()));
}

it('writes a missing baseline and rejects, saying what it wrote and how to pass; the next run compares', async () => {
  const dir = path.join(work.dir, 'plain');
  const file = path.join(dir, 'journey.json');
  await play();
  await expect(sandbox.expectMatchesBaseline('journey', { siteId: 'demo42', dir })).rejects.toThrow(
    `expectMatchesBaseline("journey"): no baseline ${file}: wrote this run's traffic to it (4 pages); review it and commit it, and the next run compares with it. To write a missing baseline and pass: update: true, SEARCH_SANDBOX_UPDATE_BASELINES=1 or Playwright's --update-snapshots`,
  );
  expect(readFileSync(file, 'utf8')).toContain('"format": "search-sandbox-baseline"');
  await play();
  expect(await sandbox.expectMatchesBaseline('journey', { siteId: 'demo42', dir })).toEqual({
    status: 'same',
    file,
    pages: 4,
  });
});

it('update: true writes a missing baseline and resolves with the note', async () => {
  const dir = path.join(work.dir, 'update');
  const file = path.join(dir, 'journey.json');
  await play();
  expect(
    await sandbox.expectMatchesBaseline('journey', { siteId: 'demo42', dir, update: true }),
  ).toEqual({
    status: 'written',
    file,
    pages: 4,
    note: `wrote the missing baseline ${file} (4 pages): review it and commit it`,
  });
  expect(existsSync(file)).toBe(true);
});
