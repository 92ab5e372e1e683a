// Lists in ascending order of a number: where a value falls, and an item put in its place after those of
// its key (so items of one key keep the order they came in).
import { describe, expect, it } from 'vitest';
import { countBelow, countUpTo, insertInOrder } from '../../src/main/sorted';

const key = (x: { k: number }) => x.k;

describe('sorted lists', () => {
  const list = [1, 3, 3, 3, 7].map((k, i) => ({ k, i }));

  it('counts the keys up to a value and below it, ties included or not', () => {
    expect([0, 1, 3, 5, 7, 9].map((v) => countUpTo(list, v, key))).toEqual([0, 1, 4, 4, 5, 5]);
    expect([0, 1, 3, 5, 7, 9].map((v) => countBelow(list, v, key))).toEqual([0, 0, 1, 4, 4, 5]);
    expect(countUpTo([], 3, key)).toBe(0);
    expect(countBelow([], 3, key)).toBe(0);
  });

  it('puts an item after those of its key, wherever it falls', () => {
    const items = list.map((x) => ({ ...x }));
    insertInOrder(items, { k: 3, i: 9 }, key);
    insertInOrder(items, { k: 0, i: 10 }, key);
    insertInOrder(items, { k: 8, i: 11 }, key);
    expect(items.map((x) => x.i)).toEqual([10, 0, 1, 2, 3, 9, 4, 11]);
  });
});
