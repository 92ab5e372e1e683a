// Conformance: the provider's own tracking client (@athoscommerce/beacon) runs in Node against the
// sandbox, and everything it puts on the wire is accepted and recorded exactly as it was sent.
import { Beacon } from '@athoscommerce/beacon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../helpers/sandbox';
import type { Sandbox } from '../../src/main/sandbox';
import type { RecordedEvent } from '../../src/shared/events';

interface WireRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  status?: number;
  response?: unknown;
}

const STOREFRONT_PAGE = 'http://localhost:5173/search?q=shirt';
const SITE_ID = 'demo42';

let sandbox: Sandbox;
const wire: WireRequest[] = [];
const inFlight: Promise<unknown>[] = [];

/** The fetch handed to the client (`apis.fetch`): real fetch, with each request and answer written down. */
const recordingFetch: typeof fetch = (input, init = {}) => {
  const entry: WireRequest = {
    url: String(input),
    method: init.method ?? 'GET',
    headers: Object.fromEntries(new Headers(init.headers).entries()),
    body: typeof init.body === 'string' ? init.body : '',
  };
  wire.push(entry);
  const done = fetch(input, init).then(async (res) => {
    entry.status = res.status;
    entry.response = await res.clone().json();
    return res;
  });
  inFlight.push(done);
  return done;
};

function newBeacon(mode: 'production' | 'development' = 'production'): Beacon {
  return new Beacon(
    { siteId: SITE_ID },
    {
      mode,
      href: STOREFRONT_PAGE,
      userAgent: 'conformance-test/1.0',
      requesters: {
        beacon: { origin: `${sandbox.url}/beacon/v2` },
        personalization: { origin: sandbox.url },
      },
      apis: { fetch: recordingFetch },
    },
  );
}

const preflights = () => wire.filter((w) => w.url === `${sandbox.url}/v1/preflight`);
const beaconWire = (endpoint: string) =>
  wire.filter((w) => w.url.endsWith(`/beacon/v2/${SITE_ID}/${endpoint}`));

async function recorded(count: number, event?: string): Promise<RecordedEvent[]> {
  const result = await sandbox.core.events.waitFor(
    { siteId: SITE_ID, ...(event && { event }) },
    count,
    10_000,
  );
  expect(
    result.done,
    `waited for ${count} ${event ?? ''} events, saw ${result.events.length}`,
  ).toBe(true);
  await Promise.all(inFlight);
  return result.events;
}

const product = (n: number) => ({
  type: 'product' as const,
  uid: `uid-${n}`,
  parentId: `parent-${n}`,
  sku: `sku-${n}`,
});

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await Promise.allSettled(inFlight);
  await sandbox.close();
});

