// The companion search API's domain: matching, filters, facets, sorting, paging, merchandising, responseIds
// and what each issued response is remembered to contain — over an in-memory catalog, no HTTP.
import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../src/main/clock';
import { CatalogStore, FeedCatalog, ProductMapper } from '../../src/main/indexing/catalog';
import { parseSearchConfig } from '../../src/main/search/config';
import { IssuedResponses } from '../../src/main/search/responses';
import { SearchService } from '../../src/main/search/service';
import { catalogIndexState } from '../../src/main/search/catalog-index';
import { InvalidParameter, NoCatalog, UnknownSite } from '../../src/main/search/errors';

const ROWS: Array<Record<string, string>> = [
  {
    id: 'P200',
    sku: 'P200',
    parent_id: 'P200',
    name: 'Rain Shell Jacket',
    brand: 'Northfold',
    price: '149.00',
    msrp: '179.00',
    color: '',
    category: 'Jackets',
    description: 'Waterproof shell',
  },
  {
    id: '2001',
    sku: 'P200-RED-M',
    parent_id: 'P200',
    name: 'Rain Shell Jacket, Red, M',
    brand: 'Northfold',
    price: '149.00',
    color: 'Red',
    category: 'Jackets',
    description: 'Waterproof shell',
  },
  {
    id: '2003',
    sku: 'P200-BLK-M',
    parent_id: 'P200',
    name: 'Rain Shell Jacket, Black, M',
    brand: 'Northfold',
    price: '139.00',
    color: 'Black',
    category: 'Jackets',
    description: 'Waterproof shell',
  },
  {
    id: '2011',
    sku: 'P201-BLU-S',
    parent_id: 'P201',
    name: 'Down Puffer Jacket, Blue, S',
    brand: 'Alpenglow',
    price: '229.00',
    color: 'Blue',
    category: 'Jackets',
    description: 'Warm down',
  },
  {
    id: '2031',
    sku: 'P203-GRY-42',
    parent_id: 'P203',
    name: 'Trail Runner, Grey, 42',
    brand: 'Stridewell',
    price: '119.00',
    color: 'Grey',
    category: 'Shoes',
    description: 'Grippy shoe',
  },
  {
    id: '3001',
    sku: 'P300-30L',
    parent_id: '',
    name: 'Summit Backpack 30L',
    brand: 'Alpenglow',
    price: '119.95',
    color: 'Red',
    category: 'Bags',
    description: 'Day pack with a rain cover',
  },
  {
    id: '3003',
    sku: 'P302',
    parent_id: '',
    name: 'Camp Mug',
    brand: 'Northfold',
    price: '14.00',
    color: 'Red',
    category: 'Accessories',
    description: 'Enamel mug',
  },
];

const CONFIG = parseSearchConfig(
  {
    companion: true,
    resultsPerPage: 3,
    campaigns: [
      {
        id: 'rain',
        queries: ['Jacket'],
        banners: [
          { id: '901', slot: 'header', html: '<h2>Rain</h2>' },
          { id: '902', slot: 'left' },
          { id: '903', slot: 'inline', position: 1 },
          { id: '904', slot: 'inline', position: 4 },
        ],
      },
      { id: 'gift', queries: ['gift card'], redirect: '/pages/gift-cards' },
    ],
  },
  'search',
  'test',
);

async function service(ids = ['resp-1', 'resp-2', 'resp-3', 'resp-4']) {
  const clock = new SandboxClock({ start: Date.parse('2026-11-21T05:00:00Z'), frozen: true });
  const catalogs = new CatalogStore(null);
  const mapper = new ProductMapper();
  await catalogs.replace(
    new FeedCatalog(
      'shop01',
      1,
      '2026-11-21T05:00:00.000Z',
      ROWS.map((r, i) => mapper.map(r.id!, r, i + 2)),
    ),
  );
  const { responses } = await IssuedResponses.open(null, clock.now());
  const queue = [...ids];
  const search = new SearchService({
    accounts: [{ siteId: 'shop01', search: CONFIG }, { siteId: 'empty1' }],
    catalogs,
    responses,
    clock,
    newResponseId: () => queue.shift()!,
  });
  const get = async (query: string) => ({ body: await search.search(new URLSearchParams(query)) });
  return { search, responses, get };
}

