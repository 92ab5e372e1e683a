// The companion search API over real HTTP, as a storefront's own account (shop12) meets it: a widget's
// profile before any feed is indexed, and results whose prices and skus read one way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import { recommend } from './recommend-helpers';
import { SHOP, getJson, indexOutdoor, startShop } from './companion-site';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are shaped by the assertions
type Any = any;

let sb: Sandbox;
beforeAll(async () => {
  sb = await startShop();
});
afterAll(async () => {
  await sb?.close();
});

const search = (query: string) => getJson(sb, `/api/search/search.json?siteId=${SHOP}&${query}`);

describe('before any feed is indexed', () => {
  it('answers a declared widget’s profile (it comes from the config), and a missing catalog only where products are needed', async () => {
    for (const p of ['/api/personalized-recommendations/profile.json', '/v1/profile']) {
      const similar = await getJson(sb, `${p}?siteId=${SHOP}&tag=similar`);
      expect(similar.status, p).toBe(200);
      expect(similar.body.profile).toMatchObject({ tag: 'similar', placement: 'product-page' });
      const unknown = await getJson(sb, `${p}?siteId=${SHOP}&tag=nosuch`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ error: 'ProfileNotFound' });
      expect(unknown.body.message).toContain('its tags: similar, cart-recs');
    }
    const products = await search('q=jacket');
    expect(products.status).toBe(404);
    expect(products.body.error).toBe('NoCatalog');
  });
});

describe('with the outdoor catalog indexed', () => {
  beforeAll(async () => {
    await indexOutdoor(sb);
  });

  it('writes every price and msrp as a plain number, the variants’ as the result’s', async () => {
    const { body } = await search('q=rain%20shell');
    const [p200] = body.results;
    expect(p200).toMatchObject({ uid: 'P200', price: '139', msrp: '179' });
    expect(p200.children.map((c: Any) => [c.uid, c.price, c.msrp])).toEqual([
      ['2001', '149', '179'],
      ['2002', '149', '179'],
      ['2003', '139', '179'],
    ]);
    const fleece = (await search('q=fleece')).body.results[0];
    expect(fleece.children.map((c: Any) => [c.price, c.msrp])).toEqual([
      ['89', '99'],
      ['89', '99'],
    ]);
  });

  it('gives a parent without a row of its own the sku of the variant it shows, in searches, widgets and what is remembered', async () => {
    const fleece = (await search('q=fleece&beacon=true')).body;
    expect(fleece.results[0]).toMatchObject({
      uid: 'P202',
      sku: 'P202-GRN-M',
      name: 'Fleece Jacket, Green, M',
    });
    const issued = await getJson(sb, `/_sandbox/search/responses/${fleece.responseId}`);
    expect(issued.body.results[0]).toMatchObject({ uid: 'P202', sku: 'P202-GRN-M' });

    const widgets = await recommend(sb, {
      siteId: SHOP,
      profiles: [{ tag: 'similar', limit: 8 }],
      products: ['P200'],
    });
    expect(widgets.status).toBe(200);
    const served = widgets.body[0];
    expect(served.results[0].mappings.core).toMatchObject({
      uid: 'P202',
      sku: 'P202-GRN-M',
      price: 89,
      msrp: 99,
    });
    const remembered = await getJson(sb, `/_sandbox/search/responses/${served.responseId}`);
    for (const r of remembered.body.results) expect(r.sku, r.uid).toEqual(expect.any(String));
  });
});
