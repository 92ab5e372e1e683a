// The pieces of a baseline comparison: alignment names what is only on one side once (in the bounded table
// and past it, greedily), and field changes name each differing value once, a reordered list as one change.
import { describe, expect, it } from 'vitest';
import { align } from '../../src/main/baseline/align';
import { fieldChanges } from '../../src/main/baseline/fields';
import { parseIgnorePath } from '../../src/main/baseline/normalize';
import { pagePath } from '../../src/shared/page-location';

const only = (steps: ReturnType<typeof align>) => ({
  base: steps.filter(([, c]) => c < 0).map(([b]) => b),
  current: steps.filter(([b]) => b < 0).map(([, c]) => c),
  pairs: steps.filter(([b, c]) => b >= 0 && c >= 0).length,
});

describe('align', () => {
  it('names an item only in one sequence once and pairs the rest', () => {
    expect(only(align(['a', 'b', 'c', 'd'], ['a', 'c', 'd', 'e']))).toEqual({
      base: [1],
      current: [3],
      pairs: 3,
    });
    expect(only(align([], ['x']))).toEqual({ base: [], current: [0], pairs: 0 });
  });

  it('past the table bound (over 4 million cells) still names each difference once, in order', () => {
    const base = Array.from({ length: 2500 }, (_, i) => `e${i}`);
    const current = base.filter((_, i) => i !== 5 && i !== 2490);
    current.splice(1200, 0, 'new');
    const steps = align(base, current);
    expect(only(steps)).toEqual({ base: [5, 2490], current: [1200], pairs: 2498 });
    const order = steps.filter(([b]) => b >= 0).map(([b]) => b);
    expect(order).toEqual([...order].sort((x, y) => x - y));
  });
});

describe('fieldChanges', () => {
  const text = (v: unknown) => JSON.stringify(v);
  const tile = (uid: string, price = 1) => ({ uid, price });

  it('a list in another order is one change on its path, with both orders', () => {
    const base = { data: { results: [tile('1'), tile('2')] } };
    const current = { data: { results: [tile('2'), tile('1')] } };
    expect(fieldChanges(text(base), text(current))).toEqual([
      { path: 'data.results', base: base.data.results, current: current.data.results },
    ]);
  });

  it('a value changed in an item is named at its index; an item more or less at its own', () => {
    const base = { data: { results: [tile('1'), tile('2'), tile('3')] } };
    expect(
      fieldChanges(text(base), text({ data: { results: [tile('1'), tile('2', 5), tile('3')] } })),
    ).toEqual([{ path: 'data.results[1].price', base: 1, current: 5 }]);
    expect(fieldChanges(text(base), text({ data: { results: [tile('1'), tile('3')] } }))).toEqual([
      { path: 'data.results[1]', base: tile('2') },
    ]);
    expect(
      fieldChanges(text(base), text({ data: { results: [...base.data.results, tile('4')] } })),
    ).toEqual([{ path: 'data.results[3]', current: tile('4') }]);
  });

  it('a key only on one side is named with the side it is on', () => {
    expect(fieldChanges(text({ data: { a: 1 } }), text({ data: { b: 2 } }))).toEqual([
      { path: 'data.a', base: 1 },
      { path: 'data.b', current: 2 },
    ]);
  });
});

describe('paths', () => {
  it('--ignore paths: dotted names and [] or [n] for indexes; anything else says how to write one', () => {
    expect(parseIgnorePath('data.results[].price')).toEqual(['data', 'results', '[]', 'price']);
    expect(parseIgnorePath('data.results[2]')).toEqual(['data', 'results', '[2]']);
    expect(parseIgnorePath('data..x')).toMatch(/is not a field path: use dotted names with \[\]/);
  });

  it('a page URL without scheme, host and port', () => {
    expect(pagePath('https://shop.example:8443/search?q=a#top')).toBe('/search?q=a#top');
    expect(pagePath('http://localhost:3000')).toBe('/');
    expect(pagePath('/already/a/path')).toBe('/already/a/path');
  });
});
