// What `check` and `serve` load to start: none of the packages that only some runs need (the feed formats'
// readers, the mailer, the upload parser, the validator that words a refused admin body; TypeBox is
// bundled). Each is loaded when a run first needs it (src/main/lazy-require.ts): a static import of one
// again would cost every start tens of milliseconds (`npm run bench -- startup`). The child runs with a
// preload that writes each package it loads by name, from an import or a require
// (test/helpers/loads-preload.mjs).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/sandbox';
import { CLI, spawnProcess, type CliProcess } from './cli-process';

const ROOT = path.resolve(__dirname, '../..');
const PRELOAD = path.join(ROOT, 'test/helpers/loads-preload.mjs');
const AUTH = `Basic ${Buffer.from('demo42:demo-secret-key').toString('base64')}`;

/** The packages a start must not load, each as the name it is loaded by (ajv's own runtime helpers may be). */
const ON_DEMAND = [
  'csv-parse',
  'saxes',
  'yauzl',
  'nodemailer',
  'multer',
  'ajv',
  '@sinclair/typebox',
];

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** The on-demand packages the log names, in the order first loaded. */
function onDemand(log: string): string[] {
  if (!existsSync(log)) return [];
  const names = readFileSync(log, 'utf8')
    .split('\n')
    .map((line) => line.replace(/^(import|require) /, ''));
  const hit = (name: string) =>
    ON_DEMAND.find((p) => name === p || (p !== 'ajv' && name.startsWith(`${p}/`)));
  return [...new Set(names.map(hit).filter((p): p is string => p !== undefined))];
}

/**
 * One account with one uploaded feed: the demo fixtures' cart feed is indexed from its CSV file as the
 * sandbox starts, which loads the CSV reader for a reason.
 */
const CONFIG = {
  accounts: [
    {
      siteId: 'demo42',
      secretKey: 'demo-secret-key',
      feeds: [{ id: 42, name: 'Uploaded feed', interval: '24h', source: 'upload' }],
    },
  ],
};

/** POST a JSON body (as text) to an admin endpoint. */
const postJson = (url: string, body: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

function run(args: string[]): { proc: CliProcess; log: string } {
  const { dir, cleanup } = tempDir('startup-loads-');
  cleanups.push(cleanup);
  const log = path.join(dir, 'loads.log');
  writeFileSync(path.join(dir, 'search-sandbox.config.json'), JSON.stringify(CONFIG));
  const proc = spawnProcess(process.execPath, ['--import', PRELOAD, CLI, ...args], dir, {
    LOADS_LOG: log,
  });
  cleanups.push(() => proc.kill());
  return { proc, log };
}

describe('start-up loads', () => {
  it('check of a recording loads none of the on-demand packages', async () => {
    const recording = path.join(ROOT, 'fixtures/sessions/bad-stale-responseid.ndjson');
    const { proc, log } = run(['check', recording]);
    expect(await proc.exit).toBe(1);
    // the preload did run: the beacon validators' runtime helpers are loaded by name
    expect(readFileSync(log, 'utf8')).toMatch(/ajv\/dist\/runtime\/ucs2length/);
    expect(onDemand(log)).toEqual([]);
  });

  it('serve is ready without them and answers queries and bodies that keep their schemas without them; a refused admin body, an upload and a CSV feed each load theirs when first needed', async () => {
    // (the config in its folder: one account, one feed taking uploads)
    const { proc, log } = run(['serve', '--port', '0', '--ephemeral']);
    const url = await proc.ready;
    expect(onDemand(log)).toEqual([]);
    // a query, kept or refused, and a path parameter are judged without a validator to compile
    const statuses = [];
    for (const query of ['events?limit=5&accepted=true', 'events?limit=x', 'feeds/demo42/x'])
      statuses.push((await fetch(`${url}/_sandbox/${query}`)).status);
    expect(statuses).toEqual([200, 400, 400]);
    expect(onDemand(log)).toEqual([]);
    // so is a JSON body that keeps its schema: the validator is loaded to word a refusal
    const kept = await postJson(`${url}/_sandbox/reset`, '{"what":"events","siteId":"demo42"}');
    expect(kept.status).toBe(200);
    expect(onDemand(log)).toEqual([]);

    const refused = await postJson(`${url}/_sandbox/reset`, '{"what":"nope"}');
    expect(refused.status).toBe(400);
    expect(onDemand(log)).toEqual(['ajv']);

    const form = new FormData();
    const csv = readFileSync(path.join(ROOT, 'fixtures/feeds/products.csv'));
    form.append('feedFile', new Blob([csv]), 'products.csv');
    const uploaded = await fetch(`${url}/api/index/feed?feedId=42`, {
      method: 'POST',
      headers: { authorization: AUTH },
      body: form,
    });
    expect(uploaded.status).toBe(200);
    expect(onDemand(log)).toEqual(['ajv', 'multer']);
    // the index runs when the sandbox clock reaches it
    await postJson(`${url}/_sandbox/clock`, '{"advance":"PT2H"}');
    await expect
      .poll(() => onDemand(log), { timeout: 10_000 })
      .toEqual(['ajv', 'multer', 'csv-parse']);
  });
});
