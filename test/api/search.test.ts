// The companion search API over real HTTP: the provider's own Snap client (@searchspring/snap-client) pointed
// at the sandbox gets results, facets, merchandising and a responseId from a catalog indexed through the real
// bulk indexing endpoint; beacons then carry that responseId and the provenance rules judge them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@searchspring/snap-client';
import type { Sandbox } from '../../src/main/sandbox';
import type { PageTimelineDto } from '../../src/shared/timeline';
import type { ReadinessDto } from '../../src/shared/readiness';
import { createSandbox } from '../../src/main/sandbox';
import { RESPONSE_MEMORY } from '../../src/main/search/responses';
import { postBeacon, startSandbox, tempDir, testConfig } from '../helpers/sandbox';
import { check, tempFile } from '../helpers/check';
import { runToEnd, startFrozen, upload } from './indexing-helpers';

const FEED = readFileSync(path.resolve(__dirname, '../../fixtures/search/outdoor-products.csv'));

let sb: Sandbox;
beforeAll(async () => {
  sb = await startFrozen();
  expect((await upload(sb.url, 'feedId=42', FEED, 'outdoor-products.csv')).status).toBe(200);
  expect((await runToEnd(sb, 42)).state).toBe('done');
});
afterAll(async () => {
  await sb?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the client's types come from a package it does not ship
type Any = any;

function snap(base: string): Any {
  return new Client({ siteId: 'demo42' }, {
    mode: 'development',
    search: { origin: base },
    meta: { origin: base },
    autocomplete: { origin: base },
  } as Any);
}

let seq = 0;
function body(responseId: string, data: Record<string, unknown>, pageLoadId: string) {
  // each event a little over a second after the one before: a tile is impressed once visible for a second
  seq += 1_100;
  return {
    context: {
      timestamp: new Date(sb.core.clock.now() + seq).toISOString(),
      pageUrl: 'http://localhost:5173/search?q=jacket',
      userId: 'user-1',
      sessionId: 'session-1',
      pageLoadId,
      initiator: 'search-sandbox/api-test',
      dev: true,
    },
    data: { responseId, ...data },
  };
}

async function timeline(pageLoadId: string): Promise<PageTimelineDto> {
  const res = await fetch(`${sb.url}/_sandbox/timelines?siteId=demo42`);
  const list = (await res.json()) as { pages: PageTimelineDto[] };
  return list.pages.find((p) => p.pageLoadId === pageLoadId)!;
}

describe('the Snap client against the sandbox', () => {
  it('gets results with variants, facets, merchandising from the config and a responseId', async () => {
    const [meta, response] = await snap(sb.url).search({
      search: { query: { string: 'jacket' } },
      pagination: { pageSize: 2 },
    });
    expect(Object.keys(meta.facets)).toEqual(['brand', 'category', 'color', 'size', 'price']);
    expect(response.pagination).toEqual({ totalResults: 3, page: 1, pageSize: 2, totalPages: 2 });
    expect(response.results.map((r: Any) => r.id)).toEqual(['P200', 'P201']);
    expect(response.results[0].mappings.core).toMatchObject({
      uid: 'P200',
      sku: 'P200',
      name: 'Rain Shell Jacket',
      price: 139,
      msrp: 179,
      brand: 'Northfold',
    });
    expect(response.results[0].children.map((c: Any) => c.attributes.uid)).toEqual([
      '2001',
      '2002',
      '2003',
    ]);
    expect(response.results[0].attributes.category).toBe('Jackets');
    expect(response.tracking.responseId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.results[0].responseId).toBe(response.tracking.responseId);
    const brand = response.facets.find((f: Any) => f.field === 'brand');
    expect(brand.values).toEqual([
      { filtered: false, value: 'Northfold', label: 'Northfold', count: 2 },
      { filtered: false, value: 'Alpenglow', label: 'Alpenglow', count: 1 },
    ]);
    expect(response.facets.find((f: Any) => f.field === 'price')).toMatchObject({
      type: 'range',
      range: { low: 89, high: 229 },
    });
    const m = response.merchandising;
    expect(m.redirect).toBe('');
    const ids = { header: '81001', banner: '81002', footer: '81003', left: '81004' };
    for (const [slot, id] of Object.entries(ids))
      expect(m.content[slot][0]).toContain(`data-banner-id="${id}"`);
    expect(m.content.inline).toEqual([
      {
        value: expect.stringContaining('data-banner-id="81005"'),
        config: { position: { index: 1 } },
      },
    ]);
    expect(m.campaigns).toEqual([{ id: 'rain-ready', title: 'Rain ready', type: 'banner' }]);
    // what the sandbox remembers: the request was development traffic (test=true)
    expect(sb.core.search.responses.get(response.tracking.responseId)).toMatchObject({
      query: 'jacket',
      test: true,
      inline: [{ uid: '81005', index: 1 }],
    });
  });

  it('filters, sorts and pages as asked, with the filter summary', async () => {
    const [, response] = await snap(sb.url).search({
      search: { query: { string: 'jacket' } },
      filters: [
        { type: 'value', field: 'brand', value: 'Northfold' },
        { type: 'range', field: 'price', value: { low: 50, high: 140 } },
      ],
      sorts: [{ field: 'price', direction: 'asc' }],
    });
    expect(response.results.map((r: Any) => r.id)).toEqual(['P202', 'P200']);
    expect(response.filters).toEqual([
      { type: 'value', field: 'brand', label: 'Northfold', value: 'Northfold' },
      { type: 'range', field: 'price', label: '50 - 140', value: { low: 50, high: 140 } },
    ]);
    expect(response.sorting).toEqual([{ field: 'price', direction: 'asc' }]);
  });

  it('serves category pages (background filters, not in the filter summary)', async () => {
    const [, response] = await snap(sb.url).category({
      filters: [{ type: 'value', field: 'category', value: 'Shoes', background: true }],
    });
    expect(response.results.map((r: Any) => r.id)).toEqual(['P203', 'P204']);
    expect(response.filters).toEqual([]);
    expect(response.tracking.responseId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gets the redirect of a redirect keyword', async () => {
    const [, response] = await snap(sb.url).search({ search: { query: { string: 'Gift Card' } } });
    expect(response.merchandising.redirect).toBe('/pages/gift-cards');
    expect(response.results).toEqual([]);
  });
});

describe('beacons checked against the response they name', () => {
  it('passes a page that reports what the response contained, and flags what it did not', async () => {
    const [, response] = await snap(sb.url).search({ search: { query: { string: 'jacket' } } });
    const id = response.tracking.responseId;
    const send = async (
      event: string,
      data: Record<string, unknown>,
      page: string,
      responseId = id,
    ) => {
      const res = await postBeacon(sb.url, `demo42/search/${event}`, body(responseId, data, page));
      expect(res.status).toBe(200);
    };
    await send('render', {}, 'good');
    await send(
      'impression',
      {
        results: [
          { type: 'product', uid: 'P200', parentId: 'P200' },
          { type: 'banner', uid: '81005' },
        ],
        banners: [{ uid: '81001' }],
      },
      'good',
    );
    await send(
      'clickthrough',
      // the tile's result, as the client clicks it (result.id; the selected variant goes with an add)
      { results: [{ type: 'product', uid: 'P200', parentId: 'P200' }] },
      'good',
    );
    const good = await timeline('good');
    expect(good.findings).toEqual([]);
    expect(good.verdict).toBe('pass');

    // another page load of the same search (its own response: development mode has no cache): only the items are wrong
    const other = 'other';
    const [, again] = await snap(sb.url).search({ search: { query: { string: 'jacket' } } });
    await send('render', {}, other, again.tracking.responseId);
    await send(
      'impression',
      {
        results: [{ type: 'product', uid: 'P204', parentId: 'P204' }],
        banners: [{ uid: '81005' }],
      },
      other,
      again.tracking.responseId,
    );
    const bad = await timeline(other);
    expect(bad.findings.map((f) => f.rule).sort()).toEqual([
      'inline-banner-in-banners',
      'item-not-in-response',
    ]);
  });

  it('answers CORS preflights and errors in JSON', async () => {
    const pre = await fetch(`${sb.url}/api/search/search.json?siteId=demo42`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-custom',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')).toBe('x-custom');
    const bad = await fetch(`${sb.url}/api/search/search.json?siteId=demo42&page=zero`);
    expect(bad.status).toBe(400);
    expect(bad.headers.get('access-control-allow-origin')).toBe('*');
    expect(await bad.json()).toEqual({
      success: false,
      error: 'InvalidParameter',
      message: 'page="zero": use a whole number from 1 to 100000',
    });
    const meta = await fetch(`${sb.url}/api/meta/meta.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"siteId":"demo42"}',
    });
    expect(((await meta.json()) as { pagination: unknown }).pagination).toEqual({
      defaultPageSize: 24,
    });
    // a POSTed body that is not JSON is said to be so (it was read as {} and answered "siteId is required")
    for (const path of ['/api/meta/meta.json', '/api/suggest/query']) {
      const notJson = await fetch(`${sb.url}${path}`, { method: 'POST', body: 'siteId=demo42' });
      expect(notJson.status, path).toBe(400);
      expect(await notJson.json()).toMatchObject({
        success: false,
        error: 'InvalidBody',
        message: expect.stringMatching(/^body: not valid JSON .*the body must be one JSON value/),
      });
    }
    const post = await fetch(`${sb.url}/api/search/search.json?siteId=demo42`, { method: 'POST' });
    expect(post.status).toBe(405);
    const elsewhere = await fetch(`${sb.url}/api/search/finder.json?siteId=demo42`);
    expect(elsewhere.status).toBe(404);
    expect(((await elsewhere.json()) as { message: string }).message).toContain(
      'GET /api/search/search.json',
    );
  });
});

describe('a quick add priced in cents (search/addtocart at 100× the result’s price)', () => {
  const cleanups: Array<() => unknown> = [];
  afterAll(() => {
    for (const c of cleanups) c();
  });

  it('names it on its response and on the search.addtocart row, live and in `check` of the export', async () => {
    const s = await startFrozen();
    try {
      expect((await upload(s.url, 'feedId=42', FEED, 'outdoor-products.csv')).status).toBe(200);
      expect((await runToEnd(s, 42)).state).toBe('done');
      // each page load its own search, as a storefront's tiles read it: the add sends the result's price
      const quickAdd = async (page: string, price: (served: number) => number) => {
        const [, response] = await snap(s.url).search({ search: { query: { string: 'puffer' } } });
        const id = response.tracking.responseId as string;
        const tile = response.results.find((r: Any) => r.id === 'P201');
        const served = Number(tile.mappings.core.price);
        const ctx = {
          timestamp: new Date(s.core.clock.now()).toISOString(),
          pageUrl: 'http://localhost:5173/search?q=puffer',
          userId: `user-${page}`,
          sessionId: `session-${page}`,
          pageLoadId: page,
          initiator: 'search-sandbox/api-test',
          dev: true,
        };
        const send = (event: string, data: Record<string, unknown>) =>
          postBeacon(s.url, `demo42/search/${event}`, {
            context: ctx,
            data: { responseId: id, ...data },
          });
        const item = { parentId: 'P201', uid: 'P201', sku: 'P201' };
        expect((await send('render', {})).status).toBe(200);
        s.core.clock.advance(1_500);
        ctx.timestamp = new Date(s.core.clock.now()).toISOString();
        expect(
          (await send('impression', { results: [{ type: 'product', ...item }], banners: [] }))
            .status,
        ).toBe(200);
        s.core.clock.advance(2_000);
        ctx.timestamp = new Date(s.core.clock.now()).toISOString();
        expect(
          (await send('addtocart', { results: [{ ...item, qty: 1, price: price(served) }] }))
            .status,
        ).toBe(200);
        return served;
      };
      expect(await quickAdd('cents', (p) => p * 100)).toBe(229);
      await quickAdd('units', (p) => p);
      // a sale price on the tile: not a unit
      await quickAdd('sale', (p) => p * 0.8);
      // then each visit's cart page sends the product from the page's cart globals
      const cartAdd = async (page: string, price: number) => {
        s.core.clock.advance(5_000);
        const line = { parentId: 'P201', uid: 'P201', sku: 'P201', qty: 1, price };
        const res = await postBeacon(s.url, 'demo42/cart/add', {
          context: {
            timestamp: new Date(s.core.clock.now()).toISOString(),
            pageUrl: 'http://localhost:5173/cart',
            userId: `user-${page}`,
            sessionId: `session-${page}`,
            pageLoadId: `${page}-cart`,
            initiator: 'search-sandbox/api-test',
            dev: true,
          },
          data: { results: [line], cart: [line] },
        });
        expect(res.status).toBe(200);
      };
      // the cart right, the quick add in cents: only the quick add is named (on its own page)
      await cartAdd('cents', 229);
      // the quick add right, the cart globals in cents: the cart is named as the one in cents
      await cartAdd('units', 22900);

      const pages = (
        (await (await fetch(`${s.url}/_sandbox/timelines?siteId=demo42`)).json()) as {
          pages: PageTimelineDto[];
        }
      ).pages;
      const priced = (pageLoadId: string) =>
        pages
          .find((p) => p.pageLoadId === pageLoadId)!
          .findings.filter((f) => f.rule === 'price-unit-mismatch');
      expect(priced('cents').map((f) => [f.severity, f.behaviour, f.message])).toEqual([
        [
          'error',
          'search.addtocart',
          expect.stringMatching(
            /uid "P201" in ev_\w+ \(at 22900 where the response served it at 229 \(about 100×\)\)/,
          ),
        ],
      ]);
      expect(priced('units')).toEqual([]);
      expect(priced('sale')).toEqual([]);
      expect(priced('cents-cart')).toEqual([]);
      expect(priced('units-cart').map((f) => [f.severity, f.behaviour, f.message])).toEqual([
        [
          'error',
          'cart.items',
          expect.stringMatching(
            /prices an item in cents: uid "P201" at 22900 where the quick add ev_\w+ carried 229, the price the response served \(about 100×\)/,
          ),
        ],
      ]);

      // readiness counts it on the quick add's row
      const ready = (await (
        await fetch(`${s.url}/_sandbox/readiness?siteId=demo42`)
      ).json()) as ReadinessDto;
      expect(ready.behaviours.find((b) => b.id === 'search.addtocart')).toMatchObject({
        status: 'findings',
        worst: { rule: 'price-unit-mismatch', pageLoadId: 'cents' },
      });

      // the export carries the responses with the prices they served: `check` of it judges alike
      const exported = await (await fetch(`${s.url}/_sandbox/export`)).text();
      const file = tempFile(cleanups, 'export.json', exported);
      const offline = JSON.parse((await check(file, '--format', 'json')).out) as {
        pages: PageTimelineDto[];
      };
      const gist = (list: PageTimelineDto[]) =>
        Object.fromEntries(
          list.map((p) => [p.pageLoadId, p.findings.map((f) => [f.rule, f.severity, f.message])]),
        );
      expect(gist(offline.pages)).toEqual(gist(pages));
    } finally {
      await s.close();
    }
  });

  it('judges a page that only recorded its traffic by the catalog `check` is given', async () => {
    // no response the sandbox issued: the recorded events alone, and the site's feed beside them
    const ctx = {
      timestamp: '2026-11-21T04:00:00.000Z',
      pageUrl: 'http://localhost:5173/search?q=puffer',
      userId: 'user-rec',
      sessionId: 'session-rec',
      pageLoadId: 'recorded',
      initiator: 'search-sandbox/api-test',
      dev: true,
    };
    const item = { parentId: 'P201', uid: 'P201', sku: 'P201', qty: 1, price: 22900 };
    const events = [{ context: ctx, data: { responseId: 'elsewhere', results: [item] } }].map(
      (body, i) => ({
        id: `ev_${i + 1}`,
        seq: i + 1,
        receivedAt: '2026-11-21T04:00:00.040Z',
        siteId: 'demo42',
        category: 'search',
        event: 'addtocart',
        path: '/beacon/v2/demo42/search/addtocart',
        accepted: true,
        status: 200,
        errors: [],
        body,
      }),
    );
    const file = tempFile(cleanups, 'events.json', JSON.stringify({ events }));
    const feed = tempFile(cleanups, 'feed.csv', 'id,name,price\nP201,Down Puffer Jacket,229\n');
    const rules = async (...args: string[]) =>
      (
        JSON.parse((await check(file, '--format', 'json', ...args)).out) as {
          pages: PageTimelineDto[];
        }
      ).pages
        .flatMap((p) => p.findings)
        .filter((f) => f.rule === 'price-unit-mismatch')
        .map((f) => f.message);
    // no catalog and not issued: nothing to compare the price with
    expect(await rules()).toEqual([]);
    expect(await rules('--catalog', `demo42=${feed}`)).toEqual([
      expect.stringContaining(
        'uid "P201" in ev_1 (at 22900 where the catalog has 229 (about 100×))',
      ),
    ]);
  });
});

describe('a response bound to who asked for it (the tracking context on the Snap client’s request)', () => {
  const PAGE_URL = 'http://localhost:5173/search?q=jacket';
  const search = async (query: string, pageLoadId: string, domain = PAGE_URL) => {
    const [, response] = await snap(sb.url).search({
      search: { query: { string: query } },
      tracking: { userId: 'user-1', sessionId: 'session-1', pageLoadId, domain },
    });
    return response.tracking.responseId as string;
  };
  const findingsOf = async (pageLoadId: string) =>
    (await timeline(pageLoadId)).findings.map((f) => [f.rule, f.severity]);

  it('remembers the userId, sessionId, pageLoadId and page URL the request carried', async () => {
    const id = await search('jacket', 'asked');
    const res = await fetch(`${sb.url}/_sandbox/search/responses/${id}`);
    const one = (await res.json()) as { requester?: Record<string, string> };
    expect(one.requester).toEqual({
      userId: 'user-1',
      sessionId: 'session-1',
      pageLoadId: 'asked',
      pageUrl: PAGE_URL,
    });
    const asked = async (query: string) =>
      (
        (await (await fetch(`${sb.url}/_sandbox/search/responses?${query}`)).json()) as {
          responses: Array<{ responseId: string }>;
        }
      ).responses.map((r) => r.responseId);
    expect(await asked('siteId=demo42&pageLoadId=asked')).toEqual([id]);
    expect(await asked('pageLoadId=asked')).toEqual([id]);
    expect(await asked(`pageLoadId=asked&responseId=${id}`)).toEqual([id]);
    expect(await asked(`pageLoadId=another&responseId=${id}`)).toEqual([]);
    expect(await asked('siteId=demo42&pageLoadId=nobody-asked')).toEqual([]);
  });

  it('names beacons of another visitor, a search never rendered and a render at another URL', async () => {
    // a page cached with user-1's search in it, sent by user-2's browser
    const copied = await search('jacket', 'copied');
    const other = body(copied, {}, 'copied');
    other.context.userId = 'user-2';
    expect((await postBeacon(sb.url, 'demo42/search/render', other)).status).toBe(200);
    expect(await findingsOf('copied')).toContainEqual(['responseid-other-visitor', 'error']);

    // a no-results search that the page never rendered; the shopper searches again 3 s later
    await search('xyzzy-nothing', 'empty');
    const clock = await fetch(`${sb.url}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advance: 'PT3S' }),
    });
    expect(clock.status).toBe(200);
    const next = await search('jacket', 'empty');
    await postBeacon(sb.url, 'demo42/search/render', body(next, {}, 'empty'));
    expect(await findingsOf('empty')).toEqual([['search-not-rendered', 'warning']]);

    // the beacon was given a fixed href: the filtered search's render carries the first URL
    const filtered = await search('jacket', 'spa', `${PAGE_URL}&filter.color=blue`);
    await postBeacon(sb.url, 'demo42/search/render', body(filtered, {}, 'spa'));
    expect(await findingsOf('spa')).toEqual([['pageurl-stale', 'warning']]);
  });

  it('names a page whose sessionId drifts midway once, as context-drift: its responseId is its own', async () => {
    const own = await search('jacket', 'drifting');
    await postBeacon(sb.url, 'demo42/search/render', body(own, {}, 'drifting'));
    const tile = { results: [{ type: 'product', uid: 'P200', parentId: 'P200' }], banners: [] };
    const drifted = body(own, tile, 'drifting');
    drifted.context.sessionId = 's-other';
    expect((await postBeacon(sb.url, 'demo42/search/impression', drifted)).status).toBe(200);
    const rules = (await timeline('drifting')).findings.map((f) => f.rule);
    expect(rules).toContain('context-drift');
    expect(rules).not.toContain('responseid-other-visitor');
    // the page is its first sessionId's: the drifted id makes no visit of its own
    const visits = async (sessionId: string) =>
      (
        (await (
          await fetch(`${sb.url}/_sandbox/visits?siteId=demo42&sessionId=${sessionId}`)
        ).json()) as Array<{ pages: Array<{ pageLoadId: string }> }>
      ).flatMap((v) => v.pages.map((p) => p.pageLoadId));
    expect(await visits('s-other')).toEqual([]);
    expect(await visits('session-1')).toContain('drifting');

    // a responseId asked for by one page load, sent by another page load of another session: copied
    const asked = await search('jacket', 'asker');
    const copied = body(asked, {}, 'elsewhere');
    copied.context.sessionId = 's-other';
    await postBeacon(sb.url, 'demo42/search/render', copied);
    expect(await findingsOf('elsewhere')).toContainEqual(['responseid-other-visitor', 'error']);
  });

  it('tells a page infinite scroll restored from a responseId the sandbox never issued beside the page’s only page', async () => {
    // the page's search has one page (3 results of 24); its impression carries that id with its last
    // character changed: no page of this search was left for infinite scroll to restore
    const only = await search('jacket', 'one-page');
    await postBeacon(sb.url, 'demo42/search/render', body(only, {}, 'one-page'));
    const altered = `${only.slice(0, -1)}${only.endsWith('0') ? '1' : '0'}`;
    const tile = { results: [{ type: 'product', uid: 'P200', parentId: 'P200' }], banners: [] };
    await postBeacon(sb.url, 'demo42/search/impression', body(altered, tile, 'one-page'));
    const wrong = (await timeline('one-page')).findings;
    expect(wrong.map((f) => [f.rule, f.severity])).toContainEqual(['missing-render', 'error']);
    expect(wrong.map((f) => f.rule)).not.toContain('missing-render-backfill');
    expect(wrong.find((f) => f.rule === 'missing-render')?.message).toContain(
      'the sandbox issued each as the only page of its search',
    );

    // pages 1 and 2 (2 per page) restored together on load: page 2's tiles carry its own id, never
    // rendered, which the sandbox issued: infinite scroll's backfill, info
    const page = async (n: number) => {
      const [, response] = await snap(sb.url).search({
        search: { query: { string: 'jacket' } },
        pagination: { page: n, pageSize: 2 },
        tracking: {
          userId: 'user-1',
          sessionId: 'session-1',
          pageLoadId: 'restored',
          domain: PAGE_URL,
        },
      });
      return response as Any;
    };
    const [one, two] = await Promise.all([page(1), page(2)]);
    const uidOf = (r: Any) => r.results[0].mappings.core.uid as string;
    const impressed = (r: Any) => ({
      results: [{ type: 'product', uid: uidOf(r), parentId: uidOf(r) }],
      banners: [],
    });
    await postBeacon(sb.url, 'demo42/search/render', body(one.tracking.responseId, {}, 'restored'));
    for (const r of [one, two])
      await postBeacon(
        sb.url,
        'demo42/search/impression',
        body(r.tracking.responseId, impressed(r), 'restored'),
      );
    const restored = (await timeline('restored')).findings.map((f) => [f.rule, f.severity]);
    expect(restored).toContainEqual(['missing-render-backfill', 'info']);
    expect(restored).not.toContainEqual(['missing-render', 'error']);
  });

  it('names a redirect response rendered instead of followed, and one redirected though asked in full', async () => {
    const redirected = await search('Gift Card', 'gift');
    await postBeacon(sb.url, 'demo42/search/render', body(redirected, {}, 'gift'));
    expect(await findingsOf('gift')).toContainEqual(['redirect-not-followed', 'warning']);
    // a storefront whose merchandising redirects are off asks in full, and renders what it gets
    const [, full] = await snap(sb.url).search({
      search: { query: { string: 'Gift Card' }, redirectResponse: 'full' },
      tracking: {
        userId: 'user-1',
        sessionId: 'session-1',
        pageLoadId: 'gift-full',
        domain: PAGE_URL,
      },
    });
    const stored = (await (
      await fetch(`${sb.url}/_sandbox/search/responses/${full.tracking.responseId}`)
    ).json()) as { full?: boolean; redirect: string | null };
    expect(stored).toMatchObject({ full: true, redirect: expect.any(String) });
    await postBeacon(
      sb.url,
      'demo42/search/render',
      body(full.tracking.responseId, {}, 'gift-full'),
    );
    expect(await findingsOf('gift-full')).not.toContainEqual(['redirect-not-followed', 'warning']);
    // and never redirects what it asked in full
    await postBeacon(
      sb.url,
      'demo42/search/redirect',
      body(full.tracking.responseId, { redirect: stored.redirect }, 'gift-full-redirect'),
    );
    expect(await findingsOf('gift-full-redirect')).toContainEqual([
      'redirect-unexpected',
      'warning',
    ]);
  });
});

