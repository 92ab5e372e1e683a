// `search-sandbox check FILE --readiness [--expect ID|AREA]...`: the readiness of a recording's sites, as
// text and JSON, the gate's exit codes, the config's readiness.expect as the default, and the same rows as
// the live sandbox gives for the same traffic (one judgement).
import { Beacon } from '@athoscommerce/beacon';
import { afterEach, describe, expect, it } from 'vitest';
import { check, exportFile, tempFile } from '../helpers/check';
import { SandboxClock } from '../../src/main/clock';
import { journey, run, type Journey } from '../helpers/journey';
import { postBeacon, startSandbox, testConfig } from '../helpers/sandbox';
import type { Sandbox } from '../../src/main/sandbox';
import { readinessGaps, type ReadinessDto } from '../../src/shared/readiness';
import { SandboxClient } from '../../src/main/api/client';
import { runCli } from './cli-process';
import { recommend, startRecommendSandbox } from './recommend-helpers';
import path from 'node:path';

const cleanups: Array<() => unknown> = [];
let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
  for (const c of cleanups.splice(0)) await c();
});

type Sites = { ready: boolean; sites: Array<ReadinessDto & { gaps: string[] }> };

/** The journey with a cart page before the thank-you page. */
function withCart(): Journey {
  const j = journey();
  const item = { uid: '102', parentId: '102', sku: 'sku-102', qty: 1, price: 100 };
  j[0]!.splice(2, 0, {
    path: '/cart',
    events: [{ category: 'cart', event: 'add', data: { results: [item], cart: [item] } }],
  });
  return j;
}

/**
 * The journey with a cart page whose cart/add lacks what the product page's widget quick-added (with no
 * cart/remove of it): a cart event that breaks what the quick add implies, and nothing of the ledger.
 */
function withQuickAdd(): Journey {
  const j = withCart();
  j[0]![1]!.events.push({
    category: 'recommendations',
    event: 'addtocart',
    data: {
      responseId: 'R2',
      tag: 'similar',
      results: [{ uid: '104', parentId: '104', sku: 'sku-104', qty: 1, price: 100 }],
    },
  });
  return j;
}

