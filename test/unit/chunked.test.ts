// ChunkedMap and ChunkedSet answer as a Map and a Set do (order included) while no part of them ever holds
// more than its chunk: checked against the built-ins over random operations, with parts of 3 so that keys
// cross parts, parts empty out and go, and iterations run while entries are added and deleted.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHUNK, ChunkedMap, ChunkedSet } from '../../src/main/chunked';
import { KeyFilter, keyHash } from '../../src/main/key-filter';

type Op =
  | { op: 'set'; key: number; value: number }
  | { op: 'delete'; key: number }
  | { op: 'get'; key: number }
  | { op: 'clear' }
  | { op: 'shift'; times: number }
  | { op: 'drain'; every: number; add: number; clearAt: number };

const key = fc.integer({ min: 0, max: 24 });
const ops = fc.array(
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record({ op: fc.constant('set' as const), key, value: fc.nat(99) }),
    },
    { weight: 4, arbitrary: fc.record({ op: fc.constant('delete' as const), key }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('get' as const), key }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('clear' as const) }) },
    {
      // take the oldest entry and delete it, as the timelines do at their event limit
      weight: 3,
      arbitrary: fc.record({
        op: fc.constant('shift' as const),
        times: fc.integer({ min: 1, max: 4 }),
      }),
    },
    {
      weight: 1,
      // iterate, deleting every `every`-th key seen, adding one new key after the first, clearing after
      // the `clearAt`-th (0: never)
      arbitrary: fc.record({
        op: fc.constant('drain' as const),
        every: fc.integer({ min: 1, max: 3 }),
        add: fc.integer({ min: 25, max: 40 }),
        clearAt: fc.integer({ min: 0, max: 6 }),
      }),
    },
  ),
  { maxLength: 120 },
);

/**
 * Iterate `entries`, deleting every `every`-th key met, adding `add` after the first and clearing after the
 * `clearAt`-th: what was met.
 */
function drain(
  entries: Iterable<[number, number]>,
  c: { del: (k: number) => void; set: (k: number) => void; clear: () => void },
  o: { every: number; add: number; clearAt: number },
): number[] {
  const met: number[] = [];
  for (const [k] of entries) {
    met.push(k);
    if (met.length % o.every === 0) c.del(k);
    if (met.length === 1) c.set(o.add);
    if (met.length === o.clearAt) c.clear();
  }
  return met;
}

describe('ChunkedMap', () => {
  it('answers as a Map over random operations, no part above its chunk', () => {
    fc.assert(
      fc.property(ops, (list: Op[]) => {
        const model = new Map<number, number>();
        const map = new ChunkedMap<number, number>(3);
        for (const o of list) {
          if (o.op === 'set') {
            // a key known to be absent may go in without a search (every other one of them does)
            if (!model.has(o.key) && o.value % 2 === 1)
              expect(map.setNew(o.key, o.value)).toBe(map);
            else expect(map.set(o.key, o.value)).toBe(map);
            model.set(o.key, o.value);
          } else if (o.op === 'delete') expect(map.delete(o.key)).toBe(model.delete(o.key));
          else if (o.op === 'get') {
            expect(map.get(o.key)).toBe(model.get(o.key));
            expect(map.getOld(o.key)).toBe(model.get(o.key));
            expect(map.has(o.key)).toBe(model.has(o.key));
          } else if (o.op === 'clear') {
            map.clear();
            model.clear();
          } else if (o.op === 'shift') {
            for (let i = 0; i < o.times; i++) {
              const oldest = map.oldest();
              expect(oldest).toEqual(model.entries().next().value);
              if (oldest) expect(map.delete(oldest[0])).toBe(model.delete(oldest[0]));
            }
          } else {
            const mine = drain(
              map,
              { del: (k) => map.delete(k), set: (k) => map.set(k, 0), clear: () => map.clear() },
              o,
            );
            const theirs = drain(
              model,
              {
                del: (k) => model.delete(k),
                set: (k) => model.set(k, 0),
                clear: () => model.clear(),
              },
              o,
            );
            expect(mine).toEqual(theirs);
          }
          expect(map.size).toBe(model.size);
          expect([...map]).toEqual([...model]);
          // the oldest entry, asked after every step (the walk it keeps survives sets, deletes, clears)
          expect(map.oldest()).toEqual(model.entries().next().value);
          const each: Array<[number, number]> = [];
          map.forEach((v, k) => each.push([k, v]));
          expect(each).toEqual([...model]);
          for (const n of [0, 1, 2, 4, 7, Infinity])
            expect(map.lastValues(n)).toEqual(n === 0 ? [] : [...model.values()].slice(-n));
          // only the newest part may be empty (it takes the next keys)
          const sizes = map.partSizes();
          expect(sizes.every((n, i) => n <= 3 && (n >= 1 || i === sizes.length - 1))).toBe(true);
        }
        expect([...map.keys()]).toEqual([...model.keys()]);
        expect([...map.values()]).toEqual([...model.values()]);
        expect([...map.entries()]).toEqual([...model.entries()]);
      }),
      { numRuns: 300 },
    );
  });

  it('answers as a Map with string keys, through the filters of its parts (keys in no part, in old parts)', () => {
    fc.assert(
      fc.property(ops, (list: Op[]) => {
        const model = new Map<string, number>();
        const map = new ChunkedMap<string, number>(3);
        for (const o of list) {
          if (o.op === 'clear' || o.op === 'drain' || o.op === 'shift') continue;
          const k = `page-${o.key}`;
          if (o.op === 'set') {
            map.set(k, o.value);
            model.set(k, o.value);
          } else if (o.op === 'delete') expect(map.delete(k)).toBe(model.delete(k));
          for (let n = 0; n <= 40; n++) {
            expect(map.get(`page-${n}`)).toBe(model.get(`page-${n}`));
            expect(map.has(`page-${n}`)).toBe(model.has(`page-${n}`));
          }
        }
        expect([...map]).toEqual([...model]);
      }),
      { numRuns: 200 },
    );
    // many parts, keys long and short: every present key found, no absent one
    const big = new ChunkedMap<string, number>(64);
    const long = (i: number) => `${'x'.repeat(i % 90)}-${i}-${'y'.repeat(i % 7)}`;
    for (let i = 0; i < 5_000; i++) big.set(long(i), i);
    for (let i = 0; i < 5_000; i++) expect(big.get(long(i))).toBe(i);
    for (let i = 5_000; i < 10_000; i++) expect(big.get(long(i))).toBeUndefined();
  });

  it('grows by parts of CHUNK: 100,000 keys are 7 parts, none above it; emptied old parts go', () => {
    const map = new ChunkedMap<string, number>();
    for (let i = 0; i < 100_000; i++) map.set(`p-${i}`, i);
    expect(map.partSizes()).toEqual([...Array(6).fill(CHUNK), 100_000 - 6 * CHUNK]);
    for (let i = 0; i < CHUNK + 10; i++) map.delete(`p-${i}`);
    expect(map.partSizes()).toEqual([CHUNK - 10, ...Array(4).fill(CHUNK), 100_000 - 6 * CHUNK]);
    expect(map.get('p-99999')).toBe(99_999);
    expect(map.get(`p-${CHUNK + 10}`)).toBe(CHUNK + 10);
    expect(map.get('p-0')).toBeUndefined();
  });
});

