// How deep a JSON text nests, without parsing it: the answer of a full scan, also when the quick count of
// brackets (most texts have far fewer than the limit) lets it stop early.
import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from '../../src/shared/json-depth';

const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);

describe('nestsDeeperThan', () => {
  it('counts levels of arrays and objects, up to the limit and past it', () => {
    expect(nestsDeeperThan(nested(256), 256)).toBe(false);
    expect(nestsDeeperThan(nested(257), 256)).toBe(true);
    expect(nestsDeeperThan(`{"a":${'{"b":'.repeat(300)}1${'}'.repeat(300)}}`, 256)).toBe(true);
    expect(nestsDeeperThan(`[${'{"a":['.repeat(150)}${']}'.repeat(150)}]`, 256)).toBe(true);
  });

  it('is not fooled by brackets in strings, nor by many brackets side by side', () => {
    expect(nestsDeeperThan(JSON.stringify({ text: nested(400) }), 256)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ text: `\\"${nested(400)}` }), 256)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify(Array.from({ length: 400 }, () => [{}])), 256)).toBe(
      false,
    );
    expect(nestsDeeperThan(JSON.stringify({ a: 'x'.repeat(1000), b: [[{ c: [] }]] }), 256)).toBe(
      false,
    );
  });
});