describe('autocomplete and category responses: issued with their kind, beacons checked against them', () => {
  async function send(
    kind: string,
    event: string,
    id: string,
    data: Record<string, unknown>,
    page: string,
  ) {
    const res = await postBeacon(sb.url, `demo42/${kind}/${event}`, body(id, data, page));
    expect(res.status).toBe(200);
  }
  /** an impression of one product tile */
  const impress = (kind: string, id: string, uid: string, page: string) =>
    send(
      kind,
      'impression',
      id,
      { results: [{ type: 'product', uid, parentId: uid }], banners: [] },
      page,
    );

  it('answers the Snap client’s autocomplete (suggestion, then a search of the suggested text) with a responseId of kind autocomplete', async () => {
    const [, response] = await snap(sb.url).autocomplete({ search: { query: { string: 'jack' } } });
    expect(response.autocomplete.suggested).toEqual({
      text: 'jacket',
      type: 'completed',
      source: 'product-name',
    });
    expect(response.search.query).toBe('jacket');
    expect(response.results.map((r: Any) => r.id)).toEqual(['P200', 'P201', 'P202']);
    const id = response.tracking.responseId;
    const issued = await (await fetch(`${sb.url}/_sandbox/search/responses/${id}`)).json();
    expect(issued).toMatchObject({ kind: 'autocomplete', query: 'jacket', test: true });
    const none = await fetch(`${sb.url}/api/suggest/query?siteId=demo42&query=zzq`);
    expect(await none.json()).toEqual({ query: 'zzq', alternatives: [] });
    const bad = await fetch(`${sb.url}/api/suggest/query?siteId=demo42&query=a&suggestionCount=x`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain('suggestionCount="x"');
  });

  it('checks autocomplete and category beacons against their responses, and names a responseId used by another kind', async () => {
    const [, ac] = await snap(sb.url).autocomplete({ search: { query: { string: 'jacket' } } });
    const acId = ac.tracking.responseId;
    await send('autocomplete', 'render', acId, {}, 'ac-page');
    await impress('autocomplete', acId, 'P200', 'ac-page');
    expect((await timeline('ac-page')).verdict).toBe('pass');
    await impress('autocomplete', acId, 'P204', 'ac-page');
    const acPage = await timeline('ac-page');
    expect(acPage.findings.map((f) => [f.rule, f.kind])).toEqual([
      ['item-not-in-response', 'autocomplete'],
    ]);
    expect(acPage.findings[0]!.message).toContain('autocomplete "jacket"');

    // only the sandbox knows this id is an autocomplete response's: no autocomplete event carries it here
    const [, ac2] = await snap(sb.url).autocomplete({ search: { query: { string: 'boot' } } });
    await send('search', 'render', ac2.tracking.responseId, {}, 'search-page');
    const searchPage = await timeline('search-page');
    expect(searchPage.findings.map((f) => [f.rule, f.severity])).toEqual([
      ['responseid-cross-kind', 'error'],
    ]);
    expect(searchPage.findings[0]!.message).toContain("sandbox's autocomplete endpoint");

    const [, cat] = await snap(sb.url).category({
      filters: [{ type: 'value', field: 'category', value: 'Shoes', background: true }],
    });
    const catId = cat.tracking.responseId;
    await send('category', 'render', catId, {}, 'cat-page');
    await impress('category', catId, 'P200', 'cat-page');
    const catPage = await timeline('cat-page');
    expect(catPage.findings.map((f) => [f.rule, f.kind])).toEqual([
      ['item-not-in-response', 'category'],
    ]);
  });
});

describe('what the sandbox remembers, over the admin API and in exports', () => {
  it('lists issued responses newest first, shows one, and says when one is unknown', async () => {
    const id = (
      (await (
        await fetch(`${sb.url}/api/search/search.json?siteId=demo42&q=boot&beacon=true`)
      ).json()) as { responseId: string }
    ).responseId;
    const list = (await (
      await fetch(`${sb.url}/_sandbox/search/responses?siteId=demo42&limit=2`)
    ).json()) as { responses: Array<{ responseId: string }>; remembered: number };
    expect(list.responses[0]!.responseId).toBe(id);
    expect(list.responses.length).toBeLessThanOrEqual(2);
    const one = await (await fetch(`${sb.url}/_sandbox/search/responses/${id}`)).json();
    expect(one).toMatchObject({
      responseId: id,
      siteId: 'demo42',
      query: 'boot',
      test: false,
      results: [{ uid: 'P204', parentId: 'P204' }],
    });
    const missing = await fetch(`${sb.url}/_sandbox/search/responses/nope`);
    expect(missing.status).toBe(404);
    const said = ((await missing.json()) as { message: string }).message;
    expect(said).toContain('was not issued by this sandbox');
    // the limit of what it remembers, not how many it happens to hold now
    expect(said).toContain(`older than the ${RESPONSE_MEMORY} most recent responses it remembers`);
    expect((await fetch(`${sb.url}/_sandbox/search/responses?limit=0`)).status).toBe(400);
  });

  it('names a responseId never issued, sent before the first search, in `check` of the export as live', async () => {
    const companion = testConfig().accounts.map((a) => ({
      ...a,
      search: { ...a.search!, companion: true },
    }));
    const s = await startFrozen({ accounts: companion });
    const cleanups: Array<() => unknown> = [];
    try {
      expect((await upload(s.url, 'feedId=42', FEED, 'outdoor-products.csv')).status).toBe(200);
      expect((await runToEnd(s, 42)).state).toBe('done');
      const ctx = {
        timestamp: new Date(s.core.clock.now()).toISOString(),
        pageUrl: 'http://localhost:5173/',
        userId: 'u',
        sessionId: 's',
        pageLoadId: 'trending-panel',
        initiator: 'search-sandbox/api-test',
        dev: true,
      };
      // a panel that renders before any search, with an id of its own making; the search comes after
      expect(
        (
          await postBeacon(s.url, 'demo42/autocomplete/render', {
            context: ctx,
            data: { responseId: 'made-up' },
          })
        ).status,
      ).toBe(200);
      s.core.clock.advance(2_000);
      await fetch(
        `${s.url}/api/search/autocomplete.json?siteId=demo42&q=jacket&beacon=true&test=true`,
      );
      const rules = (pages: PageTimelineDto[]) =>
        pages.find((p) => p.pageLoadId === 'trending-panel')!.findings.map((f) => f.rule);
      const live = (
        (await (await fetch(`${s.url}/_sandbox/timelines?siteId=demo42`)).json()) as {
          pages: PageTimelineDto[];
        }
      ).pages;
      expect(rules(live)).toContain('responseid-unknown');
      const file = tempFile(
        cleanups,
        'export.json',
        await (await fetch(`${s.url}/_sandbox/export`)).text(),
      );
      const offline = JSON.parse((await check(file, '--format', 'json')).out) as {
        pages: PageTimelineDto[];
      };
      expect(rules(offline.pages)).toEqual(rules(live));
    } finally {
      for (const c of cleanups) c();
      await s.close();
    }
  });

  it('puts the remembered responses into exports', async () => {
    const id = (
      (await (
        await fetch(`${sb.url}/api/search/search.json?siteId=demo42&q=jacket&beacon=true&test=true`)
      ).json()) as { responseId: string }
    ).responseId;
    const exported = (await (await fetch(`${sb.url}/_sandbox/export`)).json()) as {
      search: { responses: Array<{ responseId: string; query: string }> };
    };
    expect(exported.search.responses[0]).toMatchObject({ responseId: id, query: 'jacket' });

    // …and an import into another sandbox brings them back before its events, for the provenance rules
    const other = await startSandbox();
    try {
      const unknown = await fetch(`${other.url}/_sandbox/search/responses/${id}`);
      expect(unknown.status).toBe(404);
      const imported = await fetch(`${other.url}/_sandbox/import`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(exported),
      });
      expect(imported.status).toBe(200);
      expect(((await imported.json()) as { sections: string[] }).sections).toContain('search');
      const one = await fetch(`${other.url}/_sandbox/search/responses/${id}`);
      expect(one.status).toBe(200);
      expect(await one.json()).toMatchObject({ responseId: id, query: 'jacket', test: true });
      const broken = await fetch(`${other.url}/_sandbox/import`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ events: [], search: { responses: [{ responseId: 'x' }] } }),
      });
      expect(broken.status).toBe(400);
      expect(((await broken.json()) as { message: string }).message).toContain(
        'responses[0] is not an issued search response',
      );
    } finally {
      await other.close();
    }
  });
});

