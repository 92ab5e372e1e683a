// The whole visit over real HTTP, driven by the provider's own client (@athoscommerce/beacon) in Node:
// a search click, a product page, a cart and a thank-you page become a visit with pages, an order whose
// line is credited to the click, and findings where the visit is wrong — in timelines, reports, after a
// restart and gone on reset.
import { Beacon } from '@athoscommerce/beacon';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderDto, VisitDto } from '../../src/shared/visits';
import type { PageTimelineDto, TimelineReportDto } from '../../src/shared/timeline';
import type { Sandbox } from '../../src/main/sandbox';
import { startSandbox, tempDir } from '../helpers/sandbox';

const SITE = 'demo42';
const stops: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

/** Requests the clients sent (the personalization preflight is debounced): settled before a sandbox closes. */
const inFlight: Promise<unknown>[] = [];
const trackedFetch: typeof fetch = (input, init) => {
  const p = fetch(input, init);
  inFlight.push(p.catch(() => undefined));
  return p;
};

async function sandbox(overrides = {}) {
  const s = await startSandbox(overrides);
  stops.push(async () => {
    await Promise.all(inFlight.splice(0));
    await s.close();
  });
  return s;
}

/** One shopper's browser: one client, a new pageLoadId and URL per page, as a storefront's pages get. */
function shopper(s: Sandbox, href = 'http://localhost:5173/search?q=jacket') {
  const beacon = new Beacon(
    { siteId: SITE },
    {
      mode: 'development',
      href,
      requesters: {
        beacon: { origin: `${s.url}/beacon/v2` },
        personalization: { origin: s.url },
      },
      apis: { fetch: trackedFetch },
    },
  );
  return {
    beacon,
    open(url: string) {
      beacon.updateContext('pageUrl', url);
      return beacon.pageLoad();
    },
  };
}

const product = (uid: string) => ({
  type: 'product' as const,
  uid,
  parentId: uid,
  sku: `S-${uid}`,
});

