// After the sandbox clock goes back ("Reset to real time", or a restart: the clock's offset is not kept),
// over HTTP: the site's search answers from the catalog indexed last — in the order the indexes happened,
// not by their sandbox times, which can now lie ahead of the clock — and the status API never reports a
// next index time at or before the last index's finish time.
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are shaped by the assertions themselves */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import {
  admin,
  advance,
  FIXTURES,
  PAST_A_DAYS_INDEXES,
  put,
  status,
  upload,
  waitForFeed,
  restartableSandboxes,
  clockJustPastTheHour,
} from './indexing-helpers';

const DAY = 86_400_000;
const OUTDOOR = readFileSync(path.resolve(FIXTURES, '../search/outdoor-products.csv'));
const { start, stop, dataDir } = restartableSandboxes();

async function feedView(sb: Sandbox, feedId: number): Promise<any> {
  return (await admin(sb.url, 'GET', `/feeds/demo42/${feedId}`)).body;
}

/** A day ahead: the outdoor catalog (22 products) uploaded to feed 42 and indexed on that clock. */
async function indexOutdoorTomorrow(sb: Sandbox): Promise<string> {
  expect((await advance(sb.url, PAST_A_DAYS_INDEXES)).status).toBe(200);
  // feed 43's scheduled index, which the day reached, is over: feed 42's is the one indexed last
  expect((await feedView(sb, 43)).state).toBe('done');
  expect((await upload(sb.url, 'feedId=42', OUTDOOR, 'outdoor-products.csv')).status).toBe(200);
  expect((await advance(sb.url, 'PT10M')).status).toBe(200);
  const f42 = await waitForFeed(sb, 42, (f) => f.state === 'done' && f.products === 22);
  expect(f42.searchServes?.feedId).toBe(42);
  return f42.lastIndexed!;
}

/** Feed 43 re-indexes its cart source (12 products) at the clock's time. */
async function reindexCart(sb: Sandbox, after: string): Promise<any> {
  expect((await put(sb.url, 'feedId=43')).status).toBe(200);
  expect((await advance(sb.url, 'PT10M')).status).toBe(200);
  await waitForFeed(sb, 43, (f) => f.state === 'done' && (f.lastRun?.finishedAt ?? '') > after);
  return feedView(sb, 43);
}

/** The site's search, every feed's card and a catalog rule's view all name feed 43's catalog. */
async function expectServesCart(sb: Sandbox): Promise<void> {
  const cart = (await admin(sb.url, 'GET', '/feeds/demo42/43/catalog?limit=1000')).body;
  const cartIds = new Set<string>(cart.products.map((p: any) => p.parentId ?? p.uid));
  expect(cartIds.size).toBeGreaterThan(0);
  const res = await fetch(`${sb.url}/api/search/search.json?siteId=demo42&q=&resultsPerPage=250`);
  expect(res.status).toBe(200);
  const uids = ((await res.json()) as any).results.map((r: any) => r.uid);
  expect(uids.length).toBeGreaterThan(0);
  expect(uids.filter((u: string) => !cartIds.has(u))).toEqual([]);
  for (const id of [42, 43, 44]) expect((await feedView(sb, id)).searchServes.feedId).toBe(43);
}

/** Every feed of the status answer: a next index time after its last index, at most one interval on. */
async function expectStatusInOrder(sb: Sandbox): Promise<void> {
  const body = (await (await status(sb.url)).json()) as any;
  for (const f of body.feeds) {
    if (f.lastIndexed === null || f.nextIndexTime === null) continue;
    const gap = Date.parse(f.nextIndexTime) - Date.parse(f.lastIndexed);
    expect({ id: f.id, after: gap > 0, withinInterval: gap <= DAY }).toEqual({
      id: f.id,
      after: true,
      withinInterval: true,
    });
  }
}

describe('the catalog the search serves after the clock goes back', () => {
  it('is the one indexed last after "Reset to real time", not the one at the later sandbox time', async () => {
    const sb = await start(undefined, clockJustPastTheHour());
    const tomorrow = await indexOutdoorTomorrow(sb);
    expect((await admin(sb.url, 'POST', '/clock', { reset: true })).body.offsetMs).toBe(0);
    const f43 = await reindexCart(sb, new Date(Date.now() - 60_000).toISOString());
    expect(f43.products).toBe(12);
    expect(Date.parse(f43.searchServes.indexedAt)).toBeLessThan(Date.parse(tomorrow));
    await expectServesCart(sb);
  });

  it('is the one indexed last after a restart, and stays so after another', async () => {
    const dir = dataDir();
    const first = await start(dir, clockJustPastTheHour());
    await indexOutdoorTomorrow(first);
    await stop(first);
    const second = await start(dir);
    // the clock is at real time again: feed 42's catalog is a day ahead of it, and still served
    expect((await feedView(second, 42)).searchServes.feedId).toBe(42);
    await reindexCart(second, new Date(Date.now() - 60_000).toISOString());
    await expectServesCart(second);
    await stop(second);
    // the order the indexes happened in is kept in the data directory, not worked out from their times
    await expectServesCart(await start(dir));
  });
});

describe('the status API after the clock goes back', () => {
  it('reports each next index time after its last index, and one interval on once a feed indexes again', async () => {
    const sb = await start(undefined, clockJustPastTheHour());
    await indexOutdoorTomorrow(sb);
    await admin(sb.url, 'POST', '/clock', { reset: true });
    await expectStatusInOrder(sb);
    const f42 = await feedView(sb, 42);
    expect(f42.history.at(-1).detail).toMatch(/after the last index/);
    await reindexCart(sb, new Date(Date.now() - 60_000).toISOString());
    await expectStatusInOrder(sb);
  });

  it('puts right, at start-up, a data directory an older version left with the next index before the last', async () => {
    const dir = dataDir();
    const first = await start(dir, clockJustPastTheHour());
    await indexOutdoorTomorrow(first);
    await stop(first);
    // as an older version left it after "Reset to real time": the next index time brought back to at
    // most a day from the clock, to before the index that finished a day ahead
    const file = path.join(dir, 'indexing.json');
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    const f42 = stored.feeds.find((f: any) => f.siteId === 'demo42' && f.feedId === 42);
    f42.nextIndexTime -= DAY;
    expect(f42.nextIndexTime).toBeLessThan(f42.lastIndexed);
    writeFileSync(file, JSON.stringify(stored));
    const second = await start(dir);
    await expectStatusInOrder(second);
    expect((await feedView(second, 42)).history.at(-1).detail).toMatch(
      /^the next index time .+ was not after the last index \(finished .+, ahead of the clock\): it is now .+, the first of the schedule after it$/,
    );
  });

  it('does so after a restart too', async () => {
    const dir = dataDir();
    const first = await start(dir, clockJustPastTheHour());
    await indexOutdoorTomorrow(first);
    await stop(first);
    await expectStatusInOrder(await start(dir));
  });
});
