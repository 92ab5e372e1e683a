// Search pass-through over real HTTP: the provider's Snap client pointed at the sandbox gets the (fake, local)
// real service's answers unchanged; responses with a responseId are remembered as issued, so the provenance
// rules check later beacons against them; an upstream that is down, slow or answers garbage gets a 502/504.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@searchspring/snap-client';
import type { Sandbox } from '../../src/main/sandbox';
import type { PageTimelineDto } from '../../src/shared/timeline';
import { postBeacon, startSandbox, tempDir } from '../helpers/sandbox';
import { heldPort, startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream';
import { SITE, beacon, passThroughAccounts, startPassThrough } from '../helpers/pass-through';

const RECORDED = JSON.parse(
  readFileSync(
    path.resolve(__dirname, '../../fixtures/search/upstream-search-response.json'),
    'utf8',
  ),
) as Record<string, unknown>;
const RESPONSE_ID = RECORDED.responseId as string;
const META = { facets: {}, sortOptions: [] };

let fake: FakeUpstream;
let sb: Sandbox;
beforeAll(async () => {
  fake = await startFakeUpstream((req) => {
    if (req.url.startsWith('/api/meta/meta.json')) return { body: META };
    if (req.url.startsWith('/api/suggest/query'))
      return { body: { query: 'jack', suggested: { text: 'jacket' }, alternatives: [] } };
    return {
      body: RECORDED,
      headers: { 'Cache-Control': 'max-age=300, public', 'X-Internal': 'not passed on' },
    };
  });
  sb = await startPassThrough({ search: { upstream: fake.url, upstreamTimeoutMs: 500 } });
});
afterAll(async () => {
  await sb?.close();
  await fake?.close();
});
afterEach(() => {
  fake.seen.length = 0;
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the client's types come from a package it does not ship
type Any = any;

async function page(pageLoadId: string): Promise<PageTimelineDto> {
  const res = await fetch(`${sb.url}/_sandbox/timelines/${pageLoadId}`);
  const body = (await res.json()) as PageTimelineDto | { pages: PageTimelineDto[] };
  return 'pages' in body ? body.pages[0]! : body;
}

describe('search pass-through', () => {
  it('gives the Snap client the upstream answer and remembers its responseId as from upstream', async () => {
    const client = new Client({ siteId: SITE }, {
      mode: 'development',
      search: { origin: sb.url },
      meta: { origin: sb.url },
    } as Any);
    const [, response] = await client.search({ search: { query: { string: 'jacket' } } });
    expect(response.results.map((r: Any) => r.id)).toEqual(['8128', '8131', '8140']);
    expect(response.tracking.responseId).toBe(RESPONSE_ID);
    const search = fake.seen.find((r) => r.url.startsWith('/api/search/search.json'))!;
    const q = new URL(search.url, 'http://x').searchParams;
    expect([q.get('siteId'), q.get('q'), q.get('beacon'), q.get('test')]).toEqual([
      SITE,
      'jacket',
      'true',
      'true',
    ]);
    const remembered = await (
      await fetch(`${sb.url}/_sandbox/search/responses/${RESPONSE_ID}`)
    ).json();
    expect(remembered).toMatchObject({
      responseId: RESPONSE_ID,
      siteId: SITE,
      query: 'jacket',
      upstream: fake.url,
      test: true,
      slots: { header: ['91001'] },
      inline: [{ uid: '91002', index: 1 }],
    });
  });

  it('answers with the upstream status, content type, cache headers and body bytes unchanged', async () => {
    const res = await fetch(`${sb.url}/api/search/search.json?siteId=${SITE}&q=jacket&beacon=true`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('cache-control')).toBe('max-age=300, public');
    expect(res.headers.get('x-internal')).toBeNull();
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.text()).toBe(JSON.stringify(RECORDED));
  });

  it('forwards category, autocomplete, suggest and meta (GET and POST with its body)', async () => {
    for (const p of ['search/category.json', 'search/autocomplete.json', 'suggest/query']) {
      const res = await fetch(`${sb.url}/api/${p}?siteId=${SITE}&q=jack`);
      expect(res.status, p).toBe(200);
    }
    const post = await fetch(`${sb.url}/api/meta/meta.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ siteId: SITE }),
    });
    expect(await post.json()).toEqual(META);
    const seen = fake.seen.map((r) => `${r.method} ${r.url.split('?')[0]}`);
    expect(seen).toEqual([
      'GET /api/search/category.json',
      'GET /api/search/autocomplete.json',
      'GET /api/suggest/query',
      'POST /api/meta/meta.json',
    ]);
    expect(fake.seen[3]!.body.toString()).toBe(JSON.stringify({ siteId: SITE }));
    expect(fake.seen[3]!.headers['content-type']).toBe('application/json');
    expect(fake.seen[3]!.headers['content-encoding']).toBeUndefined();
  });

  it('sends a compressed body with its Content-Encoding, bytes untouched', async () => {
    const gzipped = gzipSync(JSON.stringify({ siteId: SITE }));
    const post = await fetch(`${sb.url}/api/meta/meta.json?siteId=${SITE}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: gzipped,
    });
    expect(post.status).toBe(200);
    const seen = fake.seen.at(-1)!;
    expect(seen.headers['content-encoding']).toBe('gzip');
    expect(Buffer.compare(seen.body, gzipped)).toBe(0);
  });

  it('checks later beacons against the forwarded response (provenance rules)', async () => {
    await postBeacon(sb.url, `${SITE}/search/render`, beacon('pt-1', { responseId: RESPONSE_ID }));
    const imp = await postBeacon(
      sb.url,
      `${SITE}/search/impression`,
      beacon('pt-1', {
        responseId: RESPONSE_ID,
        results: [
          { type: 'product', uid: '8128', parentId: '', sku: 'RSJ-100' },
          { type: 'product', uid: '9999', parentId: '', sku: 'X' },
        ],
        banners: [{ uid: '91001' }, { uid: '55555' }],
      }),
    );
    expect(imp.status).toBe(200);
    sb.core.timelines.flushChanges();
    const rules = (await page('pt-1')).findings.map((f) => f.rule).sort();
    // dev-flag: these beacons are production-shaped (no context.dev); the rest is provenance
    expect(rules).toEqual(['banner-not-in-response', 'dev-flag', 'item-not-in-response']);
    const item = (await page('pt-1')).findings.find((f) => f.rule === 'item-not-in-response')!;
    expect(item.message).toContain('"9999"');
    expect(item.message).toMatch(/^1 item reported/);
  });

  it('passes an upstream error status through unchanged and remembers nothing', async () => {
    const before = sb.core.search.responses.size;
    fake.answer = () => ({
      status: 429,
      headers: { 'Retry-After': '2' },
      body: { responseId: 'not-issued', message: 'rate limited' },
    });
    const res = await fetch(`${sb.url}/api/search/search.json?siteId=${SITE}&q=x`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(sb.core.search.responses.size).toBe(before);
  });

  it('answers 502 naming the upstream when it answers garbage, and remembers nothing', async () => {
    const before = sb.core.search.responses.size;
    fake.answer = () => ({
      body: '<html>Bad gateway</html>',
      headers: { 'Content-Type': 'text/html' },
    });
    const res = await fetch(`${sb.url}/api/search/search.json?siteId=${SITE}&q=x`);
    expect(res.status).toBe(502);
    const body = (await res.json()) as { error: string; message: string; upstream: string };
    expect(body.error).toBe('UpstreamInvalidResponse');
    expect(body.upstream).toBe(`${fake.url}/api/search/search.json?siteId=${SITE}&q=x`);
    expect(body.message).toContain(
      '"<html>Bad gateway</html>" (text/html) where JSON was expected',
    );
    expect(body.message).toContain('accounts[0].search.upstream');
    expect(sb.core.search.responses.size).toBe(before);
  });

  it('answers 504 when the upstream is slow, and keeps serving', async () => {
    fake.answer = () => ({ hold: true });
    const res = await fetch(`${sb.url}/api/search/search.json?siteId=${SITE}&q=slow`);
    expect(res.status).toBe(504);
    const body = (await res.json()) as { error: string; message: string };
    expect(body.error).toBe('UpstreamTimeout');
    expect(body.message).toContain('did not answer within 500 ms');
    expect(body.message).toContain('accounts[0].search.upstreamTimeoutMs');
    fake.release();
    expect((await fetch(`${sb.url}/_sandbox/health`)).status).toBe(200);
  });

  it('answers CORS preflights of the JSON POSTs (meta, suggest) itself', async () => {
    const res = await fetch(`${sb.url}/api/suggest/query`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://shop.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type');
    expect(fake.seen).toHaveLength(0);
  });

  it('refuses a request that the sandbox forwarded to itself (508)', async () => {
    const res = await fetch(`${sb.url}/api/search/search.json?siteId=${SITE}&q=x`, {
      headers: { 'X-Search-Sandbox-Forwarded': '1' },
    });
    expect(res.status).toBe(508);
    expect(fake.seen).toHaveLength(0);
  });
});

describe('search pass-through to an upstream that is down', () => {
  it('answers 502 naming the upstream and the cause', async () => {
    const held = await heldPort();
    const origin = held.origin;
    const down = await startPassThrough({ search: { upstream: origin } });
    await held.close();
    try {
      const res = await fetch(`${down.url}/api/search/search.json?siteId=${SITE}&q=x&beacon=true`);
      expect(res.status).toBe(502);
      const body = (await res.json()) as { error: string; message: string };
      expect(body.error).toBe('UpstreamUnreachable');
      expect(body.message).toContain(`${origin}/api/search/search.json`);
      expect(body.message).toContain('ECONNREFUSED');
      expect(down.core.search.responses.size).toBe(0);
    } finally {
      await down.close();
    }
  });
});

describe('responses forwarded from upstream', () => {
  it('are still remembered, as from upstream, after a restart', async () => {
    const { dir, cleanup } = tempDir();
    const accounts = passThroughAccounts({ search: { upstream: fake.url } });
    fake.answer = () => ({ body: RECORDED });
    try {
      const first = await startSandbox({ accounts, dataDir: dir });
      await fetch(`${first.url}/api/search/search.json?siteId=${SITE}&q=jacket&beacon=true`);
      await first.close();
      const second = await startSandbox({ accounts, dataDir: dir });
      try {
        const res = await fetch(`${second.url}/_sandbox/search/responses/${RESPONSE_ID}`);
        expect(await res.json()).toMatchObject({ responseId: RESPONSE_ID, upstream: fake.url });
      } finally {
        await second.close();
      }
    } finally {
      cleanup();
    }
  });
});

describe('sites without an upstream', () => {
  it('are still answered by the companion search API (POST meta body included)', async () => {
    const demo = await startSandbox();
    try {
      const res = await fetch(`${demo.url}/api/meta/meta.json`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ siteId: 'demo42' }),
      });
      // the companion's own meta over demo42's catalog (the body named the site)
      expect(res.status).toBe(200);
      expect(await res.json()).toHaveProperty('sortOptions');
    } finally {
      await demo.close();
    }
  });
});
