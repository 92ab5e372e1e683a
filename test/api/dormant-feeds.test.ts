// Restarting on one data directory with another config: the feeds of sites (or feed ids) the config no
// longer names stay in indexing.json as they were, dormant and unserved, said once at each start, and come
// back whole (state, products, history, catalog) when an account names them again. Real processes.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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

interface Feed {
  state: string;
  products: number;
  history: Array<{ detail: string }>;
}

describe('feeds of accounts a new config leaves out', () => {
  it('are kept dormant across restarts with other configs and come back when named again', async () => {
    const t = tempDir('dormant-feeds-');
    cleanups.push(t.cleanup);
    const data = path.join(t.dir, 'data');
    const configA = path.join(t.dir, 'a.json');
    const configB = path.join(t.dir, 'b.json');
    writeFileSync(
      configA,
      JSON.stringify({
        accounts: [{ siteId: 'shop01', secretKey: 'shop01-secret', feeds: [{ id: 1 }] }],
      }),
    );
    writeFileSync(
      configB,
      JSON.stringify({
        accounts: [{ siteId: 'demo42', secretKey: 'demo-secret-key', feeds: [{ id: 42 }] }],
      }),
    );
    const serve = async (...args: string[]): Promise<CliProcess> => {
      const cli = spawnCli(['serve', '--port', '0', '--data', data, ...args], t.dir);
      cleanups.push(() => cli.kill());
      await cli.ready;
      await cli.stderrMatching(/^ {2}stop /m); // the ready block, warnings and all
      return cli;
    };
    const stop = async (cli: CliProcess) => {
      cli.child.kill('SIGTERM');
      expect(await cli.exit).toBe(0);
    };
    const feed = async (url: string, id: number) =>
      (await (await fetch(`${url}/_sandbox/feeds/demo42/${id}`)).json()) as Feed;

    // the demo config: feed 42 indexed with 24 products
    const demo = await serve();
    const form = new FormData();
    form.append('feedFile', new Blob([fixture('products.csv')]), 'products.csv');
    const up = await fetch(`${demo.url}/api/index/feed?feedId=42`, {
      method: 'POST',
      headers: { Authorization: AUTH },
      body: form,
    });
    expect(up.status).toBe(200);
    await fetch(`${demo.url}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"advance":"PT10M"}',
    });
    expect(await feed(demo.url, 42)).toMatchObject({ state: 'done', products: 24 });
    await stop(demo);

    // only shop01: demo42's feeds are kept, said once, and not served
    const a = await serve('--config', configA);
    const said = (cli: CliProcess) =>
      cli.stderr().match(/indexing\.json keeps feeds [^\n]*/g) ?? [];
    expect(said(a)).toEqual([
      expect.stringContaining(
        'feeds of sites no account names: demo42 (feeds 42, 43, 44); they come back when an account names the site again',
      ),
    ]);
    expect((await fetch(`${a.url}/_sandbox/feeds?siteId=demo42`)).status).toBe(404);
    await stop(a);
    const kept = JSON.parse(readFileSync(path.join(data, 'indexing.json'), 'utf8')) as {
      feeds: Array<{ siteId: string; feedId: number }>;
    };
    expect(kept.feeds.map((f) => `${f.siteId}/${f.feedId}`).sort()).toEqual([
      'demo42/42',
      'demo42/43',
      'demo42/44',
      'shop01/1',
    ]);

    // demo42 with feed 42 only: feed 42 comes back as it was, 43 and 44 (and shop01) stay dormant
    const b = await serve('--config', configB);
    expect(said(b)).toEqual([
      expect.stringMatching(
        /sites no account names: shop01 \(feed 1\).*feeds their account no longer names: demo42 \(feeds 43, 44\)/,
      ),
    ]);
    const back = await feed(b.url, 42);
    expect({ state: back.state, products: back.products }).toEqual({
      state: 'done',
      products: 24,
    });
    expect(back.history.map((h) => h.detail)).toContain('indexed 24 products');
    const catalog = (await (
      await fetch(`${b.url}/_sandbox/feeds/demo42/42/catalog?limit=1`)
    ).json()) as { total: number };
    expect(catalog.total).toBe(24);
    expect((await fetch(`${b.url}/_sandbox/feeds/demo42/43`)).status).toBe(404);
    await stop(b);

    // the demo config again: every demo42 feed is back, and nothing is said of them
    const again = await serve();
    expect(await feed(again.url, 42)).toMatchObject({ state: 'done', products: 24 });
    expect(await feed(again.url, 43)).toMatchObject({ products: 12 });
    expect(said(again)).toEqual([expect.stringContaining('shop01 (feed 1)')]);
  });
});
