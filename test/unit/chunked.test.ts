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
 * What a run saw of the structure and of the model it is held to, step by step, compared once when the run
 * ends: vitest's expect costs ~12 µs a call, and a run asks dozens of things a step (hundreds of thousands of
 * calls a test). Each entry is a fresh array or a primitive, labelled with its step; a failing run shows
 * the steps that differ, and fast-check shrinks it as before.
 */
class Trace {
  private readonly got: unknown[] = [];
  private readonly want: unknown[] = [];

  same(label: string, got: unknown, want: unknown): void {
    this.got.push([label, got]);
    this.want.push([label, want]);
  }

  check(): void {
    expect(this.got).toEqual(this.want);
  }
}

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
        const t = new Trace();
        for (const [step, o] of list.entries()) {
          const at = `${step} ${o.op}`;
          if (o.op === 'set') {
            // a key known to be absent may go in without a search (every other one of them does)
            if (!model.has(o.key) && o.value % 2 === 1)
              t.same(`${at}: setNew returns the map`, map.setNew(o.key, o.value) === map, true);
            else t.same(`${at}: set returns the map`, map.set(o.key, o.value) === map, true);
            model.set(o.key, o.value);
          } else if (o.op === 'delete') t.same(at, map.delete(o.key), model.delete(o.key));
          else if (o.op === 'get') {
            t.same(`${at}: get`, map.get(o.key), model.get(o.key));
            t.same(`${at}: getOld`, map.getOld(o.key), model.get(o.key));
            t.same(`${at}: has`, map.has(o.key), model.has(o.key));
          } else if (o.op === 'clear') {
            map.clear();
            model.clear();
          } else if (o.op === 'shift') {
            for (let i = 0; i < o.times; i++) {
              const oldest = map.oldest();
              t.same(`${at} ${i}: oldest`, oldest, model.entries().next().value);
              if (oldest)
                t.same(`${at} ${i}: delete`, map.delete(oldest[0]), model.delete(oldest[0]));
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
            t.same(`${at}: met`, mine, theirs);
          }
          t.same(`${at}: size`, map.size, model.size);
          t.same(`${at}: entries`, [...map], [...model]);
          // the oldest entry, asked after every step (the walk it keeps survives sets, deletes, clears)
          t.same(`${at}: oldest`, map.oldest(), model.entries().next().value);
          const each: Array<[number, number]> = [];
          map.forEach((v, k) => each.push([k, v]));
          t.same(`${at}: forEach`, each, [...model]);
          for (const n of [0, 1, 2, 4, 7, Infinity])
            t.same(
              `${at}: lastValues(${n})`,
              map.lastValues(n),
              n === 0 ? [] : [...model.values()].slice(-n),
            );
          // only the newest part may be empty (it takes the next keys)
          const sizes = map.partSizes();
          t.same(
            `${at}: part sizes ${sizes}`,
            sizes.every((n, i) => n <= 3 && (n >= 1 || i === sizes.length - 1)),
            true,
          );
        }
        t.check();
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
        const t = new Trace();
        for (const [step, o] of list.entries()) {
          if (o.op === 'clear' || o.op === 'drain' || o.op === 'shift') continue;
          const k = `page-${o.key}`;
          if (o.op === 'set') {
            map.set(k, o.value);
            model.set(k, o.value);
          } else if (o.op === 'delete') t.same(`${step} delete`, map.delete(k), model.delete(k));
          const got: unknown[] = [];
          const want: unknown[] = [];
          for (let n = 0; n <= 40; n++) {
            got.push(map.get(`page-${n}`), map.has(`page-${n}`));
            want.push(model.get(`page-${n}`), model.has(`page-${n}`));
          }
          t.same(`${step}: get and has of page-0 to page-40`, got, want);
        }
        t.check();
        expect([...map]).toEqual([...model]);
      }),
      { numRuns: 200 },
    );
    // many parts, keys long and short: every present key found, no absent one
    const big = new ChunkedMap<string, number>(64);
    const long = (i: number) => `${'x'.repeat(i % 90)}-${i}-${'y'.repeat(i % 7)}`;
    for (let i = 0; i < 5_000; i++) big.set(long(i), i);
    const found = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => big.get(long(from + i)));
    expect(found(0, 5_000)).toEqual(Array.from({ length: 5_000 }, (_, i) => i));
    expect(found(5_000, 10_000).every((v) => v === undefined)).toBe(true);
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
        const t = new Trace();
        for (const [step, o] of list.entries()) {
          const at = `${step} ${o.op}`;
          if (o.op === 'set') {
            if (!model.has(o.key) && o.value % 2 === 1)
              t.same(`${at}: addNew returns the set`, set.addNew(o.key) === set, true);
            else t.same(`${at}: add returns the set`, set.add(o.key) === set, true);
            model.add(o.key);
          } else if (o.op === 'delete') t.same(at, set.delete(o.key), model.delete(o.key));
          else if (o.op === 'get') t.same(at, set.has(o.key), model.has(o.key));
          else if (o.op === 'clear') {
            set.clear();
            model.clear();
          } else if (o.op === 'shift') {
            for (let i = 0; i < o.times; i++) {
              const oldest = model.values().next();
              if (!oldest.done)
                t.same(`${at} ${i}`, set.delete(oldest.value), model.delete(oldest.value));
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
            t.same(`${at}: met`, mine, theirs);
          }
          t.same(`${at}: size`, set.size, model.size);
          t.same(`${at}: values`, [...set], [...model]);
          const each: number[] = [];
          set.forEach((v) => each.push(v));
          t.same(`${at}: forEach`, each, [...model]);
          t.same(
            `${at}: part sizes ${set.partSizes()}`,
            set.partSizes().every((n) => n <= 3),
            true,
          );
        }
        t.check();
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
