// The companion recommend API over real HTTP: profile.json and the batched POST /v1/recommend in the shape the
// provider's Snap client reads, the four strategies over the indexed catalog and the recorded traffic, each
// widget's responseId remembered with its kind and tag, and errors that name the field and the fix.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import { postBeacon } from '../helpers/sandbox';
import { SITE, recommend, startRecommendSandbox, uids, type Any } from './recommend-helpers';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startRecommendSandbox();
});
afterAll(async () => {
  await sb?.close();
});
beforeEach(async () => {
  // the traffic strategies read what was recorded: each test starts from none (the catalog stays)
  await fetch(`${sb.url}/_sandbox/reset?siteId=${SITE}`, { method: 'POST' });
});

async function profile(query: string): Promise<{ status: number; body: Any }> {
  const res = await fetch(`${sb.url}/api/personalized-recommendations/profile.json?${query}`);
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  return { status: res.status, body: await res.json() };
}

let seq = 0;
function context(extra: Record<string, string> = {}) {
  return {
    timestamp: new Date(Date.now() + seq++).toISOString(),
    pageUrl: 'http://localhost:5173/products/x',
    userId: 'user-1',
    sessionId: 'session-1',
    pageLoadId: `page-${seq}`,
    initiator: 'search-sandbox/api-test',
    ...extra,
  };
}

async function beacon(endpoint: string, data: Record<string, unknown>, ctx = context()) {
  const res = await postBeacon(sb.url, `${SITE}/${endpoint}`, { context: ctx, data });
  expect(res.status, `${endpoint} ${await res.clone().text()}`).toBe(200);
}

const line = (uid: string, parentId = uid) => ({ parentId, uid, sku: uid, qty: 1, price: 10 });
const item = (uid: string, parentId = uid) => ({ type: 'product', uid, parentId, sku: uid });

