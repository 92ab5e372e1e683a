// The indexed, sliced search answers exactly as the one-pass search did (test/helpers/search-reference.ts):
// for a varied generated catalog (variants, a second row with its parent's id, `|` lists, mixed case, missing
// values, a column mixing numbers and text, unicode) and many queries, filters, sorts and pages, the body is
// the same JSON, byte for byte, and a responseId remembers the same results.
import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../src/main/clock';
import { CatalogStore, FeedCatalog, ProductMapper } from '../../src/main/indexing/catalog';
import { parseSearchConfig, type SearchConfig } from '../../src/main/search/config';
import { IssuedResponses } from '../../src/main/search/responses';
import { SearchService } from '../../src/main/search/service';
import { seededRandom } from '../helpers/random';
import { group, referenceAnswer } from '../helpers/search-reference';

const NAMES = ['Rain Shell Jacket', 'Down Puffer', 'Trail Runner', 'Summit Backpack', 'Camp Mug'];
const EXTRA = [
  'Jackets',
  'Ärmel',
  'kids',
  'XL',
  '42',
  'pro-light',
  'Gift card',
  'ﬁeld',
  'İstanbul',
];
const BRANDS = ['Northfold', 'Alpenglow', 'Stridewell', 'northfold', 'Öko', ''];
const COLORS = ['Red', 'red', 'Blue|Red', 'Black', '', 'Grey | Blue', 'é', 'é'];
const WEIGHTS = ['12', '7.5', 'heavy', '', '  ', '3', 'Light', '100'];

function rows(n: number, seed: number): Array<Record<string, string>> {
  const draw = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[draw(xs.length)]!;
  const out: Array<Record<string, string>> = [];
  for (let i = 0; i < n; i++) {
    const parent = draw(4) === 0 ? '' : `P${draw(Math.ceil(n / 3))}`;
    // now and then a row whose id is its parent's, twice: the second is in no result
    const id = parent && draw(5) === 0 ? parent : `${1000 + i}`;
    out.push({
      id,
      sku: draw(6) === 0 ? '' : `SKU-${pick(['A', 'b', 'C'])}${i % 50}`,
      parent_id: parent,
      name: `${pick(NAMES)} ${pick(EXTRA)}${draw(3) === 0 ? ` ${pick(EXTRA)}` : ''}`,
      brand: pick(BRANDS),
      price: draw(8) === 0 ? '' : `${(5 + draw(300)).toFixed(2)}`,
      msrp: draw(3) === 0 ? `${10 + draw(400)}` : '',
      color: pick(COLORS),
      size: pick(['S', 'M', 'L', 'm', '']),
      category: pick(['Jackets', 'Shoes|Running', 'Bags', 'Accessories', 'jackets']),
      weight: pick(WEIGHTS),
      rank: `${draw(40)}`,
      description:
        draw(2) === 0
          ? ''
          : `${pick(['Waterproof shell', 'Warm down', 'Grippy shoe', 'Day pack with a rain cover'])} ${pick(EXTRA)}`,
    });
  }
  return out;
}

const QUERIES = [
  '',
  'jacket',
  'jackets',
  'Rain',
  'r',
  'a',
  's',
  'c d',
  'b',
  'ra sh',
  'rain rain',
  'down puffer',
  'northfold',
  'north jack',
  'shell',
  'sku',
  'sku-a1',
  'SKU-b7',
  '1003',
  'p1',
  'P1',
  'gift card',
  'mug',
  'äRMEL',
  'öko',
  'field',
  'ﬁ',
  'i̇stanbul',
  'xl 42',
  'pro',
  'prolight',
  'cover',
  'covers',
  'nothing-here',
  '  jacket  ',
  '*',
];
const EXTRAS = [
  '',
  '&filter.color=red',
  '&filter.color=Red&filter.color=blue',
  '&filter.category=shoes',
  '&filter.category=Jackets&filter.brand=NORTHFOLD',
  '&filter.price.low=50&filter.price.high=150',
  '&filter.price.low=*&filter.price.high=20',
  '&bgfilter.category=Bags',
  '&bgfilter.color=red&filter.color=blue',
  '&filter.weight.low=5&filter.weight.high=20',
  '&filter.size=m&filter.price.low=100',
  '&sort.price=asc',
  '&sort.price=desc',
  '&sort.name=asc',
  '&sort.name=desc',
  '&sort.rank=desc',
  '&sort.weight=asc',
  '&sort.color=desc',
  '&sort.relevance=desc',
  '&page=2',
  '&page=3&resultsPerPage=7',
  '&resultsPerPage=0',
  '&resultsPerPage=250',
  '&redirectResponse=full',
  '&page=400',
];

const CONFIGS: Record<string, SearchConfig> = {
  detected: parseSearchConfig(
    {
      resultsPerPage: 5,
      campaigns: [
        { id: 'gift', queries: ['gift card'], redirect: '/pages/gift-cards' },
        {
          id: 'rain',
          queries: ['rain'],
          banners: [{ id: '903', slot: 'inline', position: 1 }],
        },
      ],
    },
    'search',
    'test',
  ),
  named: parseSearchConfig(
    { facets: ['color', 'weight', 'price', 'nosuch', 'rank'] },
    'search',
    'test',
  ),
};

async function sandboxSearch(catalog: FeedCatalog, config: SearchConfig) {
  const clock = new SandboxClock({ start: Date.parse('2026-11-21T05:00:00Z'), frozen: true });
  const catalogs = new CatalogStore(null);
  await catalogs.replace(catalog);
  const { responses } = await IssuedResponses.open(null, clock.now());
  let n = 0;
  const search = new SearchService({
    accounts: [{ siteId: catalog.siteId, search: config }],
    catalogs,
    responses,
    clock,
    newResponseId: () => `r${++n}`,
  });
  return { search, responses };
}

async function compare(
  config: SearchConfig,
  n: number,
  seed: number,
  queries: readonly string[],
  extras: readonly string[],
): Promise<number> {
  const mapper = new ProductMapper();
  const catalog = new FeedCatalog(
    'shop01',
    1,
    '2026-11-21T05:00:00.000Z',
    rows(n, seed).map((r, i) => mapper.map(r.id!, r, i + 2)),
  );
  const all = group(catalog.products);
  const { search, responses } = await sandboxSearch(catalog, config);
  let compared = 0;
  for (const q of queries)
    for (const extra of extras) {
      const params = `siteId=shop01&q=${encodeURIComponent(q)}${extra}&beacon=true`;
      const want = referenceAnswer(new URLSearchParams(params), config, catalog, all);
      const got = await search.search(new URLSearchParams(params));
      const { responseId, ...body } = got;
      expect(JSON.stringify(body), params).toBe(JSON.stringify(want.body));
      expect(responses.get(responseId as string)!.results, params).toEqual(want.results);
      compared++;
    }
  return compared;
}

describe('the indexed search answers as the one-pass search did', () => {
  for (const [name, config] of Object.entries(CONFIGS))
    it(`every query, filter, sort and page (${name} facets)`, async () => {
      expect(await compare(config, 600, name.length, QUERIES, EXTRAS)).toBe(
        QUERIES.length * EXTRAS.length,
      );
    }, 120_000);

  it('over more results than one slice sorts (merged runs)', async () => {
    const queries = ['', 'r', 'jacket', 'sku', 's'];
    const extras = EXTRAS.filter((e) => e.includes('sort') || e.includes('page') || e === '');
    expect(await compare(CONFIGS.detected!, 7_000, 3, queries, extras)).toBe(
      queries.length * extras.length,
    );
  }, 120_000);
});
