// Counts with their digits grouped: the same text as en-US's toLocaleString gives, whether or not it was asked.
import { describe, expect, it } from 'vitest';
import { grouped, plural } from '../../src/shared/text';

describe('grouped', () => {
  it('writes every number as en-US toLocaleString does, on both sides of 1,000 and at the odd values', () => {
    const values = [
      0,
      -0,
      1,
      7,
      42,
      999,
      1000,
      1001,
      12_345,
      200_000,
      1_000_000,
      999.5,
      0.5,
      1.25,
      -1,
      -999,
      -1000,
      Number.MAX_SAFE_INTEGER,
      1e21,
      NaN,
      Infinity,
      -Infinity,
    ];
    for (const n of values) expect(grouped(n), String(n)).toBe(n.toLocaleString('en-US'));
    for (let n = 990; n <= 1010; n++) expect(grouped(n)).toBe(n.toLocaleString('en-US'));
  });

  it('counts with their noun', () => {
    expect([plural(1, 'page'), plural(999, 'page'), plural(200_000, 'page')]).toEqual([
      '1 page',
      '999 pages',
      '200,000 pages',
    ]);
  });
});