describe('GET /api/personalized-recommendations/profile.json', () => {
  it('answers a declared profile as the Snap client reads it; a bundle says isBundle', async () => {
    const similar = await profile(`siteId=${SITE}&tag=similar`);
    expect(similar.status).toBe(200);
    expect(similar.body).toEqual({
      profile: {
        tag: 'similar',
        placement: 'product-page',
        display: {
          threshold: 1,
          template: { name: 'similar', uuid: 'sandbox-similar', component: 'Recommendation' },
          templateParameters: {},
        },
      },
    });
    // later Snap clients ask /v1/profile: the same answer
    const v1 = await fetch(`${sb.url}/v1/profile?siteId=${SITE}&tag=similar`);
    expect(v1.headers.get('access-control-allow-origin')).toBe('*');
    expect(await v1.json()).toEqual(similar.body);
    const bundle = await profile(`siteId=${SITE}&tag=bundle-pdp`);
    expect(bundle.body.profile).toMatchObject({ tag: 'bundle-pdp', isBundle: true });
    expect(bundle.body.profile.display.template.type).toBe('bundle');
  });

  it('an unknown tag is a 404 naming the declared tags and the config key; bad requests name the parameter', async () => {
    const unknown = await profile(`siteId=${SITE}&tag=nope`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('ProfileNotFound');
    expect(unknown.body.message).toContain('"nope"');
    expect(unknown.body.message).toContain(
      'similar, also-bought, trending, recently-viewed, bundle-pdp',
    );
    expect(unknown.body.message).toContain('accounts[].search.recommendations');
    expect((await profile('tag=similar')).status).toBe(400);
    expect((await profile(`siteId=${SITE}`)).body.message).toContain('tag is missing');
    const site = await profile('siteId=nosuch&tag=similar');
    expect([site.status, site.body.error]).toEqual([404, 'UnknownSite']);
    const post = await fetch(`${sb.url}/api/personalized-recommendations/profile.json`, {
      method: 'POST',
    });
    expect(post.status).toBe(405);
  });
});

describe('POST /v1/recommend', () => {
  it('answers every widget of a batch in the order asked, each with its own responseId, remembered with kind and tag', async () => {
    const { status, body } = await recommend(sb, {
      siteId: SITE,
      profiles: [{ tag: 'similar', limit: 2 }, { tag: 'bundle-pdp' }, { tag: 'nope' }],
      products: ['P200'],
      beacon: true,
      test: true,
    });
    expect(status).toBe(200);
    expect(body).toHaveLength(3);
    expect(body.map((e: Any) => e.profile.tag)).toEqual(['similar', 'bundle-pdp', 'nope']);
    expect(uids(body[0])).toEqual(['P202', 'P201']);
    expect(body[0].results[0]).toMatchObject({
      id: 'P202',
      mappings: {
        core: { uid: 'P202', parentId: 'P202', name: 'Fleece Jacket, Green, M', price: 89 },
      },
      attributes: { category: 'Jackets', color: 'Green' },
    });
    expect(body[0].results[0].children.map((c: Any) => c.attributes.uid)).toEqual(['2021', '2022']);
    expect(uids(body[1])).toEqual(['P202', 'P201']);
    // a tag the site does not declare: an empty entry and no responseId; the others are served
    expect(body[2]).toEqual({ profile: { tag: 'nope' }, results: [] });
    expect(body[0].responseId).not.toBe(body[1].responseId);

    const issued = await (
      await fetch(`${sb.url}/_sandbox/search/responses/${body[0].responseId}`)
    ).json();
    expect(issued).toMatchObject({
      responseId: body[0].responseId,
      siteId: SITE,
      kind: 'recommendations',
      tag: 'similar',
      test: true,
      results: [
        { uid: 'P202', parentId: 'P202' },
        { uid: 'P201', parentId: 'P201', sku: 'P201' },
      ],
    });
    const bundle = (await (
      await fetch(`${sb.url}/_sandbox/search/responses/${body[1].responseId}`)
    ).json()) as Any;
    expect([bundle.kind, bundle.tag]).toEqual(['bundles', 'bundle-pdp']);
  });

  it('similar: same category first, then more shared attributes, then any; never a requested product nor its variants', async () => {
    // asked by a variant uid, by the parent's id and by a variant's sku: the same product, never recommended
    for (const products of [['2001'], ['P200'], ['P200-BLK-M']]) {
      const { body } = await recommend(sb, {
        siteId: SITE,
        profiles: [{ tag: 'similar' }],
        products,
      });
      expect(uids(body[0]), products[0]).toEqual([
        'P202', // a jacket sharing brand and sizes
        'P201', // a jacket sharing a size
        '3003', // Northfold, red
        '3004', // Northfold, black
        '3001', // red
        '3002', // black
        '3005', // black
        '3006', // black
      ]);
    }
    const blocked = await recommend(sb, {
      siteId: SITE,
      profiles: [{ tag: 'similar', limit: 3, blockedItems: ['2021'] }],
      products: ['P200'],
      blockedItems: ['3003'],
    });
    expect(uids(blocked.body[0])).toEqual(['P201', '3004', '3001']);
  });

  it("narrows a widget by the client's filters, a profile's categories and brands", async () => {
    const ask = async (body: Record<string, unknown>) =>
      uids((await recommend(sb, { siteId: SITE, products: ['P200'], ...body })).body[0]);
    // the Snap client's transformed filters: value filters as "=", a range as ">=" and "<="
    expect(
      await ask({
        profiles: [{ tag: 'similar' }],
        filters: [{ field: 'color', type: '=', values: ['black', 'Red'] }],
      }),
    ).toEqual(['3003', '3004', '3001', '3002', '3005', '3006']);
    expect(
      await ask({
        profiles: [
          {
            tag: 'similar',
            filters: [
              { field: 'price', type: '>=', values: [100] },
              { field: 'price', type: '<=', values: [200] },
            ],
          },
        ],
      }),
    ).toEqual(['3001', 'P203', 'P204']);
    expect(await ask({ profiles: [{ tag: 'similar', categories: ['bags'] }] })).toEqual([
      '3001',
      '3002',
      '3007',
    ]);
    expect(await ask({ profiles: [{ tag: 'similar', brands: ['STRIDEWELL'], limit: 2 }] })).toEqual(
      ['3005', 'P203'],
    );
  });

  it('also-bought: bought together with the product in recorded orders, most often first', async () => {
    expect(
      uids(
        (
          await recommend(sb, {
            siteId: SITE,
            profiles: [{ tag: 'also-bought' }],
            products: ['P204'],
          })
        ).body[0],
      ),
    ).toEqual([]);
    await beacon('order/transaction', {
      orderId: 'o1',
      transactionTotal: 30,
      total: 30,
      results: [line('2041', 'P204'), line('3005'), line('3004')],
    });
    await beacon('order/transaction', {
      orderId: 'o2',
      transactionTotal: 20,
      total: 20,
      results: [line('P204'), line('3005')],
    });
    await beacon('order/transaction', {
      orderId: 'o3',
      transactionTotal: 20,
      total: 20,
      results: [line('3007'), line('3003')],
    });
    const { body } = await recommend(sb, {
      siteId: SITE,
      profiles: [{ tag: 'also-bought' }],
      products: ['P204-BRN-44'],
    });
    expect(uids(body[0])).toEqual(['3005', '3004']);
  });

  it('trending: the most clicked products of any kind of result, most recent among equals', async () => {
    await beacon('search/clickthrough', { responseId: 'r1', results: [item('3002')] });
    await beacon('category/clickthrough', { responseId: 'r2', results: [item('2011', 'P201')] });
    await beacon('recommendations/clickthrough', {
      tag: 'similar',
      responseId: 'r3',
      results: [item('3002')],
    });
    await beacon('search/clickthrough', { responseId: 'r4', results: [item('3006')] });
    const { body } = await recommend(sb, { siteId: SITE, profiles: [{ tag: 'trending' }] });
    expect(uids(body[0])).toEqual(['3002', '3006', 'P201']);
  });

  it("recently-viewed: the client's lastViewed first, then the shopper's recorded product pages, newest first", async () => {
    const view = (uid: string, parentId: string, shopperId: string) =>
      beacon('product/pageview', { result: { uid, parentId, sku: uid } }, context({ shopperId }));
    await view('3001', '3001', 'shopper-9');
    await view('2033', 'P203', 'shopper-9');
    await view('3007', '3007', 'someone-else');
    const { body } = await recommend(sb, {
      siteId: SITE,
      profiles: [{ tag: 'recently-viewed' }],
      lastViewed: ['P302'],
      shopper: 'shopper-9',
    });
    expect(uids(body[0])).toEqual(['3003', 'P203', '3001']);
  });

  it('names the field, its value and the fix for a bad request; GET is a 405', async () => {
    const cases: Array<[unknown, number, string]> = [
      ['{not json', 400, 'the body is not JSON'],
      [[1], 400, 'must be a JSON object'],
      [{ profiles: [{ tag: 'similar' }] }, 400, 'siteId=undefined'],
      [{ siteId: SITE, profiles: [] }, 400, 'profiles=[]'],
      [{ siteId: SITE, profiles: [{}] }, 400, 'profiles[0].tag=undefined'],
      [
        { siteId: SITE, profiles: [{ tag: 'similar', limit: 0 }] },
        400,
        'profiles[0].limit=0: expected a whole number from 1 to 100',
      ],
      [
        { siteId: SITE, profiles: [{ tag: 'similar' }], products: 'P200' },
        400,
        'products="P200": expected a list',
      ],
      [{ siteId: SITE, profiles: [{ tag: 'similar' }], cart: [null] }, 400, 'cart[0]=null'],
      [
        { siteId: SITE, profiles: [{ tag: 'similar' }], test: 'yes' },
        400,
        'test="yes": expected true or false',
      ],
      [
        {
          siteId: SITE,
          profiles: [{ tag: 'similar' }],
          filters: [{ field: 'color', type: 'like', values: ['Red'] }],
        },
        400,
        'filters[0].type="like": expected one of =',
      ],
      [
        {
          siteId: SITE,
          profiles: [{ tag: 'similar', filters: [{ field: 'color', type: '=', values: [] }] }],
        },
        400,
        'profiles[0].filters[0].values=[]',
      ],
      [
        { siteId: SITE, profiles: [{ tag: 'similar', brands: 'Northfold' }] },
        400,
        'profiles[0].brands="Northfold": expected a list of names',
      ],
      [
        { siteId: 'nosuch', profiles: [{ tag: 'similar' }] },
        404,
        'siteId nosuch is not an account',
      ],
    ];
    for (const [body, status, message] of cases) {
      const res = await recommend(sb, body);
      expect([res.status, res.body.success], JSON.stringify(body)).toEqual([status, false]);
      expect(res.body.message).toContain(message);
    }
    const huge = await recommend(
      sb,
      `{"siteId":"${SITE}","profiles":[{"tag":"similar"}],"products":["${'x'.repeat(1_100_000)}"]}`,
    );
    expect([huge.status, huge.body.error]).toEqual([413, 'InvalidBody']);
    expect(huge.body.message).toContain('a body may have at most 1048576 bytes');
    // answered on a connection that stays open while the rest is dropped: not hung up on mid-body
    const kept = await fetch(`${sb.url}/v1/recommend`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: 'x'.repeat(2_000_000),
    });
    expect(kept.status).toBe(413);
    expect(kept.headers.get('connection')).not.toBe('close');
    await kept.arrayBuffer();
    const get = await fetch(`${sb.url}/v1/recommend?siteId=${SITE}&tags=similar`);
    expect(get.status).toBe(405);
    expect(((await get.json()) as { message: string }).message).toContain('POST the widgets');
  });
});
