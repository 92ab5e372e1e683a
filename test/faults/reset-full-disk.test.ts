// A reset refused for a full disk changes nothing: the events, the remembered search responses and the
// journal stay as they were, in memory and after kill -9; once space is back the same reset goes through
// whole, and stays done after kill -9.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  beacon,
  canMountTmpfs,
  json,
  pageLoads,
  render,
  runCleanups,
  serve,
  smallDisk,
  tempDir,
} from './fault-helpers';

afterEach(runCleanups);

const responses = async (url: string): Promise<number> =>
  (await json<{ responses: unknown[] }>(fetch(`${url}/_sandbox/search/responses?siteId=demo42`)))
    .responses.length;

const reset = (url: string, query = '', body?: unknown) =>
  fetch(`${url}/_sandbox/reset${query}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });

describe.skipIf(!canMountTmpfs)('a reset on a full disk', () => {
  it('answers 503 and leaves every event and search response as it was, across kill -9', async () => {
    const cwd = tempDir('reset-full-cwd-');
    const disk = smallDisk('2m');
    const data = path.join(disk.dir, 'data');
    const first = await serve(data, cwd);
    const pages = Array.from({ length: 10 }, (_, i) => `p-reset-${i}`);
    for (const page of pages) expect((await beacon(first.url, render(page))).status).toBe(200);
    const search = await fetch(
      `${first.url}/api/search/search.json?siteId=demo42&q=tent&beacon=true`,
    );
    expect(search.status).toBe(200);
    const remembered = await responses(first.url);
    expect(remembered).toBeGreaterThan(0);
    const journal = readFileSync(path.join(data, 'events.ndjson'), 'utf8');

    const free = disk.fill();
    for (const [query, body] of [
      ['', undefined],
      ['?siteId=demo42', undefined],
      ['', { what: 'all' }],
    ] as const) {
      const refused = await reset(first.url, query, body);
      expect(refused.status, `reset${query} ${JSON.stringify(body)}`).toBe(503);
      const answer = await json<{ error: string; message: string }>(refused);
      expect(answer.error).toBe('StorageFailed');
      expect(answer.message).toMatch(/nothing was (stored|reset).*disk is full \(ENOSPC\)/);
      expect(await pageLoads(first.url)).toEqual(pages);
      expect(await responses(first.url)).toBe(remembered);
    }
    expect(readFileSync(path.join(data, 'events.ndjson'), 'utf8')).toBe(journal);
    free();
    await first.kill();

    const second = await serve(data, cwd);
    expect(await pageLoads(second.url)).toEqual(pages);
    expect(await responses(second.url)).toBe(remembered);
    expect((await reset(second.url)).status).toBe(200);
    expect(await pageLoads(second.url)).toEqual([]);
    expect(await responses(second.url)).toBe(0);
    await second.kill();

    const third = await serve(data, cwd);
    expect(await pageLoads(third.url)).toEqual([]);
    expect(await responses(third.url)).toBe(0);
    await third.kill();
  });
});
