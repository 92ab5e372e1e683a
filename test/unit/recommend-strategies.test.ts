// The recommendation strategies over a large catalog: the first ask indexes the catalog and works out every
// item's features in slices (the event loop turns meanwhile), and later asks answer from what was built.
import { describe, expect, it } from 'vitest';
import { FeedCatalog, type Product } from '../../src/main/indexing/catalog';
import { groupedInSlices } from '../../src/main/search/items';
import { Slicer } from '../../src/main/slices';
import { recommend, type StrategyInput } from '../../src/main/search/strategies';
import { countTurns } from '../helpers/drafts';

function catalog(n: number): FeedCatalog {
  const products: Product[] = [];
  for (let i = 0; i < n; i++) {
    const group = Math.floor(i / 4);
    products.push({
      uid: `u${i}`,
      sku: `s${i}`,
      parentId: `p${group}`,
      name: `Product ${i}`,
      price: 10 + (i % 90),
      fields: { brand: `b${group % 50}`, color: `c${i % 12}`, category: `cat${group % 40}` },
      line: i + 2,
    });
  }
  return new FeedCatalog('big', 1, new Date(0).toISOString(), products);
}

describe('recommendation strategies over a large catalog', () => {
  it('similar gives the event loop back while it builds, and keeps to the rule: same category, never the product', async () => {
    const { items } = await groupedInSlices(catalog(40_000), new Slicer());
    const input: StrategyInput = {
      siteId: 'big',
      items,
      traffic: { bodies: () => [] },
      products: ['u5'],
      cart: [],
      lastViewed: [],
      shopper: '',
      blocked: [],
      limit: 8,
    };
    const turns = countTurns();
    const out = await recommend('similar', input);
    expect(turns.stop()).toBeGreaterThan(1);
    expect(out).toHaveLength(8);
    // u5 is in group p1 (category cat1): every answer shares it, none is p1 or one of its variants
    for (const item of out) {
      expect(item.uid).not.toBe('p1');
      expect(item.base.fields.category).toBe('cat1');
    }
    // asked by the group's sku-less parent id, or another variant's sku: the same exclusion
    const again = await recommend('similar', { ...input, products: ['s6'] });
    expect(again.map((i) => i.uid)).toEqual(out.map((i) => i.uid));
  });
});
