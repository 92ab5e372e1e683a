// The provider's own clients against the companion recommend API, in Node: Snap's `Client.recommend`
// (@searchspring/snap-client, the recommend and meta origins pointed at the sandbox) batches two widgets into
// one POST and gets each its products and responseId; the provider's tracker (@athoscommerce/beacon) then
// tracks the widgets as Snap's RecommendationController does (render {responseId, tag}, impressions, a
// click) and the page is clean; a tile the widget never served is named by `item-not-in-response`; an order
// line bought from the widget is credited to its tag.
import { Beacon } from '@athoscommerce/beacon';
import { Client } from '@searchspring/snap-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type { TimelineReportDto } from '../../src/shared/timeline';
import type { OrderDto } from '../../src/shared/visits';
import { SITE, startRecommendSandbox } from './recommend-helpers';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the client's types come from a package it does not ship
type Any = any;

let sb: Sandbox;
beforeAll(async () => {
  sb = await startRecommendSandbox();
});
afterAll(async () => {
  await Promise.all(inFlight.splice(0));
  await sb?.close();
});

/** Requests the clients sent, by method and path; settled before the sandbox closes. */
const sent: string[] = [];
const inFlight: Promise<unknown>[] = [];
const trackedFetch: typeof fetch = (input, init) => {
  sent.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
  const p = fetch(input, init);
  inFlight.push(p.catch(() => undefined));
  return p;
};

function snap(): Any {
  return new Client({ siteId: SITE }, {
    mode: 'development',
    meta: { origin: sb.url },
    recommend: { origin: sb.url },
    fetchApi: trackedFetch,
  } as Any);
}