describe("a catalog's index", () => {
  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
  };
  it('is built once a companion site’s feed is indexed, before any search; not for a site that only has its ids checked', async () => {
    const { search } = await service();
    const catalogs = (search as unknown as { deps: { catalogs: CatalogStore } }).deps.catalogs;
    const mapper = new ProductMapper();
    const feed = (siteId: string) =>
      new FeedCatalog(
        siteId,
        2,
        '2026-11-21T06:00:00.000Z',
        ROWS.map((r, i) => mapper.map(r.id!, r, i + 2)),
      );
    // the site that searches through the sandbox: its new catalog's index is under way at once
    const indexed = feed('shop01');
    await catalogs.replace(indexed);
    expect(catalogIndexState(indexed)).not.toBe('none');
    await turns(20);
    expect(catalogIndexState(indexed)).toBe('built');
    // empty1 does not search through the sandbox (companion off): nothing is built until it searches
    const checkedOnly = feed('empty1');
    await catalogs.replace(checkedOnly);
    await turns(20);
    expect(catalogIndexState(checkedOnly)).toBe('none');
    await search.search(new URLSearchParams('siteId=empty1&q=rain'));
    expect(catalogIndexState(checkedOnly)).toBe('built');
  });
});

describe('search.json', () => {
  it('groups variants under their parent, matches word starts over name/sku/brand/description, ranks name hits first', async () => {
    const { get } = await service();
    const { body } = await get('siteId=shop01&q=rain&resultsPerPage=10');
    const results = body.results as Array<Record<string, unknown>>;
    // "Rain Shell Jacket" (name) before the backpack (description: "rain cover")
    expect(results.map((r) => r.uid)).toEqual(['P200', '3001']);
    expect(results[0]).toMatchObject({
      uid: 'P200',
      sku: 'P200',
      name: 'Rain Shell Jacket',
      price: '139',
      msrp: '179',
      brand: 'Northfold',
    });
    expect(
      (results[0]!.children as Array<Record<string, string>>).map((c) => [c.uid, c.sku, c.color]),
    ).toEqual([
      ['2001', 'P200-RED-M', 'Red'],
      ['2003', 'P200-BLK-M', 'Black'],
    ]);
    expect(body.responseId).toBeUndefined();
    expect((await get('siteId=shop01&q=P302')).body.results).toMatchObject([{ uid: '3003' }]);
    expect((await get('siteId=shop01&q=nothing-like-this')).body.results).toEqual([]);
  });

  it('filters (or within a field, and across fields; price ranges), counts facets without their own filter, sorts', async () => {
    const { get } = await service();
    const { body } = await get(
      'siteId=shop01&resultsPerPage=10&filter.color=Red&filter.color=Blue&filter.category=Jackets&sort.price=desc',
    );
    expect((body.results as Array<{ uid: string }>).map((r) => r.uid)).toEqual(['P201', 'P200']);
    const facets = body.facets as Array<{
      field: string;
      values?: Array<{ value: string; count: number; active: boolean }>;
    }>;
    const color = facets.find((f) => f.field === 'color')!;
    expect(color.values!.find((v) => v.value === 'Black')).toEqual({
      active: false,
      type: 'value',
      value: 'Black',
      label: 'Black',
      count: 1,
    });
    expect(color.values!.find((v) => v.value === 'Red')!.active).toBe(true);
    expect(body.filterSummary).toContainEqual({
      field: 'color',
      value: 'Red',
      label: 'Color: Red',
      filterLabel: 'Color',
      filterValue: 'Red',
    });
    const ranged = await get(
      'siteId=shop01&resultsPerPage=10&filter.price.low=100&filter.price.high=130&sort.price=asc',
    );
    expect((ranged.body.results as Array<{ uid: string }>).map((r) => r.uid)).toEqual([
      'P203',
      '3001',
    ]);
    expect(
      (
        ranged.body.sorting as {
          options: Array<{ field: string; direction: string; active: number }>;
        }
      ).options.find((o) => o.active === 1),
    ).toMatchObject({ field: 'price', direction: 'asc' });
  });

  it('pages with the pagination block the Snap client reads', async () => {
    const { get } = await service();
    const { body } = await get('siteId=shop01&page=2');
    expect(body.pagination).toEqual({
      totalResults: 5,
      begin: 4,
      end: 5,
      currentPage: 2,
      totalPages: 2,
      previousPage: 1,
      nextPage: 0,
      perPage: 3,
      defaultPerPage: 3,
    });
    expect((await get('siteId=shop01&page=9')).body.results).toEqual([]);
  });

  it('serves merchandising: slot banners as HTML with data-banner-id, inline banners on their page, campaigns', async () => {
    const { get } = await service();
    const { body } = await get('siteId=shop01&q=JACKET');
    const m = body.merchandising as {
      content: Record<string, unknown>;
      triggeredCampaigns: unknown[];
      redirect: string;
    };
    expect(m.redirect).toBe('');
    expect(m.content.header).toEqual([
      '<div class="ss-merchandising-banner" data-banner-id="901" data-banner-slot="header"><h2>Rain</h2></div>',
    ]);
    expect(String((m.content.left as string[])[0])).toContain('data-banner-id="902"');
    expect(m.content.inline).toEqual([
      {
        value: expect.stringContaining('data-banner-id="903"'),
        config: { position: { index: 1 } },
      },
      {
        value: expect.stringContaining('data-banner-id="904"'),
        config: { position: { index: 4 } },
      },
    ]);
    expect(m.triggeredCampaigns).toEqual([{ id: 'rain', title: 'rain', type: 'banner' }]);
    // like the real service, every page carries all inline banners: positions count over the whole result list
    const page2 = await get('siteId=shop01&q=jacket&page=2&resultsPerPage=1');
    expect(
      (page2.body.merchandising as { content: { inline: unknown[] } }).content.inline,
    ).toHaveLength(2);
  });

  it('answers a redirect keyword with the redirect only, unless redirectResponse=full', async () => {
    const { get } = await service();
    const minimal = await get('siteId=shop01&q=gift%20card');
    expect(minimal.body.merchandising).toMatchObject({
      redirect: '/pages/gift-cards',
      triggeredCampaigns: [{ id: 'gift', type: 'redirect' }],
    });
    expect(minimal.body.results).toEqual([]);
    const full = await get('siteId=shop01&q=gift%20card&redirectResponse=full');
    expect((full.body.merchandising as { redirect: string }).redirect).toBe('/pages/gift-cards');
  });

  it('issues a responseId only with beacon=true and remembers what the response held', async () => {
    const { get, responses } = await service();
    const { body } = await get('siteId=shop01&q=jacket&beacon=true&test=true');
    expect(body.responseId).toBe('resp-1');
    expect(responses.get('resp-1')).toMatchObject({
      siteId: 'shop01',
      query: 'jacket',
      page: 1,
      perPage: 3,
      test: true,
      redirect: null,
      inline: [
        { uid: '903', index: 1 },
        { uid: '904', index: 4 },
      ],
      slots: { header: ['901'], banner: [], footer: [], left: ['902'] },
      results: [
        {
          uid: 'P200',
          sku: 'P200',
          parentId: 'P200',
          children: [
            { uid: '2001', sku: 'P200-RED-M' },
            { uid: '2003', sku: 'P200-BLK-M' },
          ],
        },
        {
          uid: 'P201',
          // no row of its own: the sku of the variant it shows
          sku: 'P201-BLU-S',
          parentId: 'P201',
          children: [{ uid: '2011', sku: 'P201-BLU-S' }],
        },
      ],
    });
    await get('siteId=shop01&q=gift card&beacon=true');
    expect(responses.get('resp-2')).toMatchObject({
      redirect: '/pages/gift-cards',
      results: [],
      test: false,
    });
  });

  it('remembers the search each response answers: the same parameters in any order, and not the tracking context, are one search', async () => {
    const { get, responses } = await service();
    await get('siteId=shop01&q=jacket&beacon=true&filter.color=Red&pageLoadId=p1&userId=u1');
    await get(
      'siteId=shop01&beacon=true&pageLoadId=p2&filter.color=Red&q=jacket&userId=u2&test=true',
    );
    await get('siteId=shop01&q=jacket&beacon=true&filter.color=Red&sort.price=asc');
    await get('siteId=shop01&q=jacket&beacon=true&filter.color=Red&page=2');
    const asked = ['resp-1', 'resp-2', 'resp-3', 'resp-4'].map((id) => responses.get(id)?.asked);
    expect(asked).toEqual([
      'filter.color=Red&page=1&q=jacket',
      'filter.color=Red&page=1&q=jacket',
      'filter.color=Red&page=1&q=jacket&sort.price=asc',
      'filter.color=Red&page=2&q=jacket',
    ]);
  });

  it('refuses bad requests with the refusal naming the parameter', async () => {
    const { get, search } = await service();
    const refused = (query: string) => get(query).then(() => expect.unreachable(query), String);
    expect(await refused('q=x')).toBe('InvalidParameter: siteId is required, e.g. ?siteId=shop01');
    await expect(get('q=x')).rejects.toBeInstanceOf(InvalidParameter);
    expect(await refused('siteId=shop01&resultsPerPage=1000')).toBe(
      'InvalidParameter: resultsPerPage="1000": use a whole number from 0 to 250',
    );
    expect(await refused('siteId=shop01&sort.price=up')).toBe(
      'InvalidParameter: sort.price="up": use asc or desc',
    );
    expect(await refused('siteId=shop01&filter.price.low=cheap')).toContain(
      'use a number, or * for no bound',
    );
    await expect(get('siteId=nosuch')).rejects.toBeInstanceOf(UnknownSite);
    await expect(get('siteId=empty1')).rejects.toBeInstanceOf(NoCatalog);
    await expect(search.meta(new URLSearchParams('siteId=empty1'))).rejects.toThrow(NoCatalog);
  });
});

