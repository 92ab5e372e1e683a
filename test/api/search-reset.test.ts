// A reset of events forgets the search responses the companion search issued to the site reset: they are
// judged with the events, so a page load reused after the reset is not told about a search made before it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type { PageTimelineDto } from '../../src/shared/timeline';
import { postBeacon, tempDir } from '../helpers/sandbox';
import { runToEnd, startFrozen, upload } from './indexing-helpers';

const FEED = readFileSync(path.resolve(__dirname, '../../fixtures/search/outdoor-products.csv'));
const PAGE_URL = 'http://localhost:5173/search?q=jacket';

const data = tempDir();
let sb: Sandbox;
beforeAll(async () => {
  sb = await startFrozen({ dataDir: data.dir });
  expect((await upload(sb.url, 'feedId=42', FEED, 'outdoor-products.csv')).status).toBe(200);
  expect((await runToEnd(sb, 42)).state).toBe('done');
});
afterAll(async () => {
  await sb?.close();
  data.cleanup();
});

/** a search through the companion search API, asked by page load `pageLoadId`: its responseId */
async function search(query: string, pageLoadId: string): Promise<string> {
  const q = new URLSearchParams({
    siteId: 'demo42',
    q: query,
    userId: 'user-1',
    sessionId: 'session-1',
    pageLoadId,
    domain: PAGE_URL,
    beacon: 'true',
    test: 'true',
  });
  const res = await fetch(`${sb.url}/api/search/search.json?${q}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { responseId: string }).responseId;
}

async function render(responseId: string, pageLoadId: string): Promise<void> {
  const res = await postBeacon(sb.url, 'demo42/search/render', {
    context: {
      timestamp: new Date(sb.core.clock.now()).toISOString(),
      pageUrl: PAGE_URL,
      userId: 'user-1',
      sessionId: 'session-1',
      pageLoadId,
      initiator: 'search-sandbox/api-test',
      dev: true,
    },
    data: { responseId },
  });
  expect(res.status).toBe(200);
}

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(`${sb.url}${url}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function rulesOf(pageLoadId: string): Promise<string[]> {
  const res = await fetch(`${sb.url}/_sandbox/timelines/${pageLoadId}?siteId=demo42`);
  expect(res.status).toBe(200);
  return ((await res.json()) as PageTimelineDto).findings.map((f) => f.rule);
}

async function issuedTo(pageLoadId: string): Promise<string[]> {
  const res = await fetch(
    `${sb.url}/_sandbox/search/responses?siteId=demo42&pageLoadId=${pageLoadId}`,
  );
  return ((await res.json()) as { responses: Array<{ responseId: string }> }).responses.map(
    (r) => r.responseId,
  );
}

describe('a reset of events and the search responses issued before it', () => {
  it('says nothing about a search made before the reset to a page load reused after it', async () => {
    // before the reset: a search the page never rendered
    const before = await search('xyzzy-nothing', 'reused');
    expect(await issuedTo('reused')).toEqual([before]);
    expect((await post('/_sandbox/reset', { what: 'events' })).status).toBe(200);
    // after it: the same page load searches and renders what it searched, 3 s later
    expect((await post('/_sandbox/clock', { advance: 'PT3S' })).status).toBe(200);
    const after = await search('jacket', 'reused');
    await render(after, 'reused');
    expect(await rulesOf('reused')).toEqual([]);
    expect(await issuedTo('reused')).toEqual([after]);
    // what an export holds agrees: the forgotten search is not in it
    const exported = (await (await fetch(`${sb.url}/_sandbox/export`)).json()) as {
      search: { responses: Array<{ responseId: string }> };
    };
    expect(exported.search.responses.map((r) => r.responseId)).not.toContain(before);
    expect(exported.search.responses.map((r) => r.responseId)).toContain(after);
    // and imported in place of the events, it judges as before: its responses come back with it
    const imported = await fetch(`${sb.url}/_sandbox/import?replace=true`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(exported),
    });
    expect(imported.status).toBe(200);
    expect(await issuedTo('reused')).toEqual([after]);
    expect(await rulesOf('reused')).toEqual([]);
  });

  it('stays forgotten after a restart', async () => {
    const gone = await search('xyzzy-nothing', 'restarted');
    expect((await post('/_sandbox/reset', { what: 'events' })).status).toBe(200);
    expect((await post('/_sandbox/clock', { advance: 'PT3S' })).status).toBe(200);
    const shown = await search('jacket', 'restarted');
    await render(shown, 'restarted');
    await sb.close();
    sb = await startFrozen({ dataDir: data.dir });
    expect(await issuedTo('restarted')).toEqual([shown]);
    const all = await (await fetch(`${sb.url}/_sandbox/search/responses/${gone}`)).status;
    expect(all).toBe(404);
    expect(await rulesOf('restarted')).toEqual([]);
  });

  it('forgets only the reset site’s responses when one site is reset', async () => {
    const kept = await search('jacket', 'other-site-reset');
    expect((await post('/_sandbox/reset?siteId=other1', { what: 'events' })).status).toBe(200);
    expect(await issuedTo('other-site-reset')).toEqual([kept]);
    expect((await post('/_sandbox/reset?siteId=demo42', { what: 'events' })).status).toBe(200);
    expect(await issuedTo('other-site-reset')).toEqual([]);
  });
});
