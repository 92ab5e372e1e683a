// Integration readiness over real HTTP: a search-only storefront lists the rest of the client (cart, order,
// product page, …) as unseen with what sends each; a planted bug shows its behaviour with findings, linked
// to its page; the gate (the package client's expectReady) fails for an expected behaviour never sent and
// passes once the storefront sends it; accounts[].readiness.expect is what it holds a site to by default.
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import { SandboxApiError, SandboxClient } from '../../src/main/api/client';
import { BEHAVIOURS } from '../../src/main/tracking/client-model';
import type { ReadinessDto, ReadinessRowDto } from '../../src/shared/readiness';
import { postBeacon, startSandbox, testConfig } from '../helpers/sandbox';
import { check, exportFile } from '../helpers/check';

const SITE = 'demo42';
let sb: Sandbox | undefined;
const cleanups: Array<() => unknown> = [];

afterEach(async () => {
  await sb?.close();
  sb = undefined;
  for (const c of cleanups.splice(0)) await c();
});

async function send(endpoint: string, body: unknown): Promise<void> {
  const res = await postBeacon(sb!.url, `${SITE}/${endpoint}`, body);
  expect(res.status, `${endpoint}: ${await res.clone().text()}`).toBe(200);
}

const context = (
  pageLoadId: string,
  ms: number,
  pageUrl = 'https://shop.example/search?q=jacket',
) => ({
  timestamp: new Date(Date.now() - 60_000 + ms).toISOString(),
  pageUrl,
  userId: 'ready-user',
  sessionId: 'ready-session',
  pageLoadId,
  initiator: 'search-sandbox/test',
  dev: true,
});

/**
 * A search page as Snap tracks it: render, the tiles impressed a second later, a click on one. `clicked`
 * another uid plants a bug: a click on a tile the page never impressed (then a click on a shown one, so
 * the page went on after it).
 */
async function searchPage(pageLoadId: string, responseId: string, clicked = 'P101'): Promise<void> {
  const tiles = ['P101', 'P102'].map((uid) => ({ type: 'product', uid, parentId: uid }));
  await send('search/render', { context: context(pageLoadId, 0), data: { responseId } });
  await send('search/impression', {
    context: context(pageLoadId, 1_200),
    data: { responseId, results: tiles, banners: [] },
  });
  await send('search/clickthrough', {
    context: context(pageLoadId, 3_000),
    data: { responseId, results: [{ type: 'product', uid: clicked, parentId: clicked }] },
  });
  if (clicked !== 'P101')
    await send('search/clickthrough', {
      context: context(pageLoadId, 4_500),
      data: { responseId, results: [tiles[0]] },
    });
}

async function readiness(): Promise<ReadinessDto> {
  const res = await fetch(`${sb!.url}/_sandbox/readiness?siteId=${SITE}`);
  expect(res.status).toBe(200);
  return (await res.json()) as ReadinessDto;
}

const row = (r: ReadinessDto, id: string, tag?: string): ReadinessRowDto => {
  const found = r.behaviours.find((b) => b.id === id && b.tag === tag);
  expect(found, `${id} ${tag ?? ''}`).toBeDefined();
  return found!;
};