describe('meta.json', () => {
  it('describes the facets, sort options and page size', async () => {
    const { search } = await service();
    const body = await search.meta(new URLSearchParams('siteId=shop01'));
    expect(Object.keys(body.facets as object)).toEqual(['brand', 'category', 'color', 'price']);
    expect((body.facets as Record<string, unknown>).price).toEqual({
      display: 'slider',
      label: 'Price',
      collapsed: false,
    });
    expect(body.pagination).toEqual({ defaultPageSize: 3 });
    expect((body.sortOptions as unknown[]).length).toBe(4);
  });
});

describe('matching', () => {
  it('needs every word, at the start of a word; a plural finds the singular', async () => {
    const { get } = await service();
    const uids = async (q: string) =>
      (
        (await get(`siteId=shop01&resultsPerPage=50&q=${encodeURIComponent(q)}`)).body
          .results as Array<{ uid: string }>
      ).map((r) => r.uid);
    expect(await uids('jack')).toEqual(['P200', 'P201']);
    expect(await uids('jackets')).toEqual(['P200', 'P201']);
    expect(await uids('acket')).toEqual([]);
    expect(await uids('down jacket')).toEqual(['P201']);
    expect(await uids('alpenglow')).toEqual(['P201', '3001']);
    expect(await uids('p200-red-m')).toEqual(['P200']);
  });
});
