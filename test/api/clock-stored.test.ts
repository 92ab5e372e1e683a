// A clock move answers only once the feed steps it caused are stored, as a real process killed with
// SIGKILL right after the answer shows: the catalog and indexing.json already say `done`, and the restarted
// sandbox finds the feed indexed. When they cannot be stored, the move answers 503 naming what moved.
import { existsSync, mkdirSync, readFileSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/sandbox';
import { CLI, spawnCli, type CliProcess } from './cli-process';
import { AUTH, fixture } from './indexing-helpers';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

beforeAll(() => {
  if (!existsSync(CLI))
    throw new Error(`${CLI} is missing: run "npx electron-vite build" first (npm test does)`);
});

async function serve(data: string, cwd: string): Promise<CliProcess> {
  const cli = spawnCli(['serve', '--port', '0', '--data', data], cwd);
  cleanups.push(() => cli.kill());
  await cli.ready;
  return cli;
}

function uploadProducts(url: string): Promise<Response> {
  const form = new FormData();
  form.append('feedFile', new Blob([fixture('products.csv')]), 'products.csv');
  return fetch(`${url}/api/index/feed?feedId=42`, {
    method: 'POST',
    headers: { Authorization: AUTH },
    body: form,
  });
}

const advance = (url: string, duration: string) =>
  fetch(`${url}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ advance: duration }),
  });

const storedState = (data: string) =>
  (
    JSON.parse(readFileSync(path.join(data, 'indexing.json'), 'utf8')) as {
      feeds: Array<{ siteId: string; feedId: number; state: string; products: number }>;
    }
  ).feeds.find((f) => f.siteId === 'demo42' && f.feedId === 42)!;

async function feed42(url: string): Promise<{ state: string; products: number }> {
  return (await (await fetch(`${url}/_sandbox/feeds/demo42/42`)).json()) as {
    state: string;
    products: number;
  };
}

describe('a clock move of a real process', () => {
  it('answers once the indexed feed is on disk, so SIGKILL right after keeps it done', async () => {
    const t = tempDir('clock-stored-');
    cleanups.push(t.cleanup);
    const data = path.join(t.dir, 'data');
    const first = await serve(data, t.dir);
    expect((await uploadProducts(first.url)).status).toBe(200);
    expect((await advance(first.url, 'PT10M')).status).toBe(200);
    // read at the moment of the answer, before anything else can happen
    const onDisk = storedState(data);
    const catalog = existsSync(path.join(data, 'catalogs', 'demo42-42.ndjson'));
    expect({ state: onDisk.state, products: onDisk.products, catalog }).toEqual({
      state: 'done',
      products: 24,
      catalog: true,
    });
    first.child.kill('SIGKILL');
    expect(await first.exit).toBe(128 + 9);

    const second = await serve(data, t.dir);
    const after = await feed42(second.url);
    expect({ state: after.state, products: after.products }).toEqual({
      state: 'done',
      products: 24,
    });
  });

  it('answers 503 naming the feeds that moved when indexing.json cannot be written', async () => {
    const t = tempDir('clock-stored-');
    cleanups.push(t.cleanup);
    const data = path.join(t.dir, 'data');
    const first = await serve(data, t.dir);
    expect((await uploadProducts(first.url)).status).toBe(200);
    // a directory where the replacement of indexing.json is written: every write of it fails
    const inTheWay = path.join(data, '.indexing.json.tmp');
    mkdirSync(inTheWay);
    const res = await advance(first.url, 'PT10M');
    const body = (await res.json()) as { error: string; message: string; moved: unknown };
    expect(res.status).toBe(503);
    expect(body.error).toBe('StorageFailed');
    expect(body.moved).toEqual([{ feed: 'demo42/42', from: 'waiting', to: 'done' }]);
    expect(body.message).toMatch(/demo42\/42 waiting → done.*could not be stored.*indexing\.json/);
    // no read shows what is not stored
    expect((await fetch(`${first.url}/_sandbox/feeds/demo42/42`)).status).toBe(503);
    expect(storedState(data).state).toBe('waiting');

    // the disk is back: the next read stores the states first, and a SIGKILL after it keeps them
    rmdirSync(inTheWay);
    expect(await feed42(first.url)).toMatchObject({ state: 'done', products: 24 });
    expect(storedState(data).state).toBe('done');
    first.child.kill('SIGKILL');
    await first.exit;
    const second = await serve(data, t.dir);
    expect(await feed42(second.url)).toMatchObject({ state: 'done', products: 24 });
  });
});