describe('@athoscommerce/beacon against the sandbox', () => {
  it('render, batched impressions, clickthrough, addtocart and redirect are all accepted and recorded as sent', async () => {
    const beacon = newBeacon();
    beacon.setCurrency({ code: 'USD' });
    const responseId = 'conformance-response-1';

    beacon.events.search.render({ data: { responseId } });
    beacon.events.search.impression({
      data: { responseId, results: [product(1), product(2)], banners: [] },
    });
    beacon.events.search.impression({
      data: { responseId, results: [product(3), { type: 'banner', uid: 'inline-1' }], banners: [] },
    });
    beacon.events.search.impression({
      data: { responseId, results: [], banners: [{ uid: 'banner-1' }] },
    });
    await recorded(1, 'impression');

    // Three impression calls went out as one request whose lists are the calls' lists, in order.
    const impressions = beaconWire('search/impression');
    expect(impressions).toHaveLength(1);
    const merged = JSON.parse(impressions[0]!.body);
    expect(merged.data.results).toEqual([
      product(1),
      product(2),
      product(3),
      { type: 'banner', uid: 'inline-1' },
    ]);
    expect(merged.data.banners).toEqual([{ uid: 'banner-1' }]);

    beacon.events.search.clickThrough({ data: { responseId, results: [product(2)] } });
    beacon.events.search.addToCart({
      data: {
        responseId,
        results: [{ uid: 'uid-2', parentId: 'parent-2', sku: 'sku-2', qty: 1, price: 19.99 }],
      },
    });
    beacon.events.search.redirect({ data: { responseId, redirect: 'http://localhost:5173/sale' } });
    const events = await recorded(5);

    const sent = wire.filter((w) => w.url.includes('/beacon/v2/'));
    expect(sent.map((w) => w.url.split(`/beacon/v2/${SITE_ID}/`)[1]).sort()).toEqual([
      'search/addtocart',
      'search/clickthrough',
      'search/impression',
      'search/redirect',
      'search/render',
    ]);
    for (const request of sent) {
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('text/plain');
      expect({ url: request.url, status: request.status, response: request.response }).toEqual({
        url: request.url,
        status: 200,
        response: { success: true },
      });
    }
    expect(events.map((e) => e.event).sort()).toEqual([
      'addtocart',
      'clickthrough',
      'impression',
      'redirect',
      'render',
    ]);
    for (const event of events) {
      const request = sent.find((w) => w.url.endsWith(event.path))!;
      expect(event).toMatchObject({
        accepted: true,
        status: 200,
        errors: [],
        category: 'search',
        siteId: SITE_ID,
        contentType: 'text/plain',
      });
      expect(event.body).toEqual(JSON.parse(request.body));
    }

    // The context the client builds: currency, its initiator, one page load and session for all events.
    const contexts = events.map((e) => (e.body as { context: Record<string, unknown> }).context);
    expect(new Set(contexts.map((c) => c.pageLoadId)).size).toBe(1);
    expect(new Set(contexts.map((c) => c.sessionId)).size).toBe(1);
    expect(contexts[0]).toMatchObject({
      pageUrl: STOREFRONT_PAGE,
      userAgent: 'conformance-test/1.0',
      currency: { code: 'USD' },
      initiator: expect.stringMatching(/beaconjs\//),
    });
  });

  it('the personalization preflight that add-to-cart triggers is answered 200', async () => {
    await expect
      .poll(() => wire.filter((w) => w.url === `${sandbox.url}/v1/preflight`).length, {
        timeout: 5_000,
      })
      .toBeGreaterThan(0);
    await Promise.all(inFlight);
    const preflight = wire.find((w) => w.url === `${sandbox.url}/v1/preflight`)!;
    // Without browser storage the client keeps no cart between calls, so the model carries ids only.
    expect(JSON.parse(preflight.body)).toMatchObject({
      siteId: SITE_ID,
      userId: expect.any(String),
    });
    expect(preflight.status).toBe(200);
  });

  it('other channels the client sends (development mode, dev flag set) are accepted too', async () => {
    const before = sandbox.core.events.size();
    const preflightsBefore = preflights().length;
    const beacon = newBeacon('development');
    beacon.events.product.pageView({
      data: { result: { uid: 'uid-9', parentId: 'parent-9', sku: 'sku-9' } },
    });
    beacon.events.autocomplete.render({ data: { responseId: 'ac-1' } });
    beacon.events.recommendations.impression({
      data: { tag: 'similar', responseId: 'rec-1', results: [product(7)], banners: [] },
    });
    const line = { uid: 'uid-9', parentId: 'parent-9', qty: 1, price: 5 };
    beacon.events.cart.add({ data: { results: [line], cart: [line] } });
    beacon.events.order.transaction({
      data: {
        orderId: 'o-1',
        transactionTotal: 5,
        total: 6,
        results: [{ uid: 'uid-9', parentId: 'parent-9', qty: 1, price: 5 }],
      },
    });
    beacon.events.error.snap({ data: { message: 'conformance', details: { any: ['thing'] } } });
    beacon.setShopperId('shopper-1'); // sends shopper/login (its context requires shopperId)
    const all = await recorded(before + 7);
    const fresh = all.slice(before);
    expect(fresh.map((e) => `${e.category}/${e.event}`).sort()).toEqual([
      'autocomplete/render',
      'cart/add',
      'log/snap',
      'order/transaction',
      'product/pageview',
      'recommendations/impression',
      'shopper/login',
    ]);
    const login = fresh.find((e) => e.event === 'login')!;
    expect((login.body as { context: { shopperId: string } }).context.shopperId).toBe('shopper-1');
    for (const event of fresh) {
      expect({ path: event.path, status: event.status, errors: event.errors }).toEqual({
        path: event.path,
        status: 200,
        errors: [],
      });
      expect((event.body as { context: { dev?: boolean } }).context.dev).toBe(true);
    }
    // The client debounces one preflight after the cart and shopper changes; let it land while the
    // sandbox is up (the client does not catch its rejection).
    await expect
      .poll(() => preflights().length, { timeout: 5_000 })
      .toBeGreaterThan(preflightsBefore);
    await Promise.all(inFlight);
  });
});
