// The companion search API over real HTTP, as a storefront's own account (shop12) meets it: a widget's
// profile before any feed is indexed, requests refused with what was wrong (a repeated siteId, q or page, a
// sort on no field, a control character, a page past the counts), a query of no words that finds nothing, a
// filter on no field answered with notes, and results whose prices and skus read one way.
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

function refusal(message: string) {
  return { status: 400, body: { success: false, error: 'InvalidParameter', message } };
}

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

  it('refuses a siteId sent twice with different values, naming both', async () => {
    const message =
      'siteId is given 2 times with different values ("shop12", "demo42"): send one siteId';
    for (const p of [
      '/api/search/search.json?siteId=shop12&q=jacket&siteId=demo42',
      '/api/meta/meta.json?siteId=shop12&siteId=demo42',
      '/api/suggest/query?siteId=shop12&query=ja&siteId=demo42',
      '/api/personalized-recommendations/profile.json?siteId=shop12&tag=similar&siteId=demo42',
    ])
      expect(await getJson(sb, p), p).toEqual(refusal(message));
    // the same value twice leaves no doubt which site is meant
    expect((await search('siteId=shop12&q=jacket')).status).toBe(200);
  });

  it('refuses a sort on a field no product has, naming the fields it can sort on', async () => {
    expect(await search('sort.nosuch=asc')).toEqual(
      refusal(
        'sort.nosuch="asc": no product of the catalog has a field "nosuch"; sort on one it has (relevance, price, name, sku, brand, id, parent_id, msrp, category, description, url, image, color, size)',
      ),
    );
    const byColor = await search('q=jacket&sort.color=asc');
    expect(byColor.status).toBe(200);
    expect(byColor.body.results.map((r: Any) => r.uid)).toEqual(['P202', 'P200', 'P201']);
  });

  it('refuses a query holding a control character instead of browsing the whole catalog', async () => {
    expect(await search('q=%00')).toEqual(
      refusal(
        'q="\\u0000": a query holds no control characters (U+0000 at position 1): send the text the shopper typed',
      ),
    );
    expect((await getJson(sb, `/api/suggest/query?siteId=${SHOP}&query=ja%07`)).status).toBe(400);
    // a tab or a line break separates words, as a space does
    const tabbed = await search('q=rain%09shell');
    expect(tabbed.body.results.map((r: Any) => r.uid)).toEqual(['P200']);
  });

  it('finds nothing for a query of no words (punctuation, an emoji, an invisible character), and keeps it out of trending', async () => {
    const noWords = ['%21%21%21', '%3F', '-', '%22%22', '%F0%9F%98%80', '%E2%80%8B', '%E0%A4'];
    for (const q of noWords) {
      const { status, body } = await search(`q=${q}&beacon=true`);
      expect(status, q).toBe(200);
      expect(body.pagination.totalResults, q).toBe(0);
      expect(body.results, q).toEqual([]);
    }
    // no query, or one of spaces, is a browse (a category page's request): every product
    for (const q of ['', '%20%20']) {
      const browse = await search(`q=${q}&beacon=true`);
      expect(browse.body.pagination.totalResults, JSON.stringify(q)).toBe(12);
    }
    const { body } = await getJson(sb, `/api/suggest/trending?siteId=${SHOP}&limit=10`);
    const terms: string[] = body.trending.queries.map((t: Any) => t.searchQuery);
    expect(terms).toHaveLength(10);
    for (const t of terms) expect(t, JSON.stringify(t)).toMatch(/[\p{L}\p{N}]/u);
  });

  it('refuses a single-valued parameter sent twice with different values, naming both; filter values repeat', async () => {
    const cases: Array<[string, string]> = [
      [
        'q=jacket&q=boot',
        'q is given 2 times with different values ("jacket", "boot"): send one q',
      ],
      ['page=1&page=2', 'page is given 2 times with different values ("1", "2"): send one page'],
      [
        'resultsPerPage=2&resultsPerPage=24',
        'resultsPerPage is given 2 times with different values ("2", "24"): send one resultsPerPage',
      ],
      [
        'redirectResponse=full&redirectResponse=minimal',
        'redirectResponse is given 2 times with different values ("full", "minimal"): send one redirectResponse',
      ],
      [
        'beacon=true&beacon=false',
        'beacon is given 2 times with different values ("true", "false"): send one beacon',
      ],
      [
        'test=true&test=1',
        'test is given 2 times with different values ("true", "1"): send one test',
      ],
      [
        'userId=u1&userId=u2',
        'userId is given 2 times with different values ("u1", "u2"): send one userId',
      ],
    ];
    for (const [query, message] of cases)
      expect(await search(query), query).toEqual(refusal(message));
    expect(await getJson(sb, `/api/suggest/query?siteId=${SHOP}&query=ja&query=ra`)).toEqual(
      refusal('query is given 2 times with different values ("ja", "ra"): send one query'),
    );
    expect(await getJson(sb, `/api/suggest/trending?siteId=${SHOP}&limit=2&limit=3`)).toEqual(
      refusal('limit is given 2 times with different values ("2", "3"): send one limit'),
    );
    // the same value twice leaves no doubt; several values of one filter are any of them
    expect((await search('q=jacket&q=jacket&page=1&page=1')).body.pagination.totalResults).toBe(3);
    const colors = await search('filter.color=Red&filter.color=Black');
    expect(colors.status).toBe(200);
    expect(colors.body.filterSummary).toHaveLength(2);
  });

  it('answers a filter on a field no product has, or with no field or value, as a search would, and says why in notes', async () => {
    const plain = await search('q=jacket');
    expect(plain.body.notes).toBeUndefined();
    const colour = await search('q=jacket&filter.colour=Red');
    expect(colour.status).toBe(200);
    expect(colour.body.pagination.totalResults).toBe(0);
    expect(colour.body.notes).toEqual([
      'filter.colour: no product of the catalog has a field "colour" (did you mean color?), so no product passes this filter; the fields it has: price, name, sku, brand, id, parent_id, msrp, category, description, url, image, color, size',
    ]);
    const range = await search('bgfilter.prcie.low=10');
    expect(range.body.notes).toEqual([
      expect.stringMatching(
        /^bgfilter\.prcie: no product of the catalog has a field "prcie" \(did you mean price\?\)/,
      ),
    ]);
    const unnamed = await search('q=jacket&filter.=x');
    expect(unnamed.body.pagination.totalResults).toBe(3);
    expect(unnamed.body.notes).toEqual([
      'filter.="x" names no field, so it filters nothing: send filter.{field}=value',
    ]);
    const empty = await search('q=jacket&filter.brand=');
    expect(empty.body.pagination.totalResults).toBe(0);
    expect(empty.body.notes).toEqual([
      'filter.brand="": no product has an empty brand, so this value selects none; leave filter.brand out not to filter on brand',
    ]);
  });

  it('answers resultsPerPage=0 with the counts and facets only, on page 1 alone', async () => {
    const counts = await search('resultsPerPage=0');
    expect(counts.status).toBe(200);
    expect(counts.body.results).toEqual([]);
    expect(counts.body.pagination).toMatchObject({
      totalResults: 12,
      currentPage: 1,
      totalPages: 0,
      nextPage: 0,
      perPage: 0,
    });
    expect(counts.body.facets.map((f: Any) => f.field)).toContain('brand');
    expect(await search('resultsPerPage=0&page=2')).toEqual(
      refusal(
        'page="2": resultsPerPage=0 asks for the counts and facets only, which have no other page than 1: drop page, or ask resultsPerPage from 1 to 250',
      ),
    );
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

  it('names every endpoint it serves when asked for another', async () => {
    const other = await getJson(sb, `/api/suggest/nosuch?siteId=${SHOP}`);
    expect(other.status).toBe(404);
    expect(other.body.message).toBe(
      'no search endpoint GET /api/suggest/nosuch: the sandbox serves GET /api/search/search.json, /api/search/category.json, /api/search/autocomplete.json, /api/suggest/query, /api/suggest/trending, /api/meta/meta.json, /api/personalized-recommendations/profile.json and POST /v1/recommend',
    );
  });
});