describe('ChunkedSet', () => {
  it('answers as a Set over random operations, no part above its chunk', () => {
    fc.assert(
      fc.property(ops, (list: Op[]) => {
        const model = new Set<number>();
        const set = new ChunkedSet<number>(3);
        for (const o of list) {
          if (o.op === 'set') {
            if (!model.has(o.key) && o.value % 2 === 1) expect(set.addNew(o.key)).toBe(set);
            else expect(set.add(o.key)).toBe(set);
            model.add(o.key);
          } else if (o.op === 'delete') expect(set.delete(o.key)).toBe(model.delete(o.key));
          else if (o.op === 'get') expect(set.has(o.key)).toBe(model.has(o.key));
          else if (o.op === 'clear') {
            set.clear();
            model.clear();
          } else if (o.op === 'shift') {
            for (let i = 0; i < o.times; i++) {
              const oldest = model.values().next();
              if (!oldest.done) expect(set.delete(oldest.value)).toBe(model.delete(oldest.value));
            }
          } else {
            const pairs = (s: Iterable<number>) =>
              (function* () {
                for (const k of s) yield [k, k] as [number, number];
              })();
            const mine = drain(
              pairs(set),
              { del: (k) => set.delete(k), set: (k) => set.add(k), clear: () => set.clear() },
              o,
            );
            const theirs = drain(
              pairs(model),
              {
                del: (k) => model.delete(k),
                set: (k) => model.add(k),
                clear: () => model.clear(),
              },
              o,
            );
            expect(mine).toEqual(theirs);
          }
          expect(set.size).toBe(model.size);
          expect([...set]).toEqual([...model]);
          const each: number[] = [];
          set.forEach((v) => each.push(v));
          expect(each).toEqual([...model]);
          expect(set.partSizes().every((n) => n <= 3)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('KeyFilter', () => {
  it('says "maybe" for every key put in, and "no" for nearly every other at its full size', () => {
    const filter = new KeyFilter(CHUNK);
    const id = (i: number) => `site42\u0000080d179f-0034-4278-8d3c-${String(i).padStart(12, '0')}`;
    for (let i = 0; i < CHUNK; i++) filter.add(keyHash(id(i)));
    for (let i = 0; i < CHUNK; i++) expect(filter.mayHave(keyHash(id(i)))).toBe(true);
    let maybe = 0;
    for (let i = CHUNK; i < 2 * CHUNK; i++) if (filter.mayHave(keyHash(id(i)))) maybe++;
    expect(maybe / CHUNK).toBeLessThan(0.06);
    // integers too; objects are not hashed (every part is asked for them)
    for (let i = 0; i < 100; i++) filter.add(keyHash(i * 7919));
    for (let i = 0; i < 100; i++) expect(filter.mayHave(keyHash(i * 7919))).toBe(true);
    expect(keyHash({})).toBe(-1);
    expect(filter.mayHave(-1)).toBe(true);
  });
});