describe('readiness of a site', () => {
  it('a search-only integration: search ok with its page, cart, order, product page and the rest unseen with their next step', async () => {
    sb = await startSandbox();
    await searchPage('search-1', 'r-1');
    const r = await readiness();
    expect(r.siteId).toBe(SITE);
    // every behaviour of the model has its row (the widget areas one per declared tag)
    for (const b of BEHAVIOURS)
      expect(
        r.behaviours.some((x) => x.id === b.id),
        b.id,
      ).toBe(true);
    expect(row(r, 'search.render')).toMatchObject({
      status: 'ok',
      example: { pageLoadId: 'search-1' },
    });
    expect(row(r, 'search.clickthrough').status).toBe('ok');
    for (const id of [
      'cart.ledger',
      'cart.items',
      'order.transaction',
      'order.totals',
      'product.pageview',
      'login.shopper',
      'category.events',
      'autocomplete.events',
      'search.addtocart',
    ])
      expect(row(r, id), id).toMatchObject({
        status: 'unseen',
        next: BEHAVIOURS.find((b) => b.id === id)!.next,
      });
    // one its endpoint's arrival says nothing of says what shows it, the companion search's part included
    expect(row(r, 'search.redirect').next).toBe(
      `${BEHAVIOURS.find((b) => b.id === 'search.redirect')!.next}; it is seen on a search/redirect of a search page’s response: not one the companion search issued for a category page (category.json), on a page that sent no category/* events`,
    );
    // a search page that already runs its controller is told what of the page sends a quick add
    expect(row(r, 'search.addtocart').next).toMatch(
      /; it is sent by a tile’s add-to-cart button: the controller’s `track\.product\.addToCart\(result\)`/,
    );
    expect(row(r, 'search.zero-results').next).toMatch(
      /with a query that has no results; it is seen on a search response the companion search issued with nothing to show/,
    );
    // a behaviour the search page's render says nothing of names the scenario that shows it, not only the
    // controller the page already runs
    for (const [id, scenario] of [
      ['search.backfill', ', with infinite scroll restoring several pages on load'],
      ['search.single-result-redirect', ', with a query that has exactly one result'],
      [
        'search.render-cached',
        ', with a reload of a listing or a back navigation to it in production, within the client’s 5-minute cache',
      ],
      ['autocomplete.redirect', ', with a redirect configured for a term'],
      ['identity.page-load-spa', ', with a route: a re-search'],
    ])
      expect(row(r, id!), id).toMatchObject({
        status: 'unseen',
        next: expect.stringContaining(scenario!),
      });
    // order.credit is seen only through a credited order line: none here
    expect(row(r, 'order.credit').status).toBe('unseen');
    // the demo site declares two recommendation widgets: each has its rows, unseen, naming its tag
    for (const tag of ['similar', 'trending'])
      expect(row(r, 'recommendations.widget', tag)).toMatchObject({
        status: 'unseen',
        next: expect.stringContaining(`tag "${tag}"`),
      });
    // and no bundle widget: not applicable, with why
    expect(row(r, 'bundles.widget')).toMatchObject({
      status: 'not-applicable',
      why: expect.stringContaining('declares no bundle widget'),
    });
    // nothing is ok that the search page did not send: an ok row's endpoints are search/* or any event
    const sent = new Set(['*', 'search/render', 'search/impression', 'search/clickthrough']);
    for (const b of r.behaviours.filter((x) => x.status === 'ok')) {
      const model = BEHAVIOURS.find((m) => m.id === b.id)!;
      expect(
        model.seenBy.some((e) => sent.has(e)),
        `${b.id} is ok without being sent`,
      ).toBe(true);
    }
    const counted = { ok: 0, findings: 0, unseen: 0, notApplicable: 0, unverified: 0 };
    for (const b of r.behaviours) {
      counted[b.status === 'not-applicable' ? 'notApplicable' : b.status]++;
      if (b.unverified) counted.unverified++;
    }
    expect(r.summary).toEqual(counted);
  });

  it('an SPA route is the evidence an SPA keeps its pageLoadId: a re-search at another address of one page load, live and offline', async () => {
    sb = await startSandbox();
    // one page load, one address: a storefront without routes shows nothing of it (any event did before)
    await searchPage('load-1', 'r-1');
    expect(row(await readiness(), 'identity.page-load-spa').status).toBe('unseen');
    // an address of another page load, or the same address with another fragment, is no route
    await send('search/render', {
      context: context('load-2', 0, 'https://shop.example/search?q=jacket#tiles'),
      data: { responseId: 'r-2' },
    });
    await send('search/render', {
      context: context('load-2', 900, 'https://shop.example/search?q=jacket#more'),
      data: { responseId: 'r-2b' },
    });
    expect(row(await readiness(), 'identity.page-load-spa').status).toBe('unseen');
    // the SPA re-searches at a new address (pushState) under the page load's pageLoadId
    await send('search/render', {
      context: context('load-1', 6_000, 'https://shop.example/search?q=shell'),
      data: { responseId: 'r-3' },
    });
    const live = row(await readiness(), 'identity.page-load-spa');
    expect(live).toMatchObject({ status: 'ok', example: { pageLoadId: 'load-1' } });
    expect(live.unverified).toBeUndefined();
    // `check --readiness` of the export says the same
    const { code, out } = await check(
      await exportFile(cleanups, sb.url),
      '--readiness',
      '--format',
      'json',
    );
    expect(code).toBe(0);
    const offline = (JSON.parse(out) as { sites: ReadinessDto[] }).sites.find(
      (s) => s.siteId === SITE,
    )!;
    expect(row(offline, 'identity.page-load-spa')).toEqual(live);
  });

  it('a planted bug shows its behaviour with findings, the worst linked to its page', async () => {
    sb = await startSandbox();
    await searchPage('search-ok', 'r-ok');
    // the click names a tile the page never impressed
    await searchPage('search-bug', 'r-bug', 'P999');
    const r = await readiness();
    const clicks = row(r, 'search.clickthrough');
    expect(clicks).toMatchObject({
      status: 'findings',
      worst: { rule: 'click-not-impressed', severity: 'warning', pageLoadId: 'search-bug' },
    });
    // the page the row links to holds that finding, naming that behaviour
    const page = (await (
      await fetch(`${sb.url}/_sandbox/timelines/search-bug?siteId=${SITE}`)
    ).json()) as { findings: Array<{ rule: string; behaviour?: string }> };
    expect(page.findings).toContainEqual(
      expect.objectContaining({ rule: 'click-not-impressed', behaviour: 'search.clickthrough' }),
    );
    // what the bug does not touch stays ok
    expect(row(r, 'search.render').status).toBe('ok');
  });

  it('a widget’s click on a tile it never impressed shows on its tag’s events row, not on the search clickthrough', async () => {
    sb = await startSandbox();
    const pdp = 'https://shop.example/products/p101';
    const tile = (uid: string) => ({ type: 'product', uid, parentId: uid });
    await send('recommendations/render', {
      context: context('pdp', 0, pdp),
      data: { responseId: 'w-1', tag: 'similar' },
    });
    await send('recommendations/impression', {
      context: context('pdp', 1_200, pdp),
      data: { responseId: 'w-1', tag: 'similar', results: [tile('P102')], banners: [] },
    });
    // a tile the widget never impressed, then one it did (the page went on after the click)
    for (const [uid, ms] of [
      ['P999', 3_000],
      ['P102', 4_500],
    ] as const)
      await send('recommendations/clickthrough', {
        context: context('pdp', ms, pdp),
        data: { responseId: 'w-1', tag: 'similar', results: [tile(uid)] },
      });
    const r = await readiness();
    expect(row(r, 'recommendations.events', 'similar')).toMatchObject({
      status: 'findings',
      worst: { rule: 'click-not-impressed', severity: 'warning', pageLoadId: 'pdp' },
    });
    expect(row(r, 'recommendations.events', 'trending').status).toBe('unseen');
    expect(row(r, 'search.clickthrough').status).toBe('unseen');
    const page = (await (
      await fetch(`${sb.url}/_sandbox/timelines/pdp?siteId=${SITE}`)
    ).json()) as { findings: Array<{ rule: string; behaviour?: string }> };
    expect(page.findings).toContainEqual(
      expect.objectContaining({ rule: 'click-not-impressed', behaviour: 'recommendations.events' }),
    );
  });

  it('a category page’s findings count on the category row, never on a search row', async () => {
    sb = await startSandbox();
    await searchPage('search-1', 'r-1');
    // the category controller sends category/*: a click on a tile never impressed, a quick add of qty 0,
    // and the listing rendered again with nothing new between
    const bags = 'https://shop.example/c/bags';
    const tile = (uid: string) => ({ type: 'product', uid, parentId: uid });
    const on = (ms: number) => context('bags', ms, bags);
    await send('category/render', { context: on(0), data: { responseId: 'c-1' } });
    await send('category/impression', {
      context: on(1_200),
      data: { responseId: 'c-1', results: [tile('B1'), tile('B2')], banners: [] },
    });
    await send('category/clickthrough', {
      context: on(3_000),
      data: { responseId: 'c-1', results: [tile('B9')] },
    });
    await send('category/addtocart', {
      context: on(3_500),
      data: { responseId: 'c-1', results: [{ uid: 'B2', parentId: 'B2', qty: 0, price: 5 }] },
    });
    await send('category/clickthrough', {
      context: on(4_500),
      data: { responseId: 'c-1', results: [tile('B1')] },
    });
    const r = await readiness();
    expect(row(r, 'category.events')).toMatchObject({
      status: 'findings',
      worst: { severity: 'warning', pageLoadId: 'bags' },
    });
    // the search page sent clean clicks and no quick add: its rows say so
    expect(row(r, 'search.clickthrough')).toMatchObject({
      status: 'ok',
      example: { pageLoadId: 'search-1' },
    });
    for (const id of ['search.addtocart', 'search.addtocart-qty'])
      expect(row(r, id).status, id).toBe('unseen');
    const page = (await (
      await fetch(`${sb.url}/_sandbox/timelines/bags?siteId=${SITE}`)
    ).json()) as { findings: Array<{ rule: string; behaviour?: string }> };
    expect(page.findings.map((f) => [f.rule, f.behaviour])).toEqual([
      ['click-not-impressed', 'category.events'],
      ['quick-add-qty', 'category.events'],
    ]);
  });

  it('a category page asked with the tracker’s context shows it on the category row, not on the search row', async () => {
    sb = await startSandbox();
    await searchPage('search-1', 'r-1');
    // the category controller asks category.json with the tracker's context, then renders on category/render
    const query = new URLSearchParams({
      siteId: SITE,
      beacon: 'true',
      test: 'true',
      userId: 'ready-user',
      sessionId: 'ready-session',
      pageLoadId: 'bags',
    });
    const asked = (await (await fetch(`${sb.url}/api/search/category.json?${query}`)).json()) as {
      responseId: string;
    };
    await send('category/render', {
      context: context('bags', 0, 'https://shop.example/c/bags'),
      data: { responseId: asked.responseId },
    });
    const r = await readiness();
    expect(row(r, 'category.events')).toMatchObject({
      status: 'ok',
      example: { pageLoadId: 'bags' },
    });
    // the search page's request was not the companion's: nothing shows that search asked with it
    expect(row(r, 'search.request-context').status).toBe('unseen');
  });

  it('an event the service rejects or refuses counts for the behaviour whose event it was; the context only when the context was wrong', async () => {
    sb = await startSandbox();
    await searchPage('search-1', 'r-1');
    // a clickthrough whose uid is a number: 400, over its data
    const typed = await postBeacon(sb.url, `${SITE}/search/clickthrough`, {
      context: context('typed', 3_000),
      data: { responseId: 'r-1', results: [{ type: 'product', uid: 100, parentId: 'P101' }] },
    });
    expect(typed.status).toBe(400);
    // a quick add sent as application/xml: 415, never read
    const xml = await postBeacon(
      sb.url,
      `${SITE}/search/addtocart`,
      {
        context: context('xml', 4_000),
        data: {
          responseId: 'r-1',
          results: [{ uid: 'P101', parentId: 'P101', sku: 'S-101', qty: 1, price: 80 }],
        },
      },
      { headers: { 'Content-Type': 'application/xml' } },
    );
    expect(xml.status).toBe(415);
    let r = await readiness();
    expect(row(r, 'search.clickthrough')).toMatchObject({
      status: 'findings',
      worst: { rule: 'schema', severity: 'error', pageLoadId: 'typed' },
    });
    expect(row(r, 'search.addtocart')).toMatchObject({
      status: 'findings',
      worst: { rule: 'request-refused', severity: 'error', pageLoadId: 'xml' },
    });
    // every context was the client's
    expect(row(r, 'identity.context').status).toBe('ok');
    // an event without its userId: the context's
    const { userId: _dropped, ...noUser } = context('no-user', 5_000);
    const res = await postBeacon(sb.url, `${SITE}/search/render`, {
      context: noUser,
      data: { responseId: 'r-2' },
    });
    expect(res.status).toBe(400);
    r = await readiness();
    expect(row(r, 'identity.context')).toMatchObject({
      status: 'findings',
      worst: { rule: 'schema', pageLoadId: 'no-user' },
    });
  });

  it('a search page’s redirect routed inside the SPA shows on the search redirect, not on the dropdown’s', async () => {
    sb = await startSandbox();
    const from = 'https://shop.example/search?q=gift%20card';
    await send('search/redirect', {
      context: context('routed', 0, from),
      data: { responseId: 'r-gift', redirect: '/pages/gift-cards' },
    });
    // the SPA's router shows the target: its widget's render carries the redirecting page's pageLoadId
    await send('recommendations/render', {
      context: context('routed', 600, 'https://shop.example/pages/gift-cards'),
      data: { responseId: 'w-gift', tag: 'trending' },
    });
    const r = await readiness();
    expect(row(r, 'search.redirect')).toMatchObject({
      status: 'findings',
      worst: { rule: 'redirect-routed', severity: 'warning', pageLoadId: 'routed' },
    });
    expect(row(r, 'autocomplete.redirect-navigates').status).not.toBe('findings');
  });

  it('a search page whose events all carry responseId "" fails with responseid-empty on its tiles’ row', async () => {
    sb = await startSandbox();
    await searchPage('empty-ids', '');
    const r = await readiness();
    expect(row(r, 'search.tile-response')).toMatchObject({
      status: 'findings',
      worst: { rule: 'responseid-empty', severity: 'error', pageLoadId: 'empty-ids' },
    });
    const page = (await (
      await fetch(`${sb.url}/_sandbox/timelines/empty-ids?siteId=${SITE}`)
    ).json()) as { verdict: string; findings: Array<{ rule: string; message: string }> };
    expect(page.verdict).toBe('fail');
    expect(page.findings.map((f) => f.rule)).toEqual(['responseid-empty']);
    expect(page.findings[0]!.message).toMatch(
      /^2 events \(search\/impression and search\/clickthrough: ev_\d+ and ev_\d+\) carry an empty data\.responseId/,
    );
  });

  it('the behaviours a render does not show alone are ok only where the traffic shows them as the client makes them', async () => {
    sb = await startSandbox();
    // a search asked for as the Snap client asks it, on the page that renders it
    const ask = async (q: string, pageLoadId: string) => {
      const query = new URLSearchParams({ siteId: SITE, q, beacon: 'true', test: 'true' });
      for (const [k, v] of Object.entries({ userId: 'ready-user', sessionId: 'ready-session' }))
        query.set(k, v);
      query.set('pageLoadId', pageLoadId);
      return (await (await fetch(`${sb!.url}/api/search/search.json?${query}`)).json()) as {
        responseId: string;
        results: Array<{ uid: string }>;
      };
    };
    const render = (pageLoadId: string, responseId: string, ms: number) =>
      send('search/render', { context: context(pageLoadId, ms), data: { responseId } });
    const impress = (pageLoadId: string, responseId: string, uid: string, ms: number) =>
      send('search/impression', {
        context: context(pageLoadId, ms),
        data: { responseId, results: [{ type: 'product', uid, parentId: uid }], banners: [] },
      });
    const ended = async () => {
      // the pages end once they have been quiet long enough
      const res = await fetch(`${sb!.url}/_sandbox/clock`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ advance: 'PT1M' }),
      });
      expect(res.status).toBe(200);
      return readiness();
    };
    // rendered twice with nothing between: duplicate-render's, not a cached render
    const brand = await ask('northfold', 'twice');
    expect(brand.results.length).toBeGreaterThan(1);
    await render('twice', brand.responseId, 0);
    await render('twice', brand.responseId, 300);
    // a render of a responseId the sandbox never issued: nothing says what it served
    await render('hand', 'never-issued', 0);
    // one result, but the page went on under the previous responseId: it never left for the product
    const before = await ask('northfold', 'stale');
    const mug = await ask('mug', 'stale');
    expect(mug.results).toHaveLength(1);
    await render('stale', before.responseId, 0);
    await impress('stale', before.responseId, before.results[0]!.uid, 1_200);
    await render('stale', mug.responseId, 5_000);
    await impress('stale', before.responseId, mug.results[0]!.uid, 6_200);
    const r = await ended();
    expect(row(r, 'search.render')).toMatchObject({
      status: 'findings',
      worst: { rule: 'duplicate-render', pageLoadId: 'twice' },
    });
    for (const id of [
      'search.render-cached',
      'search.zero-results',
      'search.zero-results-render',
      'search.single-result-redirect',
    ])
      expect(row(r, id).status, id).toBe('unseen');

    // what the client does: a search that found nothing, rendered; one result, rendered as the page leaves
    const none = await ask('zzqx nothing here', 'none');
    expect(none.results).toHaveLength(0);
    await render('none', none.responseId, 20_000);
    const one = await ask('mug', 'left');
    await render('left', one.responseId, 21_000);
    const after = await ended();
    for (const [id, page] of [
      ['search.zero-results', 'none'],
      ['search.zero-results-render', 'none'],
      ['search.single-result-redirect', 'left'],
    ] as const)
      expect(row(after, id), id).toMatchObject({ status: 'ok', example: { pageLoadId: page } });
  });

  it('the gate fails for an expected behaviour never sent, naming it and what sends it, and passes once it is sent', async () => {
    sb = await startSandbox();
    const client = new SandboxClient(sb.url);
    await searchPage('search-1', 'r-1');
    await expect(client.expectReady({ siteId: SITE, expect: ['search'] })).resolves.toMatchObject({
      siteId: SITE,
    });
    const failure = await client
      .expectReady({ siteId: SITE, expect: ['search', 'cart.ledger', 'order'] })
      .then(
        () => null,
        (e: Error) => e.message,
      );
    expect(failure).toContain('cart.ledger is unseen: send it with the page’s cart globals');
    expect(failure).toContain('area order is unseen');
    expect(failure).not.toContain('search');
    const item = { uid: 'P101', parentId: 'P101', sku: 'S-101', qty: 1, price: 80 };
    await send('cart/add', {
      context: context('cart-1', 5_000, 'https://shop.example/cart'),
      data: { results: [item], cart: [item] },
    });
    await send('order/transaction', {
      context: context('thanks-1', 9_000, 'https://shop.example/thanks'),
      data: { orderId: 'O-1', transactionTotal: 80, total: 80, results: [item] },
    });
    const passed = await client.expectReady({
      siteId: SITE,
      expect: ['search', 'cart.ledger', 'order'],
    });
    expect(passed.behaviours.find((b) => b.id === 'cart.ledger')?.status).toBe('ok');
    // the order line is credited to the search click: order.credit is seen
    expect(passed.behaviours.find((b) => b.id === 'order.credit')).toMatchObject({
      status: 'ok',
      example: { pageLoadId: 'thanks-1' },
    });
  });

  it('an ok no rule could check says so; expectReady fails it by id, naming what would check it, and passes once a rule could', async () => {
    sb = await startSandbox();
    const client = new SandboxClient(sb.url);
    // a storefront whose search goes elsewhere: its pages name items no issued response or catalog holds
    await searchPage('elsewhere', 'r-elsewhere');
    const r = await readiness();
    expect(row(r, 'search.items-served')).toMatchObject({
      status: 'ok',
      example: { pageLoadId: 'elsewhere' },
      unverified: [
        { lacks: 'issued', rules: expect.arrayContaining(['item-not-in-response']) },
        // demo42 turns its catalog check off
        { lacks: 'catalog', rules: ['item-not-in-catalog', 'item-ids-disagree'] },
      ],
    });
    expect(row(r, 'search.clickthrough').unverified).toBeUndefined();
    expect(r.summary.unverified).toBe(r.behaviours.filter((b) => b.unverified).length);
    await expect(
      client.expectReady({ siteId: SITE, expect: ['search.items-served'] }),
    ).rejects.toThrow(
      /search\.items-served was seen but not verified: no rule could check it: item-not-in-response, .* need the responses the sandbox's companion search issued \(point the storefront's search/,
    );
    // an area holds the site to what it sent
    await client.expectReady({ siteId: SITE, expect: ['search'] });
    // the storefront searches through the sandbox: the items its page names are checked against the response
    const query = new URLSearchParams({ siteId: SITE, q: 'jacket', beacon: 'true' });
    const asked = (await (await fetch(`${sb.url}/api/search/search.json?${query}`)).json()) as {
      responseId: string;
      results: Array<{ uid: string }>;
    };
    const uid = asked.results[0]!.uid;
    await send('search/render', {
      context: context('through', 0),
      data: { responseId: asked.responseId },
    });
    await send('search/impression', {
      context: context('through', 1_200),
      data: {
        responseId: asked.responseId,
        results: [{ type: 'product', uid, parentId: uid }],
        banners: [],
      },
    });
    const passed = await client.expectReady({ siteId: SITE, expect: ['search.items-served'] });
    expect(passed.behaviours.find((b) => b.id === 'search.items-served')).toMatchObject({
      status: 'ok',
    });
    expect(
      passed.behaviours.find((b) => b.id === 'search.items-served')!.unverified,
    ).toBeUndefined();
  });

  it('findings block the gate at or above failOn; the site’s readiness.expect is the default', async () => {
    const config = testConfig();
    const accounts = config.accounts.map((a) =>
      a.siteId === SITE ? { ...a, readiness: { expect: ['search.clickthrough'] } } : a,
    );
    sb = await startSandbox({ accounts });
    const client = new SandboxClient(sb.url);
    await searchPage('search-bug', 'r-bug', 'P999');
    expect((await client.readiness({ siteId: SITE })).expect).toEqual(['search.clickthrough']);
    // a warning does not block at the default failOn (error) ...
    await client.expectReady({ siteId: SITE });
    // ... and does at warning, named with its rule and page
    await expect(client.expectReady({ siteId: SITE, failOn: 'warning' })).rejects.toThrow(
      'search.clickthrough has findings: warning click-not-impressed on page search-bug',
    );
    await expect(client.expectReady({ siteId: SITE, expect: ['nope'] })).rejects.toThrow(
      /"nope" is neither a behaviour id nor an area/,
    );
  });

  it('answers 400 without a siteId, and a configured site nothing was sent for as all unseen', async () => {
    sb = await startSandbox();
    for (const query of ['', '?siteId=']) {
      const res = await fetch(`${sb.url}/_sandbox/readiness${query}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: 'BadRequest',
        parameter: 'siteId',
        message:
          "query parameter siteId is required: readiness is per site; use a configured site's siteId (demo42), e.g. GET /_sandbox/readiness?siteId=demo42",
      });
    }
    const empty = await readiness();
    expect(empty.summary.ok + empty.summary.findings).toBe(0);
    expect(empty.summary.unseen).toBeGreaterThan(0);
    await expect(new SandboxClient(sb.url).expectReady({ siteId: SITE })).rejects.toThrow(
      /nothing is expected of site demo42/,
    );
  });

  it('answers 404 for a siteId neither configured nor heard from, naming the configured sites, in the API and the package', async () => {
    const demo = testConfig().accounts[0]!;
    sb = await startSandbox({ accounts: [demo, { ...demo, siteId: 'shop01', feeds: [] }] });
    const client = new SandboxClient(sb.url);
    const message =
      'siteId "demo43" names no site of this sandbox: readiness is read for a site of the config\'s accounts, or one whose beacons were recorded, and none were for this one; did you mean demo42? the configured sites are demo42, shop01 (GET /_sandbox/health lists them)';
    const res = await fetch(`${sb.url}/_sandbox/readiness?siteId=demo43`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: 'NotFound',
      parameter: 'siteId',
      message,
      allowed: ['demo42', 'shop01'],
    });
    // expectReady asks for every page judged as finished
    for (const [call, query] of [
      [client.readiness({ siteId: 'demo43' }), 'siteId=demo43'],
      [client.expectReady({ siteId: 'demo43', expect: ['search'] }), 'siteId=demo43&finished=true'],
    ] as const) {
      const err = await call.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SandboxApiError);
      expect(err).toMatchObject({
        status: 404,
        message: `GET /_sandbox/readiness?${query} answered 404: ${message}`,
      });
    }
    // a site no account names is known once its beacons were recorded: its traffic, read as any site's
    const other = await postBeacon(sb.url, 'abc123/search/render', {
      context: context('heard', 0),
      data: { responseId: 'r-heard' },
    });
    expect(other.status).toBe(200);
    const heard = await client.readiness({ siteId: 'abc123' });
    expect(heard.behaviours.find((b) => b.id === 'search.render')?.status).toBe('ok');
    // and a configured one that sent nothing is all unseen, as before
    const quiet = await client.readiness({ siteId: 'shop01' });
    expect(quiet.summary.ok + quiet.summary.findings).toBe(0);
  });

  it('answers 400 for a siteId the beacon path refuses, even one that sent a (refused) request', async () => {
    sb = await startSandbox();
    // recorded as a request of "DEMO!", answered 404 by the beacon path's siteId rule
    expect((await postBeacon(sb.url, 'DEMO!/search/render', { data: {} })).status).toBe(404);
    for (const siteId of ['DEMO!', 'demo4', 'demo42 ', 'abc1234']) {
      const res = await fetch(`${sb.url}/_sandbox/readiness?siteId=${encodeURIComponent(siteId)}`);
      expect(res.status, siteId).toBe(400);
      const body = (await res.json()) as { error: string; parameter: string; message: string };
      expect(body).toMatchObject({ error: 'BadRequest', parameter: 'siteId' });
      expect(body.message).toContain(JSON.stringify(siteId));
      expect(body.message).toContain('six lowercase letters or digits (^[a-z0-9]{6}$');
      expect(body.message).toContain('e.g. GET /_sandbox/readiness?siteId=demo42');
    }
    // the words a refusal says it in come from the declaration, with the configured sites, the nearest first
    const res = await fetch(`${sb.url}/_sandbox/readiness?siteId=DEMO42`);
    expect(((await res.json()) as { message: string }).message).toBe(
      `query parameter siteId must be six lowercase letters or digits (^[a-z0-9]{6}$, the rule of the beacon path's siteId: no beacon can be sent for another), got "DEMO42"; did you mean demo42? use a configured site's siteId (demo42), e.g. GET /_sandbox/readiness?siteId=demo42`,
    );
  });

  it('declares siteId as the declaration says it: required, with the beacon path’s pattern (openapi.json)', async () => {
    sb = await startSandbox();
    const doc = (await (await fetch(`${sb.url}/_sandbox/openapi.json`)).json()) as {
      paths: Record<string, { get: { parameters: Array<Record<string, unknown>> } }>;
    };
    expect(doc.paths['/_sandbox/readiness']!.get.parameters).toEqual([
      expect.objectContaining({
        name: 'siteId',
        in: 'query',
        required: true,
        schema: expect.objectContaining({ type: 'string', pattern: '^[a-z0-9]{6}$' }),
      }),
      expect.objectContaining({ name: 'finished', in: 'query', required: false }),
    ]);
  });

  it('lists the configured sites in config order in GET /_sandbox/health, the sites a report is for', async () => {
    const demo = testConfig().accounts[0]!;
    sb = await startSandbox({ accounts: [{ ...demo, siteId: 'zeta99', feeds: [] }, demo] });
    const health = (await (await fetch(`${sb.url}/_sandbox/health`)).json()) as { sites: string[] };
    expect(health.sites).toEqual(['zeta99', 'demo42']);
    // and a readiness request without a (good) siteId suggests the first of them
    for (const query of ['', '?siteId=DEMO!']) {
      const res = await fetch(`${sb.url}/_sandbox/readiness${query}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain(
        'e.g. GET /_sandbox/readiness?siteId=zeta99',
      );
    }
  });
});
