// expectMatchesBaseline in a real Playwright run of the built fixture (`search-sandbox/playwright`), as
// Playwright's own toMatchSnapshot behaves: without --update-snapshots a missing baseline is written and the
// test FAILS (a CI run whose baseline was never committed must not pass); with --update-snapshots=missing
// it is written and the test passes, the note in the output and the test's annotations. The fixture's call
// takes `ignore` as the package's does. No browser: the spec posts a recorded journey itself.
// Build first: `npm run -s build:types -- --noCheck && npx electron-vite build`.
import { execFile } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { tempDir } from '../helpers/sandbox';
import { journey, run } from '../helpers/journey';

const ROOT = path.resolve(__dirname, '../..');
const FIXTURE = path.join(ROOT, 'out/main/playwright.js');
const project = tempDir('search-sandbox-baseline-pw-');
afterAll(() => project.cleanup());
const BASELINE = path.join(project.dir, 'beacon-baselines', 'journey.json');

writeFileSync(
  path.join(project.dir, 'journey.spec.mjs'),
  `import { readFileSync } from 'node:fs';
import { test } from ${JSON.stringify(FIXTURE)};
test('journey matches its baseline', async ({ sandbox }) => {
  const lines = readFileSync(new URL('./run.ndjson', import.meta.url), 'utf8').trim().split('\\n');
  for (const { siteId, category, event, body } of lines.map((l) => JSON.parse(l)))
    await fetch(sandbox.url + '/beacon/v2/' + siteId + '/' + category + '/' + event,
      { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(body) });
  await sandbox.expectMatchesBaseline('journey', { siteId: 'demo42', ignore: ['query.ts', 'query.key'] });
});
`,
);
writeFileSync(
  path.join(project.dir, 'pw.config.mjs'),
  `export default { testDir: '.', testMatch: /\\.spec\\.mjs$/, workers: 1, outputDir: './results' };\n`,
);
// Playwright's generated config on CI: retries: 2
writeFileSync(
  path.join(project.dir, 'retries.config.mjs'),
  `import config from './pw.config.mjs';\nexport default { ...config, retries: 2 };\n`,
);

interface Outcome {
  code: number;
  status: string;
  errors: string;
  annotations: Array<{ type: string; description?: string }>;
  stdout: string;
}

/** One Playwright run on CI of the spec against a new recording of the journey (new ids, ts and key). */
async function playwright(...flags: string[]): Promise<Outcome> {
  const j = journey();
  j[0]![0]!.path = '/search?q=shoes&ts={random}';
  j[0]![2]!.path = '/checkout/order-received/{ORDER}/?key=wc_order_{random}';
  writeFileSync(path.join(project.dir, 'run.ndjson'), run(j));
  const cli = path.join(ROOT, 'node_modules/@playwright/test/cli.js');
  const args = [cli, 'test', '--reporter', 'json', ...flags];
  if (!flags.includes('--config')) args.push('--config', 'pw.config.mjs');
  const { code, stdout } = await promisify(execFile)(process.execPath, args, {
    cwd: project.dir,
    env: { ...process.env, CI: '1', FORCE_COLOR: '0', SEARCH_SANDBOX_UPDATE_BASELINES: '' },
  }).then(
    (ok) => ({ code: 0, stdout: ok.stdout }),
    (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
  );
  type Test = {
    annotations: Outcome['annotations'];
    results: Array<{
      status: string;
      errors: Array<{ message: string }>;
      stdout: Array<{ text?: string }>;
    }>;
  };
  const report = JSON.parse(stdout) as { suites: Array<{ specs: Array<{ tests: Test[] }> }> };
  const test = report.suites[0]!.specs[0]!.tests[0]!;
  // the last attempt's (a retried test's verdict)
  const result = test.results.at(-1)!;
  return {
    code,
    status: result.status,
    errors: result.errors.map((e) => e.message).join('\n'),
    annotations: test.annotations,
    stdout: result.stdout.map((s) => s.text ?? '').join(''),
  };
}

it('without --update-snapshots, a missing baseline is written and the test fails; the next run compares and passes', async () => {
  rmSync(path.dirname(BASELINE), { recursive: true, force: true });
  const first = await playwright();
  expect(first, first.errors).toMatchObject({ code: 1, status: 'failed' });
  expect(first.errors).toContain(
    `expectMatchesBaseline("journey"): no baseline ${BASELINE}: wrote this run's traffic to it (4 pages); review it and commit it, and the next run compares with it. To write a missing baseline and pass: update: true, SEARCH_SANDBOX_UPDATE_BASELINES=1 or Playwright's --update-snapshots`,
  );
  expect(existsSync(BASELINE)).toBe(true);
  // the next run (new ids, a new cache buster and order key, both ignored) matches it
  const next = await playwright();
  expect(next, next.errors).toMatchObject({ code: 0, status: 'passed', annotations: [] });
}, 120_000);

it('with --update-snapshots=missing, a missing baseline is written and the test passes, saying so in the output and its annotations', async () => {
  rmSync(path.dirname(BASELINE), { recursive: true, force: true });
  const written = await playwright('--update-snapshots=missing');
  expect(written, written.errors).toMatchObject({ code: 0, status: 'passed' });
  const note = `wrote the missing baseline ${BASELINE} (4 pages): review it and commit it`;
  expect(written.annotations).toEqual([{ type: 'search-sandbox baseline', description: note }]);
  expect(written.stdout).toContain(note);
  // none: nothing is written, the missing baseline fails
  rmSync(path.dirname(BASELINE), { recursive: true, force: true });
  const none = await playwright('--update-snapshots=none');
  expect(none).toMatchObject({ code: 1, status: 'failed' });
  expect(none.errors).toMatch(/no baseline .*journey\.json, and updates are off/);
  expect(existsSync(BASELINE)).toBe(false);
}, 120_000);

it('with retries (CI), the retry of a test that wrote a missing baseline fails too: the run does not pass as flaky', async () => {
  rmSync(path.dirname(BASELINE), { recursive: true, force: true });
  const retried = await playwright('--config', 'retries.config.mjs');
  expect(retried, retried.errors).toMatchObject({ code: 1, status: 'failed' });
  // the last retry's error
  expect(retried.errors).toContain(
    `no baseline ${BASELINE}: an earlier attempt of this test wrote this run's traffic to it (4 pages); review it and commit it`,
  );
  expect(existsSync(BASELINE)).toBe(true);
  // the next run compares with it
  const next = await playwright('--config', 'retries.config.mjs');
  expect(next, next.errors).toMatchObject({ code: 0, status: 'passed' });
}, 120_000);