describe('check --readiness', () => {
  it('fails for an expected area never sent, naming it and what sends it; passes once the journey sends it', async () => {
    const without = tempFile(cleanups, 'journey.ndjson', run(journey()));
    const failed = await check(without, '--readiness', '--expect', 'search', '--expect', 'cart');
    expect(failed.code, failed.err).toBe(1);
    expect(failed.out).toContain('readiness of demo42:');
    expect(failed.out).toMatch(/unseen\s+cart\.ledger\s+send it with the page’s cart globals/);
    expect(failed.out).toContain('- area cart is unseen: nothing of it was sent');
    expect(failed.out).not.toContain('- area search');

    const withIt = tempFile(cleanups, 'journey-cart.ndjson', run(withCart()));
    const passed = await check(withIt, '--readiness', '--expect', 'search', '--expect', 'cart');
    expect(passed.code, passed.out).toBe(0);
    expect(passed.out).toContain(
      // the journey's cart page follows no quick add: cart.quick-add-then-cart-add is unseen
      'ready for what it expects: search (7 of 18 behaviours seen, 1 of them unverified, 11 unseen: see above), cart (2 of 3 behaviours seen, 1 unseen: see above)',
    );
  });

  it('json: every site with its rows and gaps; order credit is read from the recording', async () => {
    const file = tempFile(cleanups, 'journey.ndjson', run(journey()));
    const { code, out } = await check(
      file,
      '--readiness',
      '--format',
      'json',
      '--expect',
      'order.credit',
    );
    expect(code).toBe(0);
    const answer = JSON.parse(out) as Sites;
    expect(answer.ready).toBe(true);
    const site = answer.sites[0]!;
    expect(site.siteId).toBe('demo42');
    expect(site.expect).toEqual(['order.credit']);
    expect(site.gaps).toEqual([]);
    const status = (id: string) => site.behaviours.find((b) => b.id === id)?.status;
    expect(status('order.credit')).toBe('ok');
    expect(status('product.pageview')).toBe('ok');
    expect(status('cart.ledger')).toBe('unseen');
    // the widget the traffic names has its rows though no config declares it
    expect(site.behaviours.find((b) => b.id === 'recommendations.widget')).toMatchObject({
      tag: 'similar',
      status: 'ok',
    });
  });

  it('takes readiness.expect and the declared widgets from --config', async () => {
    const file = tempFile(cleanups, 'journey.ndjson', run(journey()));
    const config = tempFile(
      cleanups,
      'search-sandbox.config.json',
      JSON.stringify({
        accounts: [
          {
            siteId: 'demo42',
            secretKey: 'k',
            search: {
              recommendations: [{ tag: 'cross-sell', type: 'bundle', strategy: 'similar' }],
            },
            readiness: { expect: ['bundles'] },
          },
        ],
      }),
    );
    const { code, out } = await check(file, '--readiness', '--config', config);
    expect(code).toBe(1);
    expect(out).toMatch(/unseen\s+bundles\.widget \[cross-sell\]/);
    expect(out).toContain('  not ready (1 gap in what it expects):\n    - area bundles is unseen');
  });

  it('says why a widget area does not apply: the site declares none, or no config names the site', async () => {
    const file = tempFile(cleanups, 'journey.ndjson', run(journey()));
    const bare = await check(file, '--readiness');
    expect(bare.out).toMatch(
      /not-applicable\s+bundles\.widget\s+site demo42 sent no bundle widget's events, and no account of the config names it, so none is declared \(accounts\[\]\.search\.recommendations, type "bundle"; `check` reads a config with --config FILE\)/,
    );
    const config = tempFile(
      cleanups,
      'search-sandbox.config.json',
      JSON.stringify({ accounts: [{ siteId: 'demo42', secretKey: 'k' }] }),
    );
    const declared = await check(file, '--readiness', '--config', config);
    expect(declared.out).toMatch(
      /not-applicable\s+bundles\.widget\s+site demo42 declares no bundle widget \(accounts\[\]\.search\.recommendations, type "bundle"\) and sent none/,
    );
    expect(declared.out).not.toContain('no account of the config');
  });

  it('refuses what it cannot do with a one-line reason (exit 2)', async () => {
    const file = tempFile(cleanups, 'journey.ndjson', run(journey()));
    const bogus = await check(file, '--readiness', '--expect', 'cart.ledgr');
    expect(bogus.code).toBe(2);
    expect(bogus.err).toContain('--expect cart.ledgr: "cart.ledgr" is neither a behaviour id');
    // a name half of whose letters are others is no typo: nothing is suggested for it (not "mode")
    const far = await check(file, '--readiness', '--expect', 'nope');
    expect(far.code).toBe(2);
    expect(far.err).toMatch(
      /--expect nope: "nope" is neither a behaviour id nor an area of the client model \(docs\/client-model\.md\); areas: search, /,
    );
    expect((await check(file, '--readiness', '--format', 'junit')).code).toBe(2);
    const alone = await check(file, '--expect', 'cart');
    expect([alone.code, alone.err.split('\n')[0]]).toEqual([
      2,
      'search-sandbox check: --expect needs --readiness',
    ]);
  });

  it('reads what an export says its search responses served, as the live sandbox does', async () => {
    sb = await startSandbox();
    const base = sb.url;
    // a search asked for as the Snap client asks it: with the tracker's context
    const shop = storefront(base, 'served');
    const ask = (q: string, pageLoadId: string, pageUrl: string) =>
      shop.ask('search.json', q, pageLoadId, pageUrl);
    const send = shop.send;
    const jacketUrl = 'https://shop.example/search?q=jacket';
    const jacket = await ask('jacket', 'pl-jacket', jacketUrl);
    await send('search/render', 'pl-jacket', jacketUrl, { responseId: jacket.responseId });
    const tile = { type: 'product', uid: jacket.results[0]!.uid, parentId: jacket.results[0]!.uid };
    await send('search/impression', 'pl-jacket', jacketUrl, {
      responseId: jacket.responseId,
      results: [tile],
      banners: [],
    });
    // one result, rendered, and the page left for the product
    const mugUrl = 'https://shop.example/search?q=mug';
    const mug = await ask('mug', 'pl-mug', mugUrl);
    expect(mug.results).toHaveLength(1);
    await send('search/render', 'pl-mug', mugUrl, { responseId: mug.responseId });
    // a render sent by hand of a responseId the sandbox never issued: it may have served anything
    await send('search/render', 'pl-hand', 'https://shop.example/search?q=hand', {
      responseId: 'never-issued',
    });

    const exported = await (await fetch(`${base}/_sandbox/export`)).text();
    const file = tempFile(cleanups, 'export.json', exported);
    const offline = (
      JSON.parse((await check(file, '--readiness', '--format', 'json')).out) as Sites
    ).sites[0]!;
    // the live pages end when they have been quiet long enough
    await fetch(`${base}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advance: 'PT1M' }),
    });
    const live = (await (
      await fetch(`${base}/_sandbox/readiness?siteId=demo42`)
    ).json()) as ReadinessDto;
    const status = (r: ReadinessDto, id: string) => r.behaviours.find((b) => b.id === id)?.status;
    for (const [id, expected] of [
      ['search.request-context', 'ok'],
      ['search.single-result-redirect', 'ok'],
      // what the mug page shows is one result, not a search that found nothing; the hand-sent render
      // shows nothing of what its response served
      ['search.zero-results', 'unseen'],
      ['search.zero-results-render', 'unseen'],
    ] as const) {
      expect(status(live, id), `live ${id}`).toBe(expected);
      expect(status(offline, id), `check ${id}`).toBe(expected);
    }
    // the responses the companion search issued let the rules judge the items the pages named: verified
    // in both, and what no rule could check is the same, row for row
    const unverified = (r: ReadinessDto) =>
      r.behaviours.filter((b) => b.unverified).map((b) => [b.id, b.tag, b.unverified]);
    for (const r of [live, offline]) {
      const items = r.behaviours.find((b) => b.id === 'search.items-served')!;
      expect(items.status).toBe('ok');
      expect(items.unverified).toBeUndefined();
    }
    expect(unverified(offline)).toEqual(unverified(live));
  });

  it('judged as finished, the live answer and expectReady give at once what check of the export gives', async () => {
    sb = await startSandbox();
    const base = sb.url;
    const ids = { userId: 'u-open', sessionId: 's-open' };
    const searchPage = async (q: string, pageLoadId: string) => {
      const pageUrl = `https://shop.example/search?q=${q}`;
      const query = new URLSearchParams({ siteId: 'demo42', q, beacon: 'true' });
      for (const [k, v] of Object.entries({ ...ids, pageLoadId, domain: pageUrl })) query.set(k, v);
      const asked = (await (await fetch(`${base}/api/search/search.json?${query}`)).json()) as {
        responseId: string;
        results: unknown[];
      };
      const context = {
        timestamp: new Date().toISOString(),
        pageUrl,
        ...ids,
        pageLoadId,
        initiator: 'search-sandbox/test',
        dev: true,
      };
      const data = { responseId: asked.responseId };
      expect((await postBeacon(base, 'demo42/search/render', { context, data })).status).toBe(200);
      return asked.results.length;
    };
    // a search that found nothing and one that found one product, each rendered: both pages still open
    expect(await searchPage('qqqzzznothing', 'pl-zero')).toBe(0);
    expect(await searchPage('mug', 'pl-one')).toBe(1);
    const expectIds = ['search.zero-results', 'search.single-result-redirect'];
    const read = async (query: string) =>
      (await (
        await fetch(`${base}/_sandbox/readiness?siteId=demo42${query}`)
      ).json()) as ReadinessDto;
    const status = (r: ReadinessDto) =>
      expectIds.map((id) => `${id} ${r.behaviours.find((b) => b.id === id)?.status}`);
    // as judged now, the open pages show nothing of either yet
    expect(status(await read(''))).toEqual([
      'search.zero-results unseen',
      'search.single-result-redirect unseen',
    ]);
    const file = await exportFile(cleanups, base);
    const offline = (
      JSON.parse((await check(file, '--readiness', '--format', 'json')).out) as Sites
    ).sites[0]!;
    const finished = await read('&finished=true');
    expect(status(finished)).toEqual([
      'search.zero-results ok',
      'search.single-result-redirect ok',
    ]);
    const rows = (r: ReadinessDto) =>
      r.behaviours.map((b) => `${b.id} ${b.tag ?? ''} ${b.status} ${b.worst?.rule ?? ''}`);
    expect(rows(finished)).toEqual(rows(offline));
    // the gate judges the pages as check does, at once
    const client = new SandboxClient(base);
    await expect(
      client.expectReady({ siteId: 'demo42', expect: expectIds }),
    ).resolves.toBeDefined();
    expect(status(await client.readiness({ siteId: 'demo42', finished: true }))).toEqual(
      status(finished),
    );
  });

  /** A storefront that asks the companion search as the Snap client does and sends its beacons. */
  function storefront(base: string, user: string, o: { production?: boolean } = {}) {
    const ids = { userId: `u-${user}`, sessionId: `s-${user}` };
    const ask = async (
      endpoint: string,
      q: string,
      pageLoadId: string,
      pageUrl: string,
      more: Record<string, string> = {},
    ) => {
      const query = new URLSearchParams({ siteId: 'demo42', q, beacon: 'true', ...more });
      // a storefront in development mode asks with test=true (Snap.tsx)
      if (!o.production) query.set('test', 'true');
      for (const [k, v] of Object.entries({ ...ids, pageLoadId, domain: pageUrl })) query.set(k, v);
      return (await (await fetch(`${base}/api/search/${endpoint}?${query}`)).json()) as {
        responseId: string;
        results: Array<{ uid: string }>;
        merchandising: { redirect?: string; content?: Record<string, unknown[]> };
      };
    };
    const send = async (endpoint: string, pageLoadId: string, pageUrl: string, data: unknown) => {
      const context = {
        timestamp: new Date().toISOString(),
        pageUrl,
        ...ids,
        pageLoadId,
        initiator: 'search-sandbox/test',
        ...(!o.production && { dev: true }),
      };
      const res = await postBeacon(base, `demo42/${endpoint}`, { context, data });
      expect(res.status).toBe(200);
    };
    return { ask, send };
  }

  /** Live readiness (pages ended), `check --readiness` of the export, and the gate of each of `gates`. */
  async function bothWays(base: string, gates: readonly string[]) {
    const file = await exportFile(cleanups, base);
    const offline = (
      JSON.parse((await check(file, '--readiness', '--format', 'json')).out) as Sites
    ).sites[0]!;
    await fetch(`${base}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advance: 'PT1M' }),
    });
    const client = new SandboxClient(base);
    const live = await client.readiness({ siteId: 'demo42' });
    const passes: Record<string, { live: boolean; check: boolean }> = {};
    for (const gate of gates) {
      const ready = await client.expectReady({ siteId: 'demo42', expect: [gate] }).then(
        () => true,
        () => false,
      );
      const code = (await check(file, '--readiness', '--expect', gate)).code;
      passes[gate] = { live: ready, check: code === 0 };
    }
    return { live, offline, passes };
  }

  const rowOf = (r: ReadinessDto, id: string) => r.behaviours.find((b) => b.id === id)!;

  it('a search page’s redirect is evidence for search only: the category and autocomplete rows stay unseen and their areas fail, live, in expectReady and in check of the export', async () => {
    sb = await startSandbox();
    const { ask, send } = storefront(sb.url, 'redirect');
    const giftUrl = 'https://shop.example/search?q=gift+card';
    const gift = await ask('search.json', 'gift card', 'pl-gift', giftUrl);
    expect(gift.merchandising.redirect).toBeTruthy();
    await send('search/redirect', 'pl-gift', giftUrl, {
      responseId: gift.responseId,
      redirect: gift.merchandising.redirect,
    });
    const noneUrl = 'https://shop.example/search?q=qqxxzz';
    const none = await ask('search.json', 'qqxxzz', 'pl-none', noneUrl);
    expect(none.results).toHaveLength(0);
    await send('search/render', 'pl-none', noneUrl, { responseId: none.responseId });

    const { live, offline, passes } = await bothWays(sb.url, [
      'category',
      'autocomplete',
      'search.redirect',
    ]);
    for (const [name, r] of [
      ['live', live],
      ['check', offline],
    ] as const) {
      expect(rowOf(r, 'search.redirect'), name).toMatchObject({
        status: 'ok',
        example: { pageLoadId: 'pl-gift' },
      });
      for (const id of ['category.redirect', 'autocomplete.redirect-navigates'])
        expect(rowOf(r, id).status, `${name} ${id}`).toBe('unseen');
    }
    expect(passes).toEqual({
      category: { live: false, check: false },
      autocomplete: { live: false, check: false },
      'search.redirect': { live: true, check: true },
    });
  });

  it('a category page’s redirect, its response issued by category.json, still shows category.redirect, live, in expectReady and in check of the export', async () => {
    sb = await startSandbox();
    const { ask, send } = storefront(sb.url, 'category-redirect');
    const url = 'https://shop.example/c/gift-cards';
    const gift = await ask('category.json', 'gift card', 'pl-cat', url);
    expect(gift.merchandising.redirect).toBeTruthy();
    await send('search/redirect', 'pl-cat', url, {
      responseId: gift.responseId,
      redirect: gift.merchandising.redirect,
    });
    const { live, offline, passes } = await bothWays(sb.url, [
      'category.redirect',
      'category',
      'search.redirect',
    ]);
    for (const [name, r] of [
      ['live', live],
      ['check', offline],
    ] as const)
      expect(rowOf(r, 'category.redirect'), name).toMatchObject({
        status: 'ok',
        example: { pageLoadId: 'pl-cat' },
      });
    expect(passes).toEqual({
      'category.redirect': { live: true, check: true },
      category: { live: true, check: true },
      // a category page's redirect is no search page's: the search row stays unseen
      'search.redirect': { live: false, check: false },
    });
    for (const r of [live, offline]) expect(rowOf(r, 'search.redirect').status).toBe('unseen');
  });

  it('search.one-response-shown needs a listing that changed without loading a page: one search per page load leaves it unseen, a second search rendered on the page shows it, live, in expectReady and in check of the export', async () => {
    sb = await startSandbox();
    const { ask, send } = storefront(sb.url, 'paging');
    const url = 'https://shop.example/search?q=mug';
    const first = await ask('search.json', 'mug', 'pl-mug', url);
    await send('search/render', 'pl-mug', url, { responseId: first.responseId });
    const tile = (uid: string) => ({ type: 'product', uid, parentId: uid });
    await send('search/impression', 'pl-mug', url, {
      responseId: first.responseId,
      results: [tile(first.results[0]!.uid)],
      banners: [],
    });
    const once = await bothWays(sb.url, ['search.one-response-shown']);
    for (const r of [once.live, once.offline])
      expect(rowOf(r, 'search.one-response-shown')).toMatchObject({
        status: 'unseen',
        next: expect.stringContaining('without loading a page'),
      });
    expect(once.passes['search.one-response-shown']).toEqual({ live: false, check: false });

    // page 2 of the listing, fetched by the SPA on the same page load
    const paged = 'https://shop.example/search?q=mug&page=2';
    const second = await ask('search.json', 'mug', 'pl-mug', paged);
    expect(second.responseId).not.toBe(first.responseId);
    await send('search/render', 'pl-mug', paged, { responseId: second.responseId });
    await send('search/impression', 'pl-mug', paged, {
      responseId: second.responseId,
      results: [tile(second.results[0]!.uid)],
      banners: [],
    });
    const twice = await bothWays(sb.url, ['search.one-response-shown']);
    for (const r of [twice.live, twice.offline])
      expect(rowOf(r, 'search.one-response-shown')).toMatchObject({
        status: 'ok',
        example: { pageLoadId: 'pl-mug' },
      });
    expect(twice.passes['search.one-response-shown']).toEqual({ live: true, check: true });
  });

  it('mode.development is shown by a page load whose every beacon carried context.dev: true; production-only traffic leaves it unseen, live, in expectReady and in check of the export', async () => {
    sb = await startSandbox();
    const live = storefront(sb.url, 'live-shop', { production: true });
    const url = 'https://shop.example/search?q=mug';
    const mug = await live.ask('search.json', 'mug', 'pl-prod', url);
    await live.send('search/render', 'pl-prod', url, { responseId: mug.responseId });
    const production = await bothWays(sb.url, ['mode.development']);
    for (const r of [production.live, production.offline])
      expect(rowOf(r, 'mode.development')).toMatchObject({
        status: 'unseen',
        next: expect.stringContaining('mode: development'),
      });
    expect(production.passes['mode.development']).toEqual({ live: false, check: false });

    const dev = storefront(sb.url, 'dev-shop');
    const again = await dev.ask('search.json', 'mug', 'pl-dev', url);
    await dev.send('search/render', 'pl-dev', url, { responseId: again.responseId });
    const development = await bothWays(sb.url, ['mode.development']);
    for (const r of [development.live, development.offline])
      expect(rowOf(r, 'mode.development')).toMatchObject({
        status: 'ok',
        example: { pageLoadId: 'pl-dev' },
      });
    expect(development.passes['mode.development']).toEqual({ live: true, check: true });
  });

  it('search.banners needs a banner served or named: impressions carrying banners: [] leave it unseen, a response that served banners shows it, live, in expectReady and in check of the export', async () => {
    sb = await startSandbox();
    const { ask, send } = storefront(sb.url, 'banners');
    const mugUrl = 'https://shop.example/search?q=mug';
    const mug = await ask('search.json', 'mug', 'pl-mug', mugUrl);
    await send('search/render', 'pl-mug', mugUrl, { responseId: mug.responseId });
    const tile = (uid: string) => ({ type: 'product', uid, parentId: uid });
    await send('search/impression', 'pl-mug', mugUrl, {
      responseId: mug.responseId,
      results: [tile(mug.results[0]!.uid)],
      banners: [],
    });
    const before = await bothWays(sb.url, ['search.banners']);
    for (const r of [before.live, before.offline])
      expect(rowOf(r, 'search.banners').status).toBe('unseen');
    expect(before.passes['search.banners']).toEqual({ live: false, check: false });

    // the rain campaign serves banners for "jacket": its impressed response shows them
    const jacketUrl = 'https://shop.example/search?q=jacket';
    const jacket = await ask('search.json', 'jacket', 'pl-jacket', jacketUrl);
    await send('search/render', 'pl-jacket', jacketUrl, { responseId: jacket.responseId });
    await send('search/impression', 'pl-jacket', jacketUrl, {
      responseId: jacket.responseId,
      results: [tile(jacket.results[0]!.uid)],
      banners: [{ uid: '81001' }],
    });
    const after = await bothWays(sb.url, ['search.banners']);
    for (const r of [after.live, after.offline])
      expect(rowOf(r, 'search.banners')).toMatchObject({
        status: 'ok',
        example: { pageLoadId: 'pl-jacket' },
      });
    expect(after.passes['search.banners']).toEqual({ live: true, check: true });
  });

  it('a category-only storefront shows its banners, request context, served items and a changed listing on the category rows, and a finding there counts on them, never on the search rows, live, in expectReady and in check of the export', async () => {
    sb = await startSandbox();
    const { ask, send } = storefront(sb.url, 'category-only');
    const tile = (uid: string) => ({ type: 'product', uid, parentId: uid });
    const ids = [
      'category.banners',
      'category.request-context',
      'category.items-served',
      'category.one-response-shown',
    ];
    // a category page asked with the tracker's context, rendered, its first tile impressed with no banner
    const url = 'https://shop.example/c/mugs';
    const first = await ask('category.json', 'mug', 'pl-cat', url);
    await send('category/render', 'pl-cat', url, { responseId: first.responseId });
    await send('category/impression', 'pl-cat', url, {
      responseId: first.responseId,
      results: [tile(first.results[0]!.uid)],
      banners: [],
    });
    const once = await bothWays(sb.url, [...ids, 'search.request-context']);
    for (const r of [once.live, once.offline]) {
      for (const id of ['category.request-context', 'category.items-served'])
        expect(rowOf(r, id), id).toMatchObject({ status: 'ok', example: { pageLoadId: 'pl-cat' } });
      expect(rowOf(r, 'category.banners').status).toBe('unseen');
      expect(rowOf(r, 'category.one-response-shown').status).toBe('unseen');
      // each page kind on its own rows: nothing of the category page shows a search row
      for (const id of ['search.banners', 'search.request-context', 'search.items-served'])
        expect(rowOf(r, id).status, id).toBe('unseen');
    }
    expect(once.passes).toEqual({
      'category.banners': { live: false, check: false },
      'category.request-context': { live: true, check: true },
      'category.items-served': { live: true, check: true },
      'category.one-response-shown': { live: false, check: false },
      'search.request-context': { live: false, check: false },
    });

    // a filter change on the same page load (the rain campaign serves banners for jackets): a new search,
    // rendered, its tile and banner impressed
    const sorted = 'https://shop.example/c/mugs?filter=jacket';
    const second = await ask('category.json', 'jacket', 'pl-cat', sorted, { sort: 'price' });
    expect(second.responseId).not.toBe(first.responseId);
    expect(second.merchandising.content?.header?.length ?? 0).toBeGreaterThan(0);
    await send('category/render', 'pl-cat', sorted, { responseId: second.responseId });
    await send('category/impression', 'pl-cat', sorted, {
      responseId: second.responseId,
      results: [tile(second.results[0]!.uid)],
      banners: [{ uid: '81001' }],
    });
    const twice = await bothWays(sb.url, ids);
    for (const r of [twice.live, twice.offline]) {
      for (const id of ids)
        expect(rowOf(r, id), id).toMatchObject({ status: 'ok', example: { pageLoadId: 'pl-cat' } });
      expect(rowOf(r, 'search.banners').status).toBe('unseen');
    }
    for (const id of ids) expect(twice.passes[id], id).toEqual({ live: true, check: true });

    // a banner the response never served: the finding counts on the category row, not the search one
    const other = 'https://shop.example/c/coats';
    const coats = await ask('category.json', 'jacket', 'pl-coats', other);
    await send('category/render', 'pl-coats', other, { responseId: coats.responseId });
    await send('category/impression', 'pl-coats', other, {
      responseId: coats.responseId,
      results: [tile(coats.results[0]!.uid)],
      banners: [{ uid: '99999' }],
    });
    const broken = await bothWays(sb.url, ['category.banners']);
    for (const r of [broken.live, broken.offline]) {
      expect(rowOf(r, 'category.banners')).toMatchObject({
        status: 'findings',
        worst: { rule: 'banner-not-in-response', pageLoadId: 'pl-coats' },
      });
      expect(rowOf(r, 'search.banners').status).toBe('unseen');
    }
    expect(broken.passes['category.banners']).toEqual({ live: false, check: false });
  });

  it('an ok row links a page that shows it cleanly: a newer page failing a sibling rule of the widget is passed over, live, in expectReady and in check of the export', async () => {
    sb = await startSandbox();
    const widget = async (pageLoadId: string, userId: string, responseId: string) => {
      const context = {
        timestamp: new Date().toISOString(),
        pageUrl: `https://shop.example/products/${pageLoadId}`,
        userId,
        sessionId: `s-${userId}`,
        pageLoadId,
        initiator: 'search-sandbox/test',
        dev: true,
      };
      const data = { responseId, tag: 'similar' };
      expect(
        (await postBeacon(sb!.url, 'demo42/recommendations/render', { context, data })).status,
      ).toBe(200);
    };
    await widget('pdp-clean', 'u-a', 'w-1');
    // another shopper's page later renders the same responseId: copied, not the widget's own
    await widget('pdp-copied', 'u-b', 'w-1');
    const { live, offline, passes } = await bothWays(sb.url, ['recommendations.widget']);
    for (const [name, r] of [
      ['live', live],
      ['check', offline],
    ] as const) {
      const events = r.behaviours.find(
        (b) => b.id === 'recommendations.events' && b.tag === 'similar',
      )!;
      expect(events, name).toMatchObject({
        status: 'findings',
        worst: { pageLoadId: 'pdp-copied' },
      });
      expect(rowOf(r, 'recommendations.widget'), name).toMatchObject({
        status: 'ok',
        example: { pageLoadId: 'pdp-clean' },
      });
    }
    // the id holds every declared tag to it: the config's trending widget sent nothing
    expect(passes['recommendations.widget']).toEqual({ live: false, check: false });
  });

  it('identity.page-load-spa: the beacon client renewing its pageLoadId per SPA route sends page loads, and the row says nothing is missing; keeping it through the routes shows it, live, in expectReady and in check of the export', async () => {
    sb = await startSandbox();
    const base = sb.url;
    /** The provider's client in one SPA: three routes, each re-searching, with pageLoad() per route or not. */
    const spa = async (user: string, renew: boolean) => {
      const sent: Array<Promise<unknown>> = [];
      const beacon = new Beacon(
        { siteId: 'demo42' },
        {
          mode: 'development',
          href: 'https://shop.example/search?q=jacket',
          requesters: {
            beacon: { origin: `${base}/beacon/v2` },
            personalization: { origin: base },
          },
          apis: {
            fetch: (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
              const p = fetch(input, init);
              sent.push(p.catch(() => undefined));
              return p;
            },
          },
        },
      );
      const loads = new Set<string>();
      for (const [i, q] of ['jacket', 'shell', 'parka'].entries()) {
        beacon.updateContext('pageUrl', `https://shop.example/search?q=${q}`);
        if (renew && i > 0) beacon.pageLoad();
        loads.add(beacon.getPageLoadId());
        beacon.events.search.render({ data: { responseId: `${user}-${q}` } });
        // the client's queue (300 ms) sends the render before the next route
        await new Promise((r) => setTimeout(r, 400));
      }
      await Promise.all(sent);
      return loads.size;
    };
    expect(await spa('renews', true)).toBe(3);
    const renewed = await bothWays(base, ['identity.page-load-spa']);
    for (const r of [renewed.live, renewed.offline])
      expect(rowOf(r, 'identity.page-load-spa')).toMatchObject({
        status: 'unseen',
        title: expect.stringContaining('a route renewed with pageLoad() is sent as a page load'),
        next: expect.stringMatching(
          /^nothing, if the storefront calls `beacon\.pageLoad\(\)` on each route .* this row stays unseen with nothing missing/,
        ),
      });
    expect(renewed.passes['identity.page-load-spa']).toEqual({ live: false, check: false });

    expect(await spa('keeps', false)).toBe(1);
    const kept = await bothWays(base, ['identity.page-load-spa']);
    for (const r of [kept.live, kept.offline])
      expect(rowOf(r, 'identity.page-load-spa')).toMatchObject({ status: 'ok' });
    expect(kept.passes['identity.page-load-spa']).toEqual({ live: true, check: true });
  });

  it('a widget whose rendered responses served nothing says so on its events row; one that served results and sent no events is told to send them, live, in expectReady and in check of the export', async () => {
    sb = await startRecommendSandbox();
    const base = sb.url;
    /** a product page asking for a widget as the Snap client does, then rendering its response */
    const widgetPage = async (tag: string, pageLoadId: string) => {
      const asked = await recommend(sb!, {
        siteId: 'demo42',
        profiles: [{ tag }],
        products: ['P204'],
        beacon: true,
        test: true,
      });
      const { responseId, results } = asked.body[0] as { responseId: string; results: unknown[] };
      const context = {
        timestamp: new Date().toISOString(),
        pageUrl: 'https://shop.example/products/P204',
        userId: 'u-pdp',
        sessionId: 's-pdp',
        pageLoadId,
        initiator: 'search-sandbox/test',
        dev: true,
      };
      const res = await postBeacon(base, 'demo42/recommendations/render', {
        context,
        data: { responseId, tag },
      });
      expect(res.status).toBe(200);
      return results.length;
    };
    // no order yet: also-bought serves nothing; similar serves products nobody impressed
    expect(await widgetPage('also-bought', 'pdp-1')).toBe(0);
    expect(await widgetPage('similar', 'pdp-2')).toBeGreaterThan(0);
    const { live, offline, passes } = await bothWays(base, ['recommendations.events']);
    const events = (r: ReadinessDto, tag: string) =>
      r.behaviours.find((b) => b.id === 'recommendations.events' && b.tag === tag)!;
    for (const [name, r] of [
      ['live', live],
      ['check', offline],
    ] as const) {
      expect(events(r, 'also-bought'), name).toMatchObject({
        status: 'unseen',
        next: expect.stringMatching(
          /^its rendered responses served nothing to impress .*: give the widget something to serve \(an order of the product, for also-bought\), then a Snap RecommendationController .* \(tag "also-bought"\)$/,
        ),
      });
      expect(events(r, 'similar'), name).toMatchObject({
        status: 'unseen',
        next: expect.stringMatching(/^a Snap RecommendationController per widget/),
      });
    }
    expect(passes['recommendations.events']).toEqual({ live: false, check: false });
  });

  it('reads the widgets an export declares: the same widget rows as the live sandbox, without --config', async () => {
    const demo = testConfig().accounts[0]!;
    const widgets = [
      ...demo.search.recommendations,
      { ...demo.search.recommendations[0]!, tag: 'cross-sell', type: 'bundle' as const },
    ];
    sb = await startSandbox({
      accounts: [{ ...demo, search: { ...demo.search, recommendations: widgets } }],
    });
    const context = {
      timestamp: new Date().toISOString(),
      pageUrl: 'https://shop.example/products/p101',
      userId: 'u-3',
      sessionId: 's-3',
      pageLoadId: 'pdp',
      initiator: 'search-sandbox/test',
      dev: true,
    };
    const res = await postBeacon(sb.url, 'demo42/recommendations/render', {
      context,
      data: { responseId: 'w-1', tag: 'similar' },
    });
    expect(res.status).toBe(200);
    const live = (await (
      await fetch(`${sb.url}/_sandbox/readiness?siteId=demo42`)
    ).json()) as ReadinessDto;
    const file = await exportFile(cleanups, sb.url);
    const offline = (
      JSON.parse((await check(file, '--readiness', '--format', 'json')).out) as Sites
    ).sites[0]!;
    const rows = (r: ReadinessDto) =>
      r.behaviours
        .filter((b) => b.area === 'recommendations' || b.area === 'bundles')
        .map((b) => `${b.id} [${b.tag ?? ''}] ${b.status} ${b.why ?? ''}`);
    expect(rows(live)).toEqual([
      'recommendations.widget [similar] ok ',
      'recommendations.widget [trending] unseen ',
      'recommendations.events [similar] unseen ',
      'recommendations.events [trending] unseen ',
      'bundles.widget [cross-sell] unseen ',
    ]);
    expect(rows(offline)).toEqual(rows(live));
    expect(offline.summary).toEqual(live.summary);
    // the text report lists them too
    const text = (await check(file, '--readiness')).out;
    expect(text).toMatch(/unseen\s+recommendations\.events \[trending\]/);
    expect(text).toMatch(/unseen\s+bundles\.widget \[cross-sell\]/);
  });

  it('counts a widget’s events sent with a misspelt tag on its own tag’s rows, saying the tag is wrong, live and in check of the export', async () => {
    sb = await startSandbox();
    const context = (ms: number) => ({
      timestamp: new Date(Date.now() - 60_000 + ms).toISOString(),
      pageUrl: 'https://shop.example/products/p101',
      userId: 'u-typo',
      sessionId: 's-typo',
      pageLoadId: 'pdp-typo',
      initiator: 'search-sandbox/test',
      dev: true,
    });
    const tile = { type: 'product', uid: 'P102', parentId: 'P102' };
    for (const [event, ms, data] of [
      ['render', 0, { responseId: 'rec-a', tag: 'similar' }],
      // the widget's impression with its tag misspelt: a tag no account declares
      ['impression', 1_500, { responseId: 'rec-a', tag: 'similiar', results: [tile], banners: [] }],
    ] as const) {
      const res = await postBeacon(sb.url, `demo42/recommendations/${event}`, {
        context: context(ms),
        data,
      });
      expect(res.status).toBe(200);
    }
    const client = new SandboxClient(sb.url);
    const live = await client.readiness({ siteId: 'demo42' });
    const rows = (r: ReadinessDto) =>
      r.behaviours
        .filter((b) => b.area === 'recommendations')
        .map(
          (b) =>
            `${b.id} [${b.tag}] ${b.status} ${b.worst ? `${b.worst.rule} ${b.worst.pageLoadId}` : ''} ${b.wrongTags?.join(',') ?? ''}`,
        );
    // one row per declared tag: the misspelt tag has none, its events count on the widget's own
    expect(rows(live)).toEqual([
      'recommendations.widget [similar] ok  ',
      'recommendations.widget [trending] unseen  ',
      'recommendations.events [similar] findings missing-render pdp-typo similiar',
      'recommendations.events [trending] unseen  ',
    ]);
    const worst = live.behaviours.find(
      (b) => b.id === 'recommendations.events' && b.tag === 'similar',
    )!.worst!;
    const line = `recommendations.events (tag "similar") has findings: error missing-render on page pdp-typo: ${worst.message}; fix: ${worst.fix.replace(/\.$/, '')}; its events were sent with tag "similiar": send them with data.tag "similar"`;
    const failure = await client
      .expectReady({ siteId: 'demo42', expect: ['recommendations.events'] })
      .then(
        () => '',
        (e: Error) => e.message,
      );
    expect(failure).toContain(line);
    expect(failure).not.toContain('(tag "similar") is unseen');
    expect(failure).not.toContain('similiar") ');

    const file = await exportFile(cleanups, sb.url);
    const json = await check(
      file,
      '--readiness',
      '--format',
      'json',
      '--expect',
      'recommendations.events',
    );
    const offline = (JSON.parse(json.out) as Sites).sites[0]!;
    expect(rows(offline)).toEqual(rows(live));
    expect(offline.summary).toEqual(live.summary);
    expect(offline.gaps).toContain(line);
    const text = await check(file, '--readiness', '--expect', 'recommendations.events');
    expect(text.code).toBe(1);
    expect(text.out).toMatch(
      /findings\s+recommendations\.events \[similar\]\s+error missing-render on page pdp-typo: .+; fix: .+; its events were sent with tag "similiar": send them with data\.tag "similar"\n/,
    );
    expect(text.out).not.toContain('[similiar]');
  });

  it('names the worst finding the live sandbox names where two of one severity are on one page', async () => {
    sb = await startSandbox();
    const base = sb.url;
    // the page load's two searches are asked in one session, its beacons carry another: each response's
    // events name a session its request did not (the page searched and tracked with two sessions)
    const search = async (q: string) => {
      const query = new URLSearchParams({ siteId: 'demo42', q, beacon: 'true' });
      for (const [k, v] of Object.entries({ userId: 'u-2', sessionId: 's-0', pageLoadId: 'drift' }))
        query.set(k, v);
      return (
        (await (await fetch(`${base}/api/search/search.json?${query}`)).json()) as {
          responseId: string;
        }
      ).responseId;
    };
    const send = async (endpoint: string, sessionId: string, data: unknown) => {
      const context = {
        timestamp: new Date().toISOString(),
        pageUrl: 'https://shop.example/search?q=northfold',
        userId: 'u-2',
        sessionId,
        pageLoadId: 'drift',
        initiator: 'search-sandbox/test',
        dev: true,
      };
      expect((await postBeacon(base, `demo42/${endpoint}`, { context, data })).status).toBe(200);
    };
    await send('search/render', 's-1', { responseId: await search('northfold') });
    await send('search/render', 's-1', { responseId: await search('jacket') });
    const live = (await (
      await fetch(`${base}/_sandbox/readiness?siteId=demo42`)
    ).json()) as ReadinessDto;
    const file = await exportFile(cleanups, base);
    const offline = (
      JSON.parse((await check(file, '--readiness', '--format', 'json')).out) as Sites
    ).sites[0]!;
    const worst = (r: ReadinessDto) =>
      r.behaviours.find((b) => b.id === 'identity.ids-per-page-load')?.worst;
    const timeline = (await (
      await fetch(`${base}/_sandbox/timelines/drift?siteId=demo42`)
    ).json()) as { findings: Array<{ rule: string; severity: string; behaviour?: string }> };
    const named = timeline.findings.filter((f) => f.behaviour === 'identity.ids-per-page-load');
    // two errors name the behaviour on the page: the row names the one the page lists first
    expect(named.map((f) => f.severity)).toEqual(['error', 'error']);
    expect(worst(live)).toMatchObject({
      rule: named[0]!.rule,
      severity: 'error',
      pageLoadId: 'drift',
    });
    expect(worst(offline)).toEqual(worst(live));
  });

  it('a findings row says what its worst finding says and its fix: live, in expectReady and in check of the export', async () => {
    sb = await startSandbox();
    const context = {
      timestamp: new Date().toISOString(),
      pageUrl: 'https://shop.example/search?q=jacket',
      userId: 'u-words',
      sessionId: 's-words',
      pageLoadId: 'pl-1796085764-typed',
      initiator: 'search-sandbox/test',
      dev: true,
    };
    // a clickthrough whose uid is a number: the schema refuses it
    const typed = await postBeacon(sb.url, 'demo42/search/clickthrough', {
      context,
      data: { responseId: 'r-1', results: [{ type: 'product', uid: 100, parentId: 'P101' }] },
    });
    expect(typed.status).toBe(400);
    const page = (await (
      await fetch(`${sb.url}/_sandbox/timelines/pl-1796085764-typed?siteId=demo42`)
    ).json()) as { findings: Array<{ rule: string; message: string; fix: string }> };
    const schema = page.findings.find((f) => f.rule === 'schema')!;
    const client = new SandboxClient(sb.url);
    const live = await client.readiness({ siteId: 'demo42' });
    const worst = live.behaviours.find((b) => b.id === 'search.clickthrough')!.worst!;
    expect(worst).toEqual({
      rule: 'schema',
      severity: 'error',
      pageLoadId: 'pl-1796085764-typed',
      // the page's message, cut short at a word: what was wrong is in it
      message: expect.stringContaining('invalid data type passed for key: data.results[0].uid'),
      fix: schema.fix,
    });
    expect(worst.message.length).toBeLessThanOrEqual(161);
    expect(schema.message.startsWith(worst.message.replace(/…$/, ''))).toBe(true);
    const line = `search.clickthrough has findings: error schema on page pl-1796085764-typed: ${worst.message}; fix: ${schema.fix.replace(/\.$/, '')}`;
    await expect(
      client.expectReady({ siteId: 'demo42', expect: ['search.clickthrough'] }),
    ).rejects.toThrow(line);
    const file = await exportFile(cleanups, sb.url);
    const json = await check(
      file,
      '--readiness',
      '--format',
      'json',
      '--expect',
      'search.clickthrough',
    );
    const offline = (JSON.parse(json.out) as Sites).sites[0]!;
    expect(offline.behaviours.find((b) => b.id === 'search.clickthrough')!.worst).toEqual(worst);
    const text = await check(file, '--readiness', '--expect', 'search.clickthrough');
    expect(text.out).toContain(`    - ${line}\n`);
  });

  it('gives the rows the live sandbox gives for the same traffic', async () => {
    const ndjson = run(withQuickAdd());
    const file = tempFile(cleanups, 'journey.ndjson', ndjson);
    const offline = (
      JSON.parse((await check(file, '--readiness', '--format', 'json')).out) as Sites
    ).sites[0]!;
    // the same beacons sent to a sandbox whose clock stands when the journey was recorded
    const start = Date.parse('2026-11-21T04:00:00Z');
    sb = await startSandbox({}, { clock: new SandboxClock({ frozen: true, start }) });
    for (const line of ndjson.trim().split('\n')) {
      const { siteId, category, event, body } = JSON.parse(line) as Record<string, string>;
      const res = await postBeacon(sb.url, `${siteId}/${category}/${event}`, body);
      expect(res.status).toBe(200);
    }
    const live = (await (
      await fetch(`${sb.url}/_sandbox/readiness?siteId=demo42`)
    ).json()) as ReadinessDto;
    // the status, the worst finding's rule and what no rule could check, row for row
    const rows = (r: ReadinessDto) =>
      r.behaviours
        .filter((b) => b.area !== 'recommendations' && b.area !== 'bundles')
        .map(
          (b) =>
            `${b.id} ${b.status} ${b.worst?.rule ?? ''} ${b.unverified?.map((u) => `${u.lacks}:${u.rules.join(',')}`).join(' ') ?? ''}`,
        );
    expect(rows(offline)).toEqual(rows(live));
    expect(offline.behaviours.filter((b) => b.status === 'ok').length).toBeGreaterThan(10);
    // the cart page's cart lacks what the product page's widget quick-added: the quick add's row, not the
    // ledger's, in both
    for (const r of [offline, live]) {
      const status = (id: string) => r.behaviours.find((b) => b.id === id);
      expect(status('cart.quick-add-then-cart-add')).toMatchObject({
        status: 'findings',
        worst: { rule: 'cart-inconsistent' },
      });
      expect(status('cart.ledger')?.status).toBe('ok');
      // no companion search issued its responses, and no catalog: the items it served are unchecked
      expect(status('search.items-served')?.unverified?.map((u) => u.lacks)).toEqual([
        'issued',
        'catalog',
      ]);
    }
    expect(offline.summary.unverified).toBe(live.summary.unverified);
  });

  it('says how many pages have findings at or above --fail-on, which it does not gate, and the command that does', async () => {
    // the journey's search page clicks a tile it never impressed, after an impression without its render
    const j = journey();
    j[0]![0]!.events.splice(0, 1);
    const file = tempFile(cleanups, 'journey.ndjson', run(j));
    const pageReport = JSON.parse((await check(file, '--format', 'json')).out) as {
      verdicts: Record<'pass' | 'warn' | 'fail', number>;
    };
    const { pass, warn, fail } = pageReport.verdicts;
    expect(fail).toBeGreaterThan(0);
    expect((await check(file)).code).toBe(1);
    // readiness keeps its own exit code: what the site expects was seen
    const text = await check(file, '--readiness', '--expect', 'identity');
    expect(text.code).toBe(0);
    const gatedBy = `search-sandbox check ${file}`;
    expect(text.out).toMatch(
      new RegExp(
        `\\n\\npages: ${fail} of the ${pass + warn + fail} read (has|have) findings at or above error, which --readiness does not gate \\(its exit code is readiness's alone\\): \`${gatedBy.replaceAll('.', '\\.')}\` reports them and exits 1\\n$`,
      ),
    );
    // json says it where a script reads it, and stderr where a person does
    const json = await check(file, '--readiness', '--expect', 'identity', '--format', 'json');
    expect(json.code).toBe(0);
    expect((JSON.parse(json.out) as { pages: unknown }).pages).toEqual({
      checked: pass + warn + fail,
      failing: fail,
      failOn: 'error',
      gatedBy: `${gatedBy} --format json`,
    });
    expect(json.err).toContain(`${fail} of the ${pass + warn + fail} read`);
    // --fail-on counts what it fails on, and the command carries it (and every flag but --readiness)
    const strict = await check(file, '--readiness', '--fail-on', 'warning', '--expect=identity');
    expect(strict.out).toContain(
      `pages: ${warn + fail} of the ${pass + warn + fail} read have findings at or above warning`,
    );
    expect(strict.out).toContain(`\`${gatedBy} --fail-on warning\``);
    // the command it names gates the pages, as installed
    const named = await runCli(
      ['check', path.basename(file), '--fail-on', 'warning'],
      path.dirname(file),
    );
    expect(named.code).toBe(1);
    // a recording whose pages pass says so
    const clean = tempFile(cleanups, 'clean.ndjson', run(journey()));
    const quiet = await check(clean, '--readiness');
    expect(quiet.out).toMatch(
      /\npages: none of the \d+ read has findings at or above error \(`search-sandbox check \S+` gates them\)\n$/,
    );
    expect((await check(clean, '--readiness', '--format', 'json')).err).toBe('');
  });

  it('names a finding on requests without a pageLoadId by its request, live, in expectReady and in check of the export', async () => {
    sb = await startSandbox();
    // a browser's CORS preflight (a beacon sent as application/json), refused: no body, so no pageLoadId
    const preflight = await fetch(`${sb.url}/beacon/v2/demo42/search/render`, {
      method: 'OPTIONS',
    });
    expect(preflight.status).toBe(405);
    const client = new SandboxClient(sb.url);
    const live = await client.readiness({ siteId: 'demo42' });
    const worst = live.behaviours.find((b) => b.id === 'search.render')!.worst!;
    expect(worst).toEqual({
      rule: 'request-refused',
      severity: 'error',
      pageLoadId: '',
      request: expect.stringMatching(
        /^ev_\d+, a refused CORS preflight to \/beacon\/v2\/demo42\/search\/render$/,
      ),
      message: expect.stringContaining('preflight'),
      fix: expect.any(String),
    });
    const line = `search.render has findings: error request-refused on page (no pageLoadId): ${worst.request}; ${worst.message}; fix: ${worst.fix.replace(/\.$/, '')}`;
    await expect(
      client.expectReady({ siteId: 'demo42', expect: ['search.render'] }),
    ).rejects.toThrow(line);
    const file = await exportFile(cleanups, sb.url);
    const json = await check(file, '--readiness', '--format', 'json', '--expect', 'search.render');
    const offline = (JSON.parse(json.out) as Sites).sites[0]!;
    expect(offline.behaviours.find((b) => b.id === 'search.render')!.worst).toEqual(worst);
    expect(offline.gaps).toEqual([line]);
    const text = await check(file, '--readiness', '--expect', 'search.render');
    expect(text.code).toBe(1);
    expect(text.out).toMatch(
      new RegExp(
        `findings\\s+search\\.render\\s+error request-refused on page \\(no pageLoadId\\): ${worst.request}; `,
      ),
    );
    expect(text.out).toContain(`    - ${line}\n`);
    // the page report names that page the same way
    expect((await check(file)).out).toContain('page (no pageLoadId)');
  });

  it('an ok no rule could check is unverified: --expect of it fails naming what would check it, and passes given the catalog', async () => {
    const file = tempFile(cleanups, 'journey.ndjson', run(journey()));
    const bare = await check(file, '--readiness', '--expect', 'search.items-served');
    expect(bare.code, bare.out).toBe(1);
    expect(bare.out).toMatch(
      /ok \(unverified\)\s+search\.items-served\s+seen on page \S+; no rule/,
    );
    expect(bare.out).toContain(
      '- search.items-served was seen but not verified: no rule could check it',
    );
    expect(bare.out).toContain('to check what is unverified:');
    expect(bare.out).toContain("- the site's catalog: index the site's feed");
    const json = JSON.parse(
      (await check(file, '--readiness', '--format', 'json', '--expect', 'search.items-served')).out,
    ) as Sites;
    expect(json.ready).toBe(false);
    const row = json.sites[0]!.behaviours.find((b) => b.id === 'search.items-served')!;
    expect(row.status).toBe('ok');
    expect(row.unverified).toEqual([
      {
        lacks: 'issued',
        rules: [
          'item-not-in-response',
          'parentid-mismatch',
          'parentid-unclear',
          'tile-uid-variant',
          'item-ids-disagree',
        ],
        how: expect.stringContaining('sandbox export'),
      },
      {
        lacks: 'catalog',
        rules: ['item-not-in-catalog', 'item-ids-disagree'],
        how: expect.stringContaining('--catalog SITE=FILE'),
      },
    ]);
    // an area holds the site to what it sent: it passes, and the ready line says what is unverified
    const area = await check(file, '--readiness', '--expect', 'search');
    expect(area.code, area.out).toBe(0);
    expect(area.out).toMatch(
      /ready for what it expects: search \(\d+ of 18 behaviours seen, 1 of them unverified, \d+ unseen: see above\)/,
    );
    // the site's catalog lets item-not-in-catalog judge the items: verified, and the gate passes
    const feed = tempFile(
      cleanups,
      'catalog.csv',
      [
        'id,sku,parent_id,name,price',
        ...['101', '102', '103', '104', '105', '201', '202'].map(
          (id) => `${id},sku-${id},,Product ${id},100`,
        ),
      ].join('\n'),
    );
    const given = await check(
      file,
      '--readiness',
      '--expect',
      'search.items-served',
      '--catalog',
      `demo42=${feed}`,
    );
    expect(given.code, given.out).toBe(0);
    expect(given.out).toMatch(/\n {4}ok {14}search\.items-served\s+seen on page \S+\n/);
  });
});