function shopper() {
  const beacon = new Beacon(
    { siteId: SITE },
    {
      mode: 'development',
      href: 'http://localhost:5173/products/P200',
      requesters: {
        beacon: { origin: `${sb.url}/beacon/v2` },
        personalization: { origin: sb.url },
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

/** A tile as Snap's RecommendationController reports it (track.product.impression / clickThrough). */
function tile(result: Any) {
  const core = result.mappings.core;
  return {
    type: 'product' as const,
    uid: String(result.id),
    parentId: core.parentId ? String(core.parentId) : '',
    ...(core.sku && { sku: String(core.sku) }),
  };
}

async function waitFor(query: Record<string, string>, count: number) {
  const done = await sb.core.events.waitFor({ siteId: SITE, ...query }, count, 10_000);
  expect(done.done, JSON.stringify(query)).toBe(true);
}

async function report(): Promise<TimelineReportDto> {
  return (await (
    await fetch(`${sb.url}/_sandbox/report?format=json&siteId=${SITE}`)
  ).json()) as TimelineReportDto;
}

const problems = (r: TimelineReportDto, pageUrl: string) =>
  r.pages
    .filter((p) => p.pageUrl === pageUrl)
    .flatMap((p) => p.findings.filter((f) => f.severity !== 'info'));

/** The client impresses a tile once it has been visible for a second. */
const visible = () => new Promise((resolve) => setTimeout(resolve, 1_050));

describe("Snap's Client.recommend against the sandbox, tracked by the provider's tracker", () => {
  it('renders two widgets from one batched request, tracks them cleanly, credits an order line to the widget', async () => {
    const client = snap();
    const [similar, bundle] = await Promise.all([
      client.recommend({ tag: 'similar', products: ['P200'], batched: true, limit: 4 }),
      client.recommend({ tag: 'bundle-pdp', products: ['P200'], batched: true }),
    ]);
    // RecommendAPI batches both widgets into one POST, and splits its answer by position
    expect(sent.filter((s) => s === 'POST /v1/recommend')).toHaveLength(1);
    expect(sent.filter((s) => s.endsWith('/profile.json'))).toHaveLength(2);
    expect(similar.profile).toMatchObject({ tag: 'similar', placement: 'product-page' });
    expect(bundle.profile).toMatchObject({ tag: 'bundle-pdp', isBundle: true });
    expect(similar.results.map((r: Any) => r.id)).toEqual(['P202', 'P201', '3003', '3004']);
    expect(bundle.results.map((r: Any) => r.id)).toEqual(['P202', 'P201']);
    expect(similar.responseId).toMatch(/^[0-9a-f-]{36}$/);
    expect(bundle.responseId).not.toBe(similar.responseId);
    expect(Object.keys(similar.meta.facets ?? {})).toContain('brand');

    const { beacon, open } = shopper();
    const pdp = 'http://localhost:5173/products/P200';
    open(pdp);
    beacon.events.product.pageView({
      data: { result: { uid: 'P200', parentId: 'P200', sku: 'P200' } },
    });
    const rec = beacon.events.recommendations;
    rec.render({ data: { responseId: similar.responseId, tag: 'similar' } });
    beacon.events.bundles.render({ data: { responseId: bundle.responseId, tag: 'bundle-pdp' } });
    // the widgets' tiles are impressed once they have been visible for a second
    await visible();
    for (const r of similar.results)
      rec.impression({
        data: { tag: 'similar', responseId: similar.responseId, results: [tile(r)], banners: [] },
      });
    for (const r of bundle.results)
      beacon.events.bundles.impression({
        data: { tag: 'bundle-pdp', responseId: bundle.responseId, results: [tile(r)], banners: [] },
      });
    await waitFor({ category: 'recommendations', event: 'impression' }, 1);
    await waitFor({ category: 'bundles', event: 'impression' }, 1);
    const clicked = similar.results[1]; // P201
    rec.clickThrough({
      data: { tag: 'similar', responseId: similar.responseId, results: [tile(clicked)] },
    });
    await waitFor({ category: 'recommendations', event: 'clickthrough' }, 1);

    const thanks = 'http://localhost:5173/checkout/thanks';
    open(thanks);
    const line = { uid: '2011', parentId: 'P201', sku: 'P201-BLU-S', qty: 1, price: 229 };
    beacon.events.order.transaction({
      data: { orderId: 'rec-order-1', transactionTotal: 229, total: 229, results: [line] },
    });
    await waitFor({ category: 'order', event: 'transaction' }, 1);

    const r = await report();
    expect(r.pages.find((p) => p.pageUrl === pdp)?.verdict).toBe('pass');
    expect(problems(r, pdp)).toEqual([]);
    const orders = (await (
      await fetch(`${sb.url}/_sandbox/orders?siteId=${SITE}`)
    ).json()) as OrderDto[];
    expect(orders.find((o) => o.orderId === 'rec-order-1')!.lines[0]!.credit).toMatchObject({
      kind: 'recommendations',
      tag: 'similar',
      responseId: similar.responseId,
      event: 'clickthrough',
    });
  });

  it('a tile the widget never served is named by item-not-in-response; a made-up responseId by responseid-unknown', async () => {
    const [similar] = await Promise.all([
      snap().recommend({ tag: 'similar', products: ['P204'], batched: true, limit: 3 }),
    ]);
    const served: string[] = similar.results.map((r: Any) => r.id);
    expect(served).not.toContain('3007');
    const { beacon, open } = shopper();
    const pdp = 'http://localhost:5173/products/P204?planted=1';
    open(pdp);
    const rec = beacon.events.recommendations;
    rec.render({ data: { responseId: similar.responseId, tag: 'similar' } });
    await visible();
    const planted = { type: 'product' as const, uid: '3007', parentId: '3007', sku: 'P306' };
    rec.impression({
      data: {
        tag: 'similar',
        responseId: similar.responseId,
        results: [tile(similar.results[0]), planted],
        banners: [],
      },
    });
    const madeUp = '00000000-0000-4000-8000-000000000000';
    rec.render({ data: { responseId: madeUp, tag: 'similar' } });
    await waitFor({ category: 'recommendations', event: 'impression' }, 2);
    // the first test's widget rendered once: two more here
    await waitFor({ category: 'recommendations', event: 'render' }, 3);

    const found = problems(await report(), pdp);
    const notServed = found.find((f) => f.rule === 'item-not-in-response');
    expect(notServed, JSON.stringify(found)).toMatchObject({
      severity: 'error',
      kind: 'recommendations',
      tag: 'similar',
    });
    expect(notServed!.message).toContain('uid "3007"');
    expect(notServed!.message).toContain('recommendations widget "similar"');
    const unknown = found.find((f) => f.rule === 'responseid-unknown');
    expect(unknown?.message).toContain(
      `responseId "${madeUp}" was not issued by this sandbox's recommend API for widget "similar"`,
    );
  });
});
