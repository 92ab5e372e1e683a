// A full disk: every write the sandbox would acknowledge (a beacon, a remembered search response, an
// indexing request and the feed state it changes, an upload, a settings change) is refused 503 with the
// disk's problem, health says so, nothing torn is left for the next write to join, and what is
// acknowledged once space is back survives kill -9.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BASIC,
  beacon,
  canMountTmpfs,
  json,
  render,
  runCleanups,
  serve,
  smallDisk,
  tempDir,
} from './fault-helpers';

afterEach(runCleanups);

const search = (url: string, q: string) =>
  fetch(`${url}/api/search/search.json?siteId=demo42&q=${q}&beacon=true`);

const index = (url: string, feedId: number) =>
  fetch(`${url}/api/index/feed?feedId=${feedId}`, {
    method: 'PUT',
    headers: { Authorization: BASIC },
  });

function upload(url: string): Promise<Response> {
  const form = new FormData();
  form.append('feedFile', new Blob(['id,name\nf1,Full disk tent\n']), 'products.csv');
  return fetch(`${url}/api/index/feed?feedId=42`, {
    method: 'POST',
    headers: { Authorization: BASIC },
    body: form,
  });
}

async function healthBecomes(
  url: string,
  status: string,
): Promise<{ status: string; problem: string }> {
  for (;;) {
    const health = await json<{ status: string; problem: string }>(fetch(`${url}/_sandbox/health`));
    if (health.status === status) return health;
    await new Promise((resolve) => setTimeout(resolve, 50)); // the next probe is due within a second
  }
}

function requests(feed: { history: Array<{ kind: string; accepted?: boolean }> }) {
  return feed.history.filter((h) => h.kind === 'request' && h.accepted).length;
}

describe.skipIf(!canMountTmpfs)('a full disk', () => {
  it('refuses what it cannot store, says so in health, and keeps what it acknowledged after', async () => {
    const cwd = tempDir('full-disk-cwd-');
    const disk = smallDisk('8m');
    const data = path.join(disk.dir, 'data');
    const first = await serve(data, cwd);
    const url = first.url;
    expect((await json(fetch(`${url}/_sandbox/health`))).status).toBe('ok');
    const before = await json<{ history: [] }>(fetch(`${url}/_sandbox/feeds/demo42/43`));

    const free = disk.fill();
    // health probes the disk at most once a second: asked again until it tells
    const health = await healthBecomes(url, 'unwritable');
    expect(health.problem).toMatch(/disk is full \(ENOSPC\)/);

    // An append may still fit in the last page of its file: what is answered 200 must survive too.
    // Each refusal is a 5xx JSON answer that says what happened, never a success.
    const acknowledged: string[] = [];
    let refusedSearch: Response | undefined;
    for (let i = 0; i < 40 && !refusedSearch; i++) {
      const res = await search(url, 'tent');
      if (res.status === 200)
        acknowledged.push((await json<{ responseId: string }>(res)).responseId);
      else refusedSearch = res;
    }
    expect(refusedSearch?.status).toBe(503);
    expect((await json<{ message: string }>(refusedSearch!)).message).toMatch(
      /nothing was stored.*disk is full/,
    );
    const refusedIndex = await index(url, 43);
    expect(refusedIndex.status).toBe(503);
    expect(await json(refusedIndex)).toMatchObject({ success: false, error: 'StorageFailed' });
    const refusedUpload = await upload(url);
    expect(refusedUpload.status).toBe(503);
    const refusedPatch = await fetch(`${url}/_sandbox/feeds/demo42/44`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ interval: '1h' }),
    });
    expect(refusedPatch.status).toBe(503);
    const pages: string[] = [];
    for (let i = 0; ; i++) {
      const status = (await beacon(url, render(`p-full-${i}`))).status;
      if (status !== 200) {
        expect(status).toBe(503);
        break;
      }
      pages.push(`p-full-${i}`);
      expect(i).toBeLessThan(40);
    }
    // a refused upload leaves no file behind, not even an empty one
    const uploads = path.join(data, 'uploads');
    const kept = (() => {
      try {
        return readdirSync(uploads);
      } catch {
        return [];
      }
    })();
    expect(kept.filter((f) => f.startsWith('demo42-42'))).toEqual([]);

    free();
    await healthBecomes(url, 'ok');
    const issued = await json<{ responseId: string }>(search(url, 'tent'));
    expect(issued.responseId).toBeTruthy();
    expect((await index(url, 43)).status).toBe(200);
    expect((await beacon(url, render('p-after'))).status).toBe(200);
    await first.kill();

    const second = await serve(data, cwd);
    for (const responseId of [...acknowledged, issued.responseId]) {
      const remembered = await fetch(`${second.url}/_sandbox/search/responses/${responseId}`);
      expect(remembered.status, `responseId ${responseId}`).toBe(200);
    }
    const feed = await json<{ history: [] }>(fetch(`${second.url}/_sandbox/feeds/demo42/43`));
    expect(requests(feed)).toBe(requests(before) + 1);
    const events = await json<{ events: Array<{ body: { context: { pageLoadId: string } } }> }>(
      fetch(`${second.url}/_sandbox/events?accepted=true`),
    );
    expect(events.events.map((e) => e.body.context.pageLoadId)).toEqual([...pages, 'p-after']);
    await second.kill();
  });
});
