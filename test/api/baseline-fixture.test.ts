// The Playwright fixture's expectMatchesBaseline (withTestBaselines): baselines beside the test file, and
// Playwright's updateSnapshots modes: 'missing' writes only an absent baseline, 'none' writes nothing,
// 'changed' and 'all' rewrite. Against a real sandbox on port 0.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startSandbox, type StartedSandbox } from '../../src/main/api/index';
import { withTestBaselines } from '../../src/main/api/test-baselines';
import { testBaselinesOf } from '../../src/main/api/client';
import { tempDir } from '../helpers/sandbox';
import { journey, run, sendRun } from '../helpers/journey';
import { watchSyncs } from '../helpers/synced-files';
import { BASELINE_WITH_PARAMS_AS_RECORDED, paramsJourney } from '../helpers/reordered-params';

let sandbox: StartedSandbox;
const cleanups: Array<() => void> = [];
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

async function play(ndjson: string): Promise<void> {
  await sandbox.reset();
  await sendRun(sandbox.url, ndjson);
}

function inTest(updateSnapshots: string) {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const file = path.join(dir, 'tests', 'checkout.spec.ts');
  return {
    sandbox: withTestBaselines(sandbox, { file, config: { updateSnapshots }, annotations: [] }),
    baseline: path.join(dir, 'tests', 'beacon-baselines', 'checkout.json'),
  };
}

const changed = () => {
  const j = journey();
  (j[0]![2]!.events[0]!.data as { total: number }).total = 90;
  return j;
};

it("'missing' (Playwright's default) writes an absent baseline beside the test file, then compares", async () => {
  const t = inTest('missing');
  await play(run(journey()));
  const watch = await watchSyncs();
  try {
    expect(await t.sandbox.expectMatchesBaseline('checkout')).toMatchObject({
      status: 'written',
      file: t.baseline,
    });
  } finally {
    watch.stop();
  }
  // written whole under a temp name and on disk before the test is told so: a test run killed meanwhile
  // leaves no half baseline to be committed
  const dir = path.dirname(t.baseline);
  expect(watch.synced).toEqual([`sync ${path.join(dir, '.checkout.json.tmp')}`, `sync ${dir}`]);
  await play(run(changed()));
  await expect(t.sandbox.expectMatchesBaseline('checkout')).rejects.toThrow(
    /field {4}order\/transaction \(event 1\) data\.total: 100 → 90/,
  );
  // the worker's own sandbox keeps the package's default (beacon-baselines in the current directory)
  expect(testBaselinesOf(sandbox)).toBeUndefined();
  expect(testBaselinesOf(t.sandbox)?.dir).toBe(dir);
});

it("'none' writes nothing: a missing baseline fails and says how to write it", async () => {
  const t = inTest('none');
  await play(run(journey()));
  await expect(t.sandbox.expectMatchesBaseline('checkout')).rejects.toThrow(
    /no baseline .*checkout\.json, and updates are off \(updateSnapshots: 'none'\): run once with --update-snapshots/,
  );
  expect(existsSync(t.baseline)).toBe(false);
});

it("'changed' and 'all' (--update-snapshots) rewrite a differing baseline; a matching one stays", async () => {
  const first = inTest('missing');
  await play(run(journey()));
  await first.sandbox.expectMatchesBaseline('checkout');
  const written = readFileSync(first.baseline, 'utf8');
  for (const mode of ['changed', 'all']) {
    const t = withTestBaselines(sandbox, {
      file: path.join(path.dirname(first.baseline), '..', 'checkout.spec.ts'),
      config: { updateSnapshots: mode },
      annotations: [],
    });
    await play(run(changed()));
    expect(await t.expectMatchesBaseline('checkout')).toMatchObject({ status: 'updated' });
    expect(readFileSync(first.baseline, 'utf8')).toContain('"total":90');
    // the same run again: 'changed' leaves the file, 'all' writes it anyway (the same text)
    await play(run(changed(), { origin: 'http://127.0.0.1:9999' }));
    const again = await t.expectMatchesBaseline('checkout');
    expect(again.status).toBe(mode === 'all' ? 'updated' : 'same');
    // back to the first run's tracking: the file is the first one, byte for byte (new ids, same text)
    await play(run(journey(), { order: [1, 0] }));
    await t.expectMatchesBaseline('checkout');
    expect(readFileSync(first.baseline, 'utf8')).toBe(written);
  }
  expect(readFileSync(first.baseline, 'utf8')).toBe(written);
});