describe('check --readiness of an export: what its sandbox expected', () => {
  /** A sandbox whose demo42 expects search and cart, and whose quiet1 expects cart but sends nothing. */
  async function expecting(): Promise<Sandbox> {
    const demo = testConfig().accounts[0]!;
    return startSandbox({
      accounts: [
        { ...demo, readiness: { expect: ['search', 'cart'] } },
        { ...demo, siteId: 'quiet1', feeds: [], readiness: { expect: ['cart'] } },
      ],
    });
  }

  /** A search page with its render and impression: search is seen, the cart is not. */
  async function searchPage(base: string): Promise<void> {
    const context = {
      timestamp: new Date().toISOString(),
      pageUrl: 'https://shop.example/search?q=shoes',
      userId: 'u-expect',
      sessionId: 's-expect',
      pageLoadId: 'search-expect',
      initiator: 'search-sandbox/test',
      dev: true,
    };
    const tiles = [{ type: 'product', uid: 'P1', parentId: 'P1' }];
    for (const [event, data] of [
      ['render', { responseId: 'r-expect' }],
      ['impression', { responseId: 'r-expect', results: tiles, banners: [] }],
    ] as const) {
      const res = await postBeacon(base, `demo42/search/${event}`, { context, data });
      expect(res.status).toBe(200);
    }
  }

  const exported = async (base: string, query = '') =>
    (await (await fetch(`${base}/_sandbox/export${query}`)).json()) as {
      search: { sites: Array<Record<string, unknown>> };
    };

  it('holds each site to its readiness.expect as the live sandbox does, without --config', async () => {
    sb = await expecting();
    await searchPage(sb.url);
    const client = new SandboxClient(sb.url);
    const live = await client.readiness({ siteId: 'demo42' });
    expect(live.expect).toEqual(['search', 'cart']);
    const liveGaps = readinessGaps(live, live.expect);
    expect(liveGaps).toEqual([expect.stringMatching(/^area cart is unseen/)]);
    // the live answer says it itself, as check's does
    expect(live.gaps).toEqual(liveGaps);
    await expect(client.expectReady({ siteId: 'demo42' })).rejects.toThrow(/area cart is unseen/);

    const whole = await exported(sb.url);
    expect(whole.search.sites.map((s) => [s.siteId, s.readiness])).toEqual([
      ['demo42', { expect: ['search', 'cart'] }],
      ['quiet1', { expect: ['cart'] }],
    ]);
    const file = tempFile(cleanups, 'export.json', JSON.stringify(whole));
    const json = await check(file, '--readiness', '--format', 'json');
    expect(json.code, json.err).toBe(1);
    const sites = (JSON.parse(json.out) as Sites).sites;
    const demo = sites.find((s) => s.siteId === 'demo42')!;
    expect(demo.expect).toEqual(live.expect);
    expect(demo.gaps).toEqual(liveGaps);
    // a site the export's sandbox expected something of is held to it though it sent nothing, as live
    const quiet = sites.find((s) => s.siteId === 'quiet1')!;
    expect(quiet).toMatchObject({ sent: false, expect: ['cart'] });
    expect(quiet.gaps).toEqual(
      readinessGaps(await client.readiness({ siteId: 'quiet1' }), ['cart']),
    );
    const text = await check(file, '--readiness');
    expect(text.out).toContain('- area cart is unseen: nothing of it was sent');
    // the installed command says the same
    const cli = await runCli(['check', path.basename(file), '--readiness'], path.dirname(file));
    // (its last line names the file as it was given)
    expect([cli.code, cli.stdout]).toEqual([1, text.out.replace(file, path.basename(file))]);
    expect(text.out).toMatch(
      /readiness of quiet1: .* \(it sent nothing in this recording: the export says its sandbox expected it to\)/,
    );

    // an export of one site's events records that site's expectation only
    const one = await exported(sb.url, '?siteId=demo42');
    expect(one.search.sites.map((s) => s.siteId)).toEqual(['demo42']);
    const oneFile = tempFile(cleanups, 'demo42.json', JSON.stringify(one));
    const oneSites = (
      JSON.parse((await check(oneFile, '--readiness', '--format', 'json')).out) as Sites
    ).sites;
    expect(oneSites.map((s) => [s.siteId, s.gaps])).toEqual([['demo42', liveGaps]]);

    // --expect and a --config that names the site still win
    expect((await check(oneFile, '--readiness', '--expect', 'search')).code).toBe(0);
    const config = tempFile(
      cleanups,
      'search-sandbox.config.json',
      JSON.stringify({ accounts: [{ siteId: 'demo42', secretKey: 'k' }] }),
    );
    const configured = await check(oneFile, '--readiness', '--config', config, '--format', 'json');
    expect(configured.code).toBe(0);
    expect((JSON.parse(configured.out) as Sites).sites[0]!.expect).toEqual([]);
  });

  it('reads an export written before it carried the expectation: nothing expected, the same rows', async () => {
    sb = await expecting();
    await searchPage(sb.url);
    const now = await exported(sb.url, '?siteId=demo42');
    const older = structuredClone(now);
    for (const site of older.search.sites) delete site.readiness;
    const rows = async (doc: unknown, name: string) => {
      const res = await check(
        tempFile(cleanups, name, JSON.stringify(doc)),
        '--readiness',
        '--format',
        'json',
      );
      return { code: res.code, site: (JSON.parse(res.out) as Sites).sites[0]! };
    };
    const [carried, before] = [await rows(now, 'now.json'), await rows(older, 'older.json')];
    expect(before.code).toBe(0);
    expect(before.site.expect).toEqual([]);
    expect(before.site.gaps).toEqual([]);
    expect(before.site.behaviours).toEqual(carried.site.behaviours);
    expect(carried.code).toBe(1);
    // and one that is not what an export writes is refused, naming it
    const bad = structuredClone(now) as { search: { sites: Array<Record<string, unknown>> } };
    bad.search.sites[0]!.readiness = { expect: 'cart' };
    const refused = await check(tempFile(cleanups, 'bad.json', JSON.stringify(bad)), '--readiness');
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(
      'search.sites[0].readiness is not what readiness held the site to: it must be {"expect": [behaviour ids or areas]}',
    );
  });

  it('an import keeps the importing sandbox’s own config: its accounts say what readiness expects', async () => {
    sb = await expecting();
    await searchPage(sb.url);
    const body = JSON.stringify(await exported(sb.url));
    await sb.close();
    sb = await startSandbox();
    const imported = await fetch(`${sb.url}/_sandbox/import`, { method: 'POST', body });
    expect(imported.status).toBe(200);
    expect(((await imported.json()) as { sections: string[] }).sections).toContain('search');
    const after = await new SandboxClient(sb.url).readiness({ siteId: 'demo42' });
    expect(after.expect).toEqual([]);
    expect(after.behaviours.find((b) => b.id === 'search.render')?.status).toBe('ok');
  });
});
