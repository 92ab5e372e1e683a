// expectMatchesBaseline's `ignore` option through the built package (out/main/api.js, what `import
// 'search-sandbox'` loads): a URL parameter that changes every run (a cache buster, WooCommerce's order key)
// is left out as `search-sandbox diff --ignore` leaves it out, with its checks and its "matched nothing"
// warning. Build first: `npm run -s build:types -- --noCheck && npx electron-vite build`.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type * as Package from '../../src/main/api/index';
import type { BaselineOptions } from '../../src/main/api/index';
import { tempDir } from '../helpers/sandbox';
import { builtPackage } from '../helpers/built-package';
import { journey, run, type Journey, sendRun } from '../helpers/journey';
import { CLI } from './cli-process';

const work = tempDir('baseline-ignore-');
let sandbox: Package.StartedSandbox;
beforeAll(async () => {
  sandbox = await (await builtPackage()).startSandbox();
});
afterAll(async () => {
  await sandbox?.close();
  work.cleanup();
});

async function play(ndjson: string): Promise<void> {
  await sandbox.reset();
  await sendRun(sandbox.url, ndjson);
}

/** The journey with its search page behind a cache buster and its thank-you page WooCommerce's. */
function volatileUrls(): Journey {
  const j = journey();
  j[0]![0]!.path = '/search?q=shoes&ts={random}';
  j[0]![2]!.path = '/checkout/order-received/{ORDER}/?key=wc_order_{random}';
  return j;
}

const settle = <T>(p: Promise<T>) =>
  p.then(
    (r) => r,
    (e: Error) => e,
  );

it('ignore: ["query.ts", "query.key"] leaves the cache buster and the order key out: the next run matches', async () => {
  const dir = path.join(work.dir, 'volatile');
  const options: BaselineOptions = { siteId: 'demo42', dir, ignore: ['query.ts', 'query.key'] };
  await play(run(volatileUrls()));
  expect(
    await sandbox.expectMatchesBaseline('journey', { ...options, update: true }),
  ).toMatchObject({
    status: 'written',
  });
  await play(run(volatileUrls()));
  expect(await sandbox.expectMatchesBaseline('journey', options)).toEqual({
    status: 'same',
    file: path.join(dir, 'journey.json'),
    pages: 4,
  });
  // without them, the parameters split the pages every run
  const without = await settle(sandbox.expectMatchesBaseline('journey', { siteId: 'demo42', dir }));
  expect(without).toBeInstanceOf(Error);
  expect((without as Error).message).toMatch(/the tracking differs from the baseline/);
  // the file lacks what it was written without: the error says so before the fix of updating it
  expect((without as Error).message).toContain(
    'The baseline was written with ignore ["query.ts","query.key"], which this call does not give: the file lacks them, so a run that has them differs there. Give ignore: ["query.ts","query.key"] again to leave them out, or update the baseline to compare them.\nTo accept this run',
  );
  // a field path too, as diff takes it
  const changed = volatileUrls();
  (changed[0]![2]!.events[0]!.data as { total: number }).total = 90;
  await play(run(changed));
  expect(
    await sandbox.expectMatchesBaseline('journey', {
      ...options,
      ignore: [...options.ignore!, 'data.total'],
    }),
  ).toMatchObject({ status: 'same' });
});

it('an ignore path that matched nothing is said with the nearest that occurs, in the result and the error', async () => {
  const dir = path.join(work.dir, 'typo');
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    await play(run(volatileUrls()));
    const written = await sandbox.expectMatchesBaseline('journey', {
      siteId: 'demo42',
      dir,
      update: true,
      ignore: ['query.ts', 'query.key', 'data.result[].price'],
    });
    const typo = `expectMatchesBaseline("journey"): ignore data.result[].price matched no field of an event in this run's traffic, so it left nothing out; did you mean data.results[].price?`;
    expect(written.warnings).toEqual([typo]);
    expect(warn).toHaveBeenCalledWith(typo);
    await play(run(volatileUrls()));
    const err = await settle(
      sandbox.expectMatchesBaseline('journey', {
        siteId: 'demo42',
        dir,
        ignore: ['query.tss', 'query.key'],
      }),
    );
    expect((err as Error).message).toContain(
      `\nexpectMatchesBaseline("journey"): ignore query.tss matched no URL parameter of a page in the baseline or this run's traffic, so it left nothing out; did you mean query.ts?\nThe baseline was written with ignore ["query.ts","data.result[].price"], which this call does not give`,
    );
  } finally {
    warn.mockRestore();
  }
});

it('refuses an ignore that is not a list of paths, naming the item, the value and the rule', async () => {
  await play(run(volatileUrls()));
  const refused = async (ignore: unknown) =>
    (
      (await settle(
        sandbox.expectMatchesBaseline('journey', { siteId: 'demo42', ignore } as BaselineOptions),
      )) as Error
    ).message;
  expect(await refused('query.ts')).toBe(
    `expectMatchesBaseline: ignore "query.ts" must be a list of paths (field paths or query.NAME for a URL parameter), e.g. ignore: ['query.ts', 'data.results[].price']`,
  );
  expect(await refused(['query.ts', 5])).toBe(
    `expectMatchesBaseline: ignore[1] 5 must be a string: a field path or query.NAME for a URL parameter, e.g. ignore: ['query.ts', 'data.results[].price']`,
  );
  expect(await refused(['data..total'])).toBe(
    'expectMatchesBaseline: ignore[0] "data..total" is not a field path: use dotted names with [] for any index, e.g. data.results[].price or context.pageUrl, or query.NAME for a parameter of the page URL, e.g. query.token',
  );
});

it('a baseline carries the paths it was written without: diff BASELINE RUN leaves them out of the run too, and says so', async () => {
  const dir = path.join(work.dir, 'carried');
  await play(run(volatileUrls()));
  await sandbox.expectMatchesBaseline('journey', {
    siteId: 'demo42',
    dir,
    ignore: ['query.ts', 'query.key'],
    update: true,
  });
  const baseline = path.join(dir, 'journey.json');
  expect(readFileSync(baseline, 'utf8')).toContain('\n  "ignore": ["query.ts","query.key"],\n');
  const runFile = path.join(dir, 'run.ndjson');
  writeFileSync(runFile, run(volatileUrls()));
  const r = spawnSync(process.execPath, [CLI, 'diff', baseline, runFile], { encoding: 'utf8' });
  expect(r.stdout).toMatch(/^same tracking: 4 pages of /);
  expect(r.stderr).toBe(
    `search-sandbox diff: BASE (${baseline}) was written with ignore query.ts, ignore query.key: left out of CURRENT too, as --ignore would\n`,
  );
  expect(r.status).toBe(0);
  // the other way round, the run was read before the baseline said so: told how to compare them alike
  const back = spawnSync(process.execPath, [CLI, 'diff', runFile, baseline], { encoding: 'utf8' });
  expect(back.status).toBe(1);
  expect(back.stderr).toContain(
    `CURRENT (${baseline}) was written with ignore query.ts, ignore query.key, which BASE was read without: give --ignore query.ts --ignore query.key to compare them alike`,
  );
});