it('a thank-you URL carrying the order number matches the next run; a price change is one field change, its error clean for test runners', async () => {
  const withOrder = (price: number) => {
    const j = journey();
    j[0]![2]!.path = '/checkout/thanks?order={ORDER}';
    (j[0]![2]!.events[0]!.data.results as Array<{ price: number }>)[0]!.price = price;
    return j;
  };
  const t = inTest('missing');
  await play(run(withOrder(100)));
  expect(await t.sandbox.expectMatchesBaseline('thanks')).toMatchObject({ status: 'written' });
  expect(readFileSync(t.baseline.replace('checkout.json', 'thanks.json'), 'utf8')).toContain(
    '"page": "/checkout/thanks?order={orderId}"',
  );
  await play(run(withOrder(100)));
  expect(await t.sandbox.expectMatchesBaseline('thanks')).toMatchObject({ status: 'same' });
  await play(run(withOrder(95)));
  const err = await t.sandbox.expectMatchesBaseline('thanks').then(
    () => null,
    (e: unknown) => e as Error & Record<string, unknown>,
  );
  expect(err?.message).toMatch(
    /\nchanged {2}order \/checkout\/thanks\?order=\{orderId\}\n {2}field {4}order\/transaction \(event 1\) data\.results\[0\]\.price: 100 → 95\n1 page differs \(1 changed of 4 in both runs; 4 pages in each\)/,
  );
  // vitest and jest print an error's `diff` as their own expected/actual text ("[object Object]")
  expect(err).not.toHaveProperty('diff');
  expect((err?.comparison as { same: boolean }).same).toBe(false);
});

it('a render sent after its impression fails with one moved line, naming what it now comes after', async () => {
  const t = inTest('missing');
  await play(run(journey()));
  expect(await t.sandbox.expectMatchesBaseline('checkout')).toMatchObject({ status: 'written' });
  const late = journey();
  const search = late[0]![0]!.events;
  search.splice(1, 0, search.splice(0, 1)[0]!);
  await play(run(late));
  const err = await t.sandbox.expectMatchesBaseline('checkout').then(
    () => null,
    (e: unknown) => e as Error & Record<string, unknown>,
  );
  expect(err?.message).toContain(
    '\nchanged  search /search?q=shoes\n' +
      '  moved    search/render: event 1 → event 2 (now after search/impression)\n' +
      '1 page differs (1 changed of 4 in both runs; 4 pages in each)',
  );
  expect((err?.comparison as { same: boolean }).same).toBe(false);
});

it('a baseline committed before pages were matched by their set of URL parameters stays the same for the same journey, its parameters in either order, and is left as it is', async () => {
  for (const mode of ['missing', 'changed']) {
    const t = inTest(mode);
    const file = t.baseline.replace('checkout.json', 'params.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, BASELINE_WITH_PARAMS_AS_RECORDED);
    for (const reordered of [false, true]) {
      await play(run(paramsJourney(reordered)));
      expect(
        await t.sandbox.expectMatchesBaseline('params'),
        `${mode}, reordered: ${reordered}`,
      ).toMatchObject({
        status: 'same',
        file,
      });
    }
    expect(readFileSync(file, 'utf8')).toBe(BASELINE_WITH_PARAMS_AS_RECORDED);
  }
});
