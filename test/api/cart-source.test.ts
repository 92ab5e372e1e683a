// A cart feed read from a URL, through the real CLI: each way its source can fail is said in the sandbox's
// words with the fix, a source that fails at start-up is among the ready block's warnings, and after the
// config's URL changed (and a restart) the last run's error says it is of the old URL.
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are shaped by the assertions themselves */
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/sandbox';
import { spawnCli } from './cli-process';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A port nothing listens on: one that was just free. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** A server answering 404 to every path. */
async function notFoundServer(): Promise<number> {
  const server = http.createServer((_req, res) => res.writeHead(404).end('no such file'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise((r) => server.close(r)));
  return (server.address() as AddressInfo).port;
}

function configWith(dir: string, urls: Record<number, string>): string {
  const file = path.join(dir, 'search-sandbox.config.json');
  writeFileSync(
    file,
    JSON.stringify({
      accounts: [
        {
          siteId: 'shop01',
          secretKey: 'shop-secret-key',
          feeds: Object.entries(urls).map(([id, url]) => ({
            id: Number(id),
            interval: '24h',
            source: { kind: 'cart', url },
          })),
        },
      ],
    }),
  );
  return file;
}

async function serve(dir: string, config: string) {
  const cli = spawnCli(['serve', '--port', '0', '--data', 'store', '--config', config], dir);
  cleanups.push(() => cli.kill());
  await cli.ready;
  const feeds = (await (await fetch(`${cli.url}/_sandbox/feeds`)).json()) as any;
  return { cli, feeds: feeds.feeds as any[] };
}

describe('a cart source URL that cannot be read', () => {
  it('is said with the fix, and listed among the start-up warnings', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const closed = await closedPort();
    const missing = await notFoundServer();
    const config = configWith(dir, {
      1: 'http://127.0.0.1:9/feed.csv',
      2: `http://127.0.0.1:${closed}/feed.csv`,
      3: `http://127.0.0.1:${missing}/feed.csv`,
    });
    const { cli, feeds } = await serve(dir, config);
    const errors = feeds.map((f) => f.lastRun.error);
    expect(errors).toEqual([
      "the cart source http://127.0.0.1:9/feed.csv is on port 9, one browsers and Node's fetch refuse to connect to (a blocked port): serve the feed on another port and set source.url in the config to it",
      `the cart source http://127.0.0.1:${closed}/feed.csv cannot be read: nothing listens on 127.0.0.1:${closed}; start the server that serves the feed, or fix source.url in the config`,
      `the cart source http://127.0.0.1:${missing}/feed.csv answered 404 Not Found: check the URL path (source.url in the config)`,
    ]);
    const ready = await cli.stderrMatching(/stop +Ctrl-C/);
    for (const [i, error] of errors.entries())
      expect(ready).toContain(
        `feed ${i + 1} of shop01: the cart source could not be indexed at start-up: ${error.slice(0, 40)}`,
      );
  });

  it('after the config names another URL and the sandbox restarts, says the error is of the old one', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const closed = await closedPort();
    const first = await serve(dir, configWith(dir, { 1: `http://127.0.0.1:${closed}/feed.csv` }));
    first.cli.child.kill('SIGTERM');
    expect(await first.cli.exit).toBe(0);
    const missing = await notFoundServer();
    const { feeds } = await serve(dir, configWith(dir, { 1: `http://127.0.0.1:${missing}/f.csv` }));
    expect(feeds[0].lastRun.error).toMatch(
      new RegExp(
        `^previous run, from the old source http://127\\.0\\.0\\.1:${closed}/feed\\.csv: `,
      ),
    );
    expect(feeds[0].history.at(-1).detail).toBe(
      `the config's cart source changed from http://127.0.0.1:${closed}/feed.csv to http://127.0.0.1:${missing}/f.csv since the last run: its error is of the old source; PUT /api/index/feed?feedId=1 indexes the new one`,
    );
  });
});
