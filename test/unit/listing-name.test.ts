// How a search, category or autocomplete response is named in messages and the page view: a category
// listing by the category its request named, not by its (empty) query.
import { describe, expect, it } from 'vitest';
import { listingName } from '../../src/shared/kinds';

describe('listingName', () => {
  it('names a search or autocomplete response by its query', () => {
    expect(listingName({ query: 'boots' })).toBe('search "boots"');
    expect(listingName({ kind: 'autocomplete', query: 'jack' })).toBe('autocomplete "jack"');
  });

  it('names a category listing by the category its request named, with the rest of what it named', () => {
    const bg = (...f: string[]) => ({ kind: 'category', query: '', bgfilters: f });
    expect(listingName(bg('bgfilter.category=Jackets'))).toBe('category "Jackets"');
    expect(listingName(bg('bgfilter.categories_hierarchy=Men>Jackets'))).toBe(
      'category "Men>Jackets"',
    );
    expect(listingName(bg('bgfilter.category=Jackets', 'bgfilter.brand=Northfold'))).toBe(
      'category "Jackets" (bgfilter.brand=Northfold)',
    );
    expect(listingName(bg('bgfilter.brand=Northfold'))).toBe('category (bgfilter.brand=Northfold)');
    expect(listingName({ ...bg('bgfilter.category=Jackets'), query: 'rain' })).toBe(
      'category "Jackets" (query "rain")',
    );
  });

  it('never names an empty query: a category request that named nothing says so', () => {
    expect(listingName({ kind: 'category', query: '' })).toBe('category (no filter)');
    // older records kept no filters: a category searched by a query reads as before
    expect(listingName({ kind: 'category', query: 'gift card' })).toBe('category "gift card"');
  });
});