async function getJson<T>(s: Sandbox, path: string): Promise<T> {
  const res = await fetch(`${s.url}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

/** search → click → product page → cart → thank-you page with an order that has no id. */
async function visit(s: Sandbox, orderId: string) {
  const { beacon, open } = shopper(s);
  beacon.events.search.render({ data: { responseId: 'resp-1' } });
  beacon.events.search.impression({
    data: { responseId: 'resp-1', results: [product('P103'), product('P104')], banners: [] },
  });
  // the render and impressions wait in the client's 300 ms queue; the shopper clicks after they went
  await s.core.events.waitFor({ siteId: SITE, event: 'impression' }, 1, 10_000);
  beacon.events.search.clickThrough({ data: { responseId: 'resp-1', results: [product('P103')] } });
  await s.core.events.waitFor({ siteId: SITE, event: 'clickthrough' }, 1, 10_000);
  open('http://localhost:5173/product/P103');
  beacon.events.product.pageView({
    data: { result: { uid: '1030', parentId: 'P103', sku: 'S-1030' } },
  });
  const line = { uid: '1030', parentId: 'P103', qty: 2, price: 25 };
  beacon.events.cart.add({ data: { results: [line], cart: [line] } });
  open('http://localhost:5173/checkout/thanks');
  beacon.events.order.transaction({
    data: { orderId, transactionTotal: 50, total: 54, results: [line] },
  });
  const done = await s.core.events.waitFor({ siteId: SITE, event: 'transaction' }, 1, 10_000);
  expect(done.done).toBe(true);
  return beacon;
}

describe('GET /_sandbox/visits and /_sandbox/orders', () => {
  it('a visit reads as the shopper’s path, its order line is credited to the search click', async () => {
    const s = await sandbox();
    const beacon = await visit(s, 'order-77');
    const visits = await getJson<VisitDto[]>(s, `/_sandbox/visits?siteId=${SITE}`);
    expect(visits).toHaveLength(1);
    const [v] = visits;
    expect(v!.sessionId).toBe(beacon.getSessionId());
    expect(v!.userIds).toEqual([beacon.getUserId()]);
    expect(v!.pages.map((p) => p.kind)).toEqual(['search', 'product', 'order']);
    expect(v!.orders).toEqual(['order-77']);
    expect(v!.cart).toEqual([]);
    expect(v!.verdict).not.toBe('fail');

    const orders = await getJson<OrderDto[]>(s, `/_sandbox/orders?userId=${beacon.getUserId()}`);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ orderId: 'order-77', transactionTotal: 50, total: 54 });
    expect(orders[0]!.lines[0]!.credit).toMatchObject({
      kind: 'search',
      responseId: 'resp-1',
      q: 'jacket',
      event: 'clickthrough',
    });
    expect(await getJson<OrderDto[]>(s, '/_sandbox/orders?orderId=nope')).toEqual([]);
  });

  it('an order without an id is an error on the order page: timelines, report and the page kind say so', async () => {
    const s = await sandbox();
    await visit(s, '');
    const list = await getJson<{ pages: PageTimelineDto[] }>(s, '/_sandbox/timelines?verdict=fail');
    expect(list.pages.map((p) => p.pageKind)).toEqual(['order']);
    const finding = list.pages[0]!.findings.find((f) => f.rule === 'order-id-missing');
    expect(finding?.severity).toBe('error');
    expect(list.pages[0]!.visitEvents!.map((e) => e.endpoint)).toEqual(['order/transaction']);
    const report = await getJson<TimelineReportDto>(s, '/_sandbox/report?format=json');
    expect(report.pages.flatMap((p) => p.findings.map((f) => f.rule))).toContain(
      'order-id-missing',
    );
    const junit = await (await fetch(`${s.url}/_sandbox/report?format=junit`)).text();
    expect(junit).toContain('order-id-missing');
  });

  it('an order on a payment domain not given the ids is a visit of its own, and its entry says so', async () => {
    const s = await sandbox();
    const shop = shopper(s, 'http://localhost:5173/cart');
    const lines = [
      { uid: '1030', parentId: 'P103', qty: 2, price: 25 },
      { uid: 'P104', parentId: 'P104', qty: 1, price: 10 },
    ];
    shop.beacon.events.cart.add({ data: { results: lines, cart: lines } });
    await s.core.events.waitFor({ siteId: SITE, event: 'add' }, 1, 10_000);
    // the payment domain's own client: the storefront's cookies and localStorage are not there
    const pay = shopper(s, 'http://127.0.0.1:5174/thank-you');
    pay.beacon.events.order.transaction({
      data: { orderId: 'pay-1', transactionTotal: 60, total: 60, results: [...lines].reverse() },
    });
    await s.core.events.waitFor({ siteId: SITE, event: 'transaction' }, 1, 10_000);
    const [order] = await getJson<OrderDto[]>(s, '/_sandbox/orders?orderId=pay-1');
    expect(order!.userId).not.toBe(shop.beacon.getUserId());
    expect(order!.lines.every((l) => l.credit === null)).toBe(true);
    const found = order!.findings.find((f) => f.rule === 'order-other-domain');
    expect(found?.severity).toBe('info');
    expect(found?.message).toContain(
      `order "pay-1" on http://127.0.0.1:5174 arrived in a new visit (sessionId "${pay.beacon.getSessionId()}"`,
    );
    expect(found?.message).toContain(
      `after visit "${shop.beacon.getSessionId()}" on http://localhost:5173 left a cart with the same items`,
    );
  });

  it('an order under a new userId after a login that made a new Beacon names the reset and the credit it lost', async () => {
    const s = await sandbox();
    const shop = shopper(s);
    shop.beacon.events.search.render({ data: { responseId: 'resp-1' } });
    shop.beacon.events.search.impression({
      data: { responseId: 'resp-1', results: [product('P200')], banners: [] },
    });
    await s.core.events.waitFor({ siteId: SITE, event: 'impression' }, 1, 10_000);
    shop.beacon.events.search.clickThrough({
      data: { responseId: 'resp-1', results: [product('P200')] },
    });
    await shop.open('http://localhost:5173/products/rain-shell');
    const lines = [{ uid: '2001', parentId: 'P200', sku: 'P200-RED-M', qty: 1, price: 149 }];
    shop.beacon.events.cart.add({ data: { results: lines, cart: lines } });
    await s.core.events.waitFor({ siteId: SITE, event: 'add' }, 1, 10_000);
    // the storefront's login "clears" the client's storage: a new Beacon in the same browser (same
    // User-Agent, same origin) makes a new userId and sessionId, and only then sets the shopperId
    const after = shopper(s, 'http://localhost:5173/login');
    after.beacon.setShopperId('shopper-777');
    await s.core.events.waitFor({ siteId: SITE, event: 'login' }, 1, 10_000);
    await after.open('http://localhost:5173/thank-you?order=12345');
    after.beacon.events.order.transaction({
      data: { orderId: '12345', transactionTotal: 149, total: 149, results: lines },
    });
    await s.core.events.waitFor({ siteId: SITE, event: 'transaction' }, 1, 10_000);
    const [order] = await getJson<OrderDto[]>(s, '/_sandbox/orders?orderId=12345');
    expect(order!.userId).toBe(after.beacon.getUserId());
    const found = order!.findings.find((f) => f.rule === 'order-user-reset');
    expect(found?.severity).toBe('warning');
    expect(found?.message).toContain(
      `came under userId "${after.beacon.getUserId()}", which this browser (same User-Agent, http://localhost:5173)`,
    );
    expect(found?.message).toContain(`after userId "${shop.beacon.getUserId()}"`);
    expect(found?.fix).toMatch(/^at login keep the tracker and its storage: call setShopperId/);
    expect(order!.lines[0]!.credit).toBeNull();
    expect(order!.lines[0]!.noCreditReason).toContain(
      `the credit was lost to a userId change: userId "${shop.beacon.getUserId()}" of the same browser made the clickthrough of "2001"`,
    );
  });

  it('an order sent before its cart events: the cart/add of what it bought, right after it on the thank-you page, is named on the order', async () => {
    const s = await sandbox();
    const { beacon, open } = shopper(s, 'http://localhost:5173/products/rain-shell');
    beacon.events.product.pageView({ data: { result: { uid: 'P200', parentId: 'P200' } } });
    await s.core.events.waitFor({ siteId: SITE, event: 'pageview' }, 1, 10_000);
    await open('http://localhost:5173/thank-you?order=12345');
    const lines = [{ uid: '2001', parentId: 'P200', sku: 'P200-RED-M', qty: 1, price: 149 }];
    beacon.events.order.transaction({
      data: { orderId: '12345', transactionTotal: 149, total: 149, results: lines },
    });
    await s.core.events.waitFor({ siteId: SITE, event: 'transaction' }, 1, 10_000);
    beacon.events.cart.add({ data: { results: lines, cart: lines } });
    await s.core.events.waitFor({ siteId: SITE, event: 'add' }, 1, 10_000);
    const [order] = await getJson<OrderDto[]>(s, '/_sandbox/orders?orderId=12345');
    const found = order!.findings.find((f) => f.rule === 'cart-after-order');
    expect(found?.severity).toBe('warning');
    expect(found?.message).toMatch(
      /^cart\/add ev_\w+ added uid "2001" on the order’s page [\d.]+ s after order "12345"/,
    );
    expect(found?.fix).toMatch(/^send cart\/add when the item goes into the cart/);
  });

  it('a product page and an order line given only a sku, as the tracker maps them, raise no item-ids-unmapped', async () => {
    const s = await sandbox();
    const { beacon, open } = shopper(s, 'http://localhost:5173/product/mug');
    // the tracker's mapping of {sku} alone: parentId = parentId || uid || '' first, then uid = … || sku
    const item = { uid: 'MUG-1', parentId: '', sku: 'MUG-1' };
    beacon.events.product.pageView({ data: { result: item } });
    open('http://localhost:5173/checkout/thanks');
    beacon.events.order.transaction({
      data: {
        orderId: 'sku-1',
        transactionTotal: 14,
        total: 14,
        results: [{ ...item, qty: 1, price: 14 }],
      },
    });
    await s.core.events.waitFor({ siteId: SITE, event: 'transaction' }, 1, 10_000);
    const list = await getJson<{ pages: PageTimelineDto[] }>(
      s,
      `/_sandbox/timelines?siteId=${SITE}`,
    );
    expect(list.pages.map((p) => p.pageKind).sort()).toEqual(['order', 'product']);
    expect(list.pages.flatMap((p) => p.findings.map((f) => f.rule))).not.toContain(
      'item-ids-unmapped',
    );
  });

  it('a cart/add sent with cart: [] after a quick add is one cart-inconsistent finding, in words', async () => {
    const s = await sandbox();
    let at = Date.now() - 60_000;
    const post = async (path: string, pageLoadId: string, data: Record<string, unknown>) => {
      at += 1_500;
      const res = await fetch(`${s.url}/beacon/v2/${SITE}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({
          context: {
            timestamp: new Date(at).toISOString(),
            pageUrl: `http://localhost:5173/${pageLoadId}`,
            userId: 'u-cart',
            sessionId: 's-cart',
            pageLoadId,
            initiator: 'visits-test',
            dev: true,
          },
          data,
        }),
      });
      expect(res.status).toBe(200);
    };
    const item = (uid: string) => ({ uid, parentId: uid, sku: uid, qty: 1, price: 20 });
    await post('search/render', 'list', { responseId: 'r-cart' });
    await post('search/impression', 'list', {
      responseId: 'r-cart',
      results: [{ type: 'product', uid: 'P104', parentId: 'P104' }],
      banners: [],
    });
    await post('search/addtocart', 'list', { responseId: 'r-cart', results: [item('P104')] });
    await post('cart/add', 'cart', { results: [item('P103')], cart: [] });
    const list = await getJson<{ pages: PageTimelineDto[] }>(
      s,
      `/_sandbox/timelines?siteId=${SITE}&pageLoadId=cart`,
    );
    const found = list.pages[0]!.findings.filter((f) => f.rule === 'cart-inconsistent');
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toMatch(
      /^cart\/add ev_\S+ sends an empty cart \(cart: \[\]\) though it adds "P103": the cart after an add holds at least what it adds, and here "P104", which a quick add put/,
    );
  });

  it('a page whose every event was refused is in its session’s visit, refused and failing, as the timelines group it', async () => {
    const s = await sandbox();
    const context = (pageLoadId: string, path: string, ms: number) => ({
      timestamp: new Date(Date.now() - 60_000 + ms).toISOString(),
      pageUrl: `https://shop.example${path}`,
      userId: 'refused-user',
      sessionId: 'refused-session',
      pageLoadId,
      initiator: 'search-sandbox/test',
    });
    const send = (path: string, body: unknown) =>
      fetch(`${s.url}/beacon/v2/${SITE}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify(body),
      });
    expect(
      (
        await send('search/render', {
          context: context('first', '/search?q=a', 0),
          data: { responseId: 'r1' },
        })
      ).status,
    ).toBe(200);
    // the page between: its only event lacks the responseId the service requires
    expect(
      (await send('search/render', { context: context('refused', '/search?q=b', 5_000), data: {} }))
        .status,
    ).toBe(400);
    expect(
      (
        await send('search/render', {
          context: context('last', '/search?q=c', 10_000),
          data: { responseId: 'r3' },
        })
      ).status,
    ).toBe(200);
    const [v] = await getJson<VisitDto[]>(
      s,
      `/_sandbox/visits?siteId=${SITE}&sessionId=refused-session`,
    );
    expect(v!.pages.map((p) => [p.pageLoadId, p.verdict, p.refused])).toEqual([
      ['first', 'pass', undefined],
      ['refused', 'fail', true],
      ['last', 'pass', undefined],
    ]);
    expect(v!.verdict).toBe('fail');
    // the session's pages as the timelines list them: the same three, the same worst verdict
    const session = await getJson<{ pages: Array<{ pageLoadId: string; verdict: string }> }>(
      s,
      `/_sandbox/timelines?siteId=${SITE}&sessionId=refused-session&view=summary`,
    );
    expect(session.pages.map((p) => p.pageLoadId).sort()).toEqual(['first', 'last', 'refused']);
  });

  it('refuses unknown or repeated parameters with a 400 naming them', async () => {
    const s = await sandbox();
    const res = await fetch(`${s.url}/_sandbox/visits?site=demo42`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      parameter: 'site',
      message: expect.stringContaining('allowed: siteId, sessionId, userId'),
    });
    const twice = await fetch(`${s.url}/_sandbox/orders?orderId=a&orderId=b`);
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as { message: string }).message).toMatch(
      /orderId was given more than once/,
    );
  });

  it('survives a restart (rebuilt from the journal) and goes on reset', async () => {
    const { dir, cleanup } = tempDir();
    stops.push(cleanup);
    const first = await startSandbox({ dataDir: dir });
    await visit(first, 'order-5');
    await Promise.all(inFlight.splice(0));
    await first.close();
    const second = await sandbox({ dataDir: dir });
    const orders = await getJson<OrderDto[]>(second, '/_sandbox/orders');
    expect(orders.map((o) => o.orderId)).toEqual(['order-5']);
    expect(orders[0]!.lines[0]!.credit?.responseId).toBe('resp-1');
    const reset = await fetch(`${second.url}/_sandbox/reset`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(reset.status).toBeLessThan(300);
    expect(await getJson<VisitDto[]>(second, '/_sandbox/visits')).toEqual([]);
    expect(await getJson<OrderDto[]>(second, '/_sandbox/orders')).toEqual([]);
  });
});
