// An import refused for a full disk is answered 503 StorageFailed (the disk, not a bug), says what was
// kept of it (nothing), and the events and remembered search responses are as they were, after kill -9 too.
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

const remembered = async (url: string): Promise<number> =>
  (await json<{ remembered: number }>(fetch(`${url}/_sandbox/search/responses`))).remembered;

describe.skipIf(!canMountTmpfs)('an import on a full disk', () => {
  it('answers 503 StorageFailed, keeps nothing of it, and leaves what was there', async () => {
    const cwd = tempDir('import-full-cwd-');
    const disk = smallDisk('2m');
    const data = path.join(disk.dir, 'data');
    const first = await serve(data, cwd);
    const pages = ['p-import-0', 'p-import-1'];
    for (const page of pages) expect((await beacon(first.url, render(page))).status).toBe(200);
    const search = `${first.url}/api/search/search.json?siteId=demo42&q=tent&beacon=true`;
    expect((await fetch(search)).status).toBe(200);
    const exported = await (await fetch(`${first.url}/_sandbox/export`)).text();
    // more than the last page of the journal's file can take
    const many = (JSON.parse(exported) as { events: unknown[] }).events;
    const events = JSON.stringify(Array.from({ length: 200 }, () => many).flat());
    const withSections = JSON.stringify({ ...JSON.parse(exported), events: JSON.parse(events) });
    const responses = await remembered(first.url);
    expect(responses).toBeGreaterThan(0);

    const free = disk.fill();
    for (const [what, body, query = ''] of [
      ['a bare array of events', events],
      ['an export with sections', withSections],
      ['a replacing import', withSections, '?replace=true'],
    ]) {
      const res = await fetch(`${first.url}/_sandbox/import${query}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
      });
      expect(res.status, what).toBe(503);
      const answer = await json<{ error: string; message: string }>(res);
      expect(answer.error, what).toBe('StorageFailed');
      expect(answer.message, what).toMatch(
        /before any event was stored: .*disk is full \(ENOSPC\)/,
      );
      // a replacing import's reset may have been stored before the disk filled: the sandbox shows it
      // until it restarts, and says so
      if (!query || !/the events its reset forgot as gone/.test(answer.message))
        expect(await pageLoads(first.url), what).toEqual(pages);
      expect(await remembered(first.url), what).toBe(responses);
    }
    free();
    await first.kill();

    const second = await serve(data, cwd);
    expect(await pageLoads(second.url)).toEqual(pages);
    expect(await remembered(second.url)).toBe(responses);
    await second.kill();
  });
});