describe('a site with an indexed catalog that does not use the companion search API', () => {
  it('warns about uids its catalog does not hold, and stops once a re-index brings them', async () => {
    const base = testConfig();
    const s = await startFrozen({
      accounts: base.accounts.map((a) => ({ ...a, search: { ...a.search!, catalogCheck: true } })),
    });
    try {
      const ctx = {
        timestamp: new Date().toISOString(),
        pageUrl: 'http://localhost/',
        userId: 'u',
        sessionId: 's',
        pageLoadId: 'cat',
        initiator: 't',
        dev: true,
      };
      await postBeacon(s.url, 'demo42/search/render', {
        context: ctx,
        data: { responseId: 'from-the-real-service' },
      });
      // the tiles impressed once visible for a second
      const later = {
        ...ctx,
        timestamp: new Date(Date.parse(ctx.timestamp) + 1_100).toISOString(),
      };
      const imp = {
        context: later,
        data: {
          responseId: 'from-the-real-service',
          results: [
            { type: 'product', uid: '2001', parentId: 'P200' },
            { type: 'product', uid: '1000', parentId: 'P100' },
          ],
          banners: [],
        },
      };
      expect((await postBeacon(s.url, 'demo42/search/impression', imp)).status).toBe(200);
      const findings = async () => {
        const res = await fetch(`${s.url}/_sandbox/timelines?siteId=demo42`);
        return ((await res.json()) as { pages: PageTimelineDto[] }).pages[0]!.findings;
      };
      const before = await findings();
      expect(before.map((f) => [f.rule, f.severity])).toEqual([['item-not-in-catalog', 'warning']]);
      expect(before[0]!.message).toContain('uid "2001"');
      expect(before[0]!.message).not.toContain('"1000"');
      expect((await upload(s.url, 'feedId=42', FEED, 'outdoor-products.csv')).status).toBe(200);
      expect((await runToEnd(s, 42)).state).toBe('done');
      expect((await findings()).filter((f) => f.rule !== 'no-impression')).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe('product and cart pages against the indexed catalog (its URLs and prices)', () => {
  const cleanups: Array<() => unknown> = [];
  afterAll(() => {
    for (const c of cleanups) c();
  });

  it('names a product view of another product than the page’s, and a cart priced in cents', async () => {
    const base = testConfig();
    const s = await startFrozen({
      accounts: base.accounts.map((a) => ({ ...a, search: { ...a.search!, catalogCheck: true } })),
    });
    try {
      expect((await upload(s.url, 'feedId=42', FEED, 'outdoor-products.csv')).status).toBe(200);
      expect((await runToEnd(s, 42)).state).toBe('done');
      const ctx = (pageLoadId: string, pageUrl: string) => ({
        timestamp: new Date(s.core.clock.now()).toISOString(),
        pageUrl,
        userId: 'user-url',
        sessionId: 'session-url',
        pageLoadId,
        initiator: 'search-sandbox/api-test',
        dev: true,
      });
      const jacket = 'http://localhost:5173/products/rain-shell-jacket';
      // the page of P200 (the feed's url column) sends the view of P201
      await postBeacon(s.url, 'demo42/product/pageview', {
        context: ctx('view-other', jacket),
        data: { result: { uid: 'P201', parentId: 'P201', sku: 'P201' } },
      });
      // its own variant's view, on the variant's URL: silent
      await postBeacon(s.url, 'demo42/product/pageview', {
        context: ctx('view-own', `${jacket}?variant=2001`),
        data: { result: { uid: '2001', parentId: 'P200', sku: 'P200-RED-M' } },
      });
      const line = { uid: 'P200', parentId: 'P200', sku: 'P200', qty: 1, price: 14900 };
      await postBeacon(s.url, 'demo42/cart/add', {
        context: ctx('cart-cents', 'http://localhost:5173/cart'),
        data: { results: [line], cart: [line] },
      });
      const pages = (
        (await (await fetch(`${s.url}/_sandbox/timelines?siteId=demo42`)).json()) as {
          pages: PageTimelineDto[];
        }
      ).pages;
      const rules = (pageLoadId: string) =>
        pages
          .find((p) => p.pageLoadId === pageLoadId)!
          .findings.filter((f) => f.severity !== 'info')
          .map((f) => [f.rule, f.message]);
      expect(rules('view-other')).toEqual([
        ['pageview-other-url', expect.stringContaining('is the catalog\'s page of "P200"')],
      ]);
      expect(rules('view-own')).toEqual([]);
      expect(rules('cart-cents')).toEqual([
        [
          'price-unit-mismatch',
          expect.stringContaining('uid "P200" at 14900 where the catalog has 149'),
        ],
      ]);

      // the export carries the catalog the site was checked against: `check` of it judges alike
      const exported = await (await fetch(`${s.url}/_sandbox/export`)).text();
      const catalogs = (JSON.parse(exported) as { search: { catalogs: unknown[] } }).search
        .catalogs;
      expect(catalogs).toContainEqual({
        siteId: 'demo42',
        products: expect.arrayContaining([
          {
            uid: 'P200',
            parentId: 'P200',
            sku: 'P200',
            price: 149,
            url: '/products/rain-shell-jacket',
          },
        ]),
      });
      const file = tempFile(cleanups, 'export.json', exported);
      const offline = JSON.parse((await check(file, '--format', 'json')).out) as {
        pages: PageTimelineDto[];
      };
      const gist = (list: PageTimelineDto[]) =>
        Object.fromEntries(
          list.map((p) => [p.pageLoadId, p.findings.map((f) => [f.rule, f.severity, f.message])]),
        );
      expect(gist(offline.pages)).toEqual(gist(pages));
      // a feed given beside it wins for its site: one without the cents' product is not the recorded one
      const feed = tempFile(cleanups, 'other.csv', 'id,name,price\nP201,Puffer,99\n');
      const given = JSON.parse(
        (await check(file, '--format', 'json', '--catalog', `demo42=${feed}`)).out,
      ) as {
        pages: PageTimelineDto[];
      };
      const cart = given.pages.find((p) => p.pageLoadId === 'cart-cents')!;
      expect(cart.findings.map((f) => f.rule)).toContain('item-not-in-catalog');
      expect(cart.findings.map((f) => f.rule)).not.toContain('price-unit-mismatch');
    } finally {
      await s.close();
    }
  });
});

describe('a site that uses the companion search API', () => {
  it('flags a responseId the sandbox never issued, and remembers issued ones across a restart', async () => {
    const tmp = tempDir();
    const base = testConfig();
    const config = {
      ...base,
      dataDir: tmp.dir,
      accounts: base.accounts.map((a) => ({ ...a, search: { ...a.search!, companion: true } })),
    };
    let s = await createSandbox(config, { rendererDir: null });
    try {
      const issued = (
        (await (
          await fetch(`${s.url}/api/search/search.json?siteId=demo42&q=trail&beacon=true&test=true`)
        ).json()) as { responseId: string }
      ).responseId;
      await s.close();
      s = await createSandbox(config, { rendererDir: null });
      expect(s.core.search.responses.get(issued)?.query).toBe('trail');
      const ctx = (page: string) => ({
        timestamp: new Date().toISOString(),
        pageUrl: 'http://localhost/',
        userId: 'u',
        sessionId: 's',
        pageLoadId: page,
        initiator: 't',
        dev: true,
      });
      await postBeacon(s.url, 'demo42/search/render', {
        context: ctx('known'),
        data: { responseId: issued },
      });
      await postBeacon(s.url, 'demo42/search/render', {
        context: ctx('made-up'),
        data: { responseId: 'not-from-the-sandbox' },
      });
      const pages = (
        (await (await fetch(`${s.url}/_sandbox/timelines?siteId=demo42`)).json()) as {
          pages: PageTimelineDto[];
        }
      ).pages;
      expect(
        pages
          .find((p) => p.pageLoadId === 'known')!
          .findings.filter((f) => f.rule !== 'no-impression'),
      ).toEqual([]);
      expect(pages.find((p) => p.pageLoadId === 'made-up')!.findings.map((f) => f.rule)).toEqual([
        'responseid-unknown',
      ]);
    } finally {
      await s.close();
      tmp.cleanup();
    }
  });
});
