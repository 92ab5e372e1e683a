import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CHECK_HEAP_FLAG,
  COMPACT_AFTER_REPLAYED,
  capHeapGrowth,
  checkHeapFlag,
  compactAfterReplay,
  HeapGrowthCap,
  SERVE_HEAP,
} from '../../src/main/heap';

describe("check's heap growth", () => {
  it('caps growth at twice the live set when the user chose nothing', () => {
    expect(CHECK_HEAP_FLAG).toBe('--heap-growing-percent=85');
    expect(checkHeapFlag([], '')).toBe(CHECK_HEAP_FLAG);
    expect(checkHeapFlag(['--enable-source-maps'], '--no-warnings')).toBe(CHECK_HEAP_FLAG);
    // a flag that only starts like one of the user's heap flags is not one
    expect(checkHeapFlag(['--max-old-space-sizes=9'], '')).toBe(CHECK_HEAP_FLAG);
  });

  it("leaves the heap to the user's own flags, on the command line or in NODE_OPTIONS", () => {
    expect(checkHeapFlag(['--max-old-space-size=512'], '')).toBeNull();
    expect(checkHeapFlag([], '--enable-source-maps --max_old_space_size=2048')).toBeNull();
    expect(checkHeapFlag(['--heap-growing-percent=30'], '')).toBeNull();
    expect(checkHeapFlag([], '--optimize-for-size')).toBeNull();
  });
});

describe("the sandbox's heap growth", () => {
  const MiB = 1024 * 1024;

  it('is capped while the live heap is big, and left to V8 again once it is small', () => {
    const cap = new HeapGrowthCap();
    expect(cap.after(100 * MiB)).toBeNull();
    expect(cap.after(256 * MiB)).toBeNull();
    expect(cap.after(257 * MiB)).toBe(SERVE_HEAP.flag);
    expect(SERVE_HEAP.flag).toBe('--heap-growing-percent=30');
    // between the two marks it stays as it is, either way
    expect(cap.after(200 * MiB)).toBeNull();
    expect(cap.after(192 * MiB)).toBeNull();
    expect(cap.after(191 * MiB)).toBe('--heap-growing-percent=0');
    expect(cap.after(250 * MiB)).toBeNull();
    expect(cap.after(900 * MiB)).toBe(SERVE_HEAP.flag);
  });

  it("sets nothing when the user's own flags say how the heap grows", () => {
    const set: string[] = [];
    const stop = capHeapGrowth((f) => set.push(f), ['--max-old-space-size=512'], '');
    stop();
    expect(set).toEqual([]);
  });

  it('sets the cap after a full collection that kept a big heap, and lifts it after one that did not', () => {
    // a process of its own: the flag it sets is V8's, for the whole process
    const script = `
      import { capHeapGrowth } from ${JSON.stringify(path.resolve('src/main/heap.ts'))};
      const said = [];
      capHeapGrowth((f) => said.push(f), [], '');
      const settle = () => new Promise((r) => setTimeout(r, 50));
      // 300 MB held (over the cap's 256 MiB): lists of numbers, which cost little to make and to mark
      let held = Array.from({ length: 300 }, () => new Array(125_000).fill(0.5));
      globalThis.gc(); await settle();
      said.push('held ' + held.length);
      held = null;
      globalThis.gc(); await settle();
      console.log(JSON.stringify(said));
    `;
    const out = execFileSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(out)).toEqual([SERVE_HEAP.flag, 'held 300', '--heap-growing-percent=0']);
  });
});

describe('the heap after a replay at start', () => {
  it('is left alone after a small replay', () => {
    const set: string[] = [];
    expect(compactAfterReplay(COMPACT_AFTER_REPLAYED - 1, (f) => set.push(f))).toBe(false);
    expect(set).toEqual([]);
  });

  it('is compacted after a big one: what it holds on fewer pages, no gc() left on the global object', () => {
    // a process of its own: the flags it sets are V8's, for the whole process. A heap fragmented as a
    // replay leaves it: what stays (one object in eight) spread among what went.
    const script = `
      import { getHeapSpaceStatistics } from 'node:v8';
      import { compactAfterReplay } from ${JSON.stringify(path.resolve('src/main/heap.ts'))};
      let all = Array.from({ length: 2_000_000 }, (_, i) => ({ i, s: 'x' + i }));
      // long-lived enough to be old: collections while it is all held
      for (let n = 0; n < 3; n++) Array.from({ length: 200_000 }, (_, i) => ({ i }));
      const kept = all.filter((_, i) => i % 8 === 0);
      all = null;
      for (let n = 0; n < 20; n++) Array.from({ length: 200_000 }, (_, i) => ({ i }));
      const ran = compactAfterReplay(${COMPACT_AFTER_REPLAYED});
      const old = getHeapSpaceStatistics().find((s) => s.space_name === 'old_space');
      console.log(JSON.stringify({ ran, size: old.space_size, used: old.space_used_size, kept: kept.length, gc: typeof globalThis.gc }));
    `;
    const out = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        encoding: 'utf8',
      }),
    ) as { ran: boolean; size: number; used: number; kept: number; gc: string };
    expect(out.ran).toBe(true);
    expect(out.kept).toBe(250_000);
    expect(out.gc).toBe('undefined');
    // the old generation's pages hold what lives and little else: 1.05 of it here, where a full collection
    // without compaction of every page leaves them 6.5 times what they hold. (Against the heap before the
    // call, the share depends on how much the collections during the script had already given back: a
    // loaded machine's run kept 0.38 of a heap already smaller, after the same compaction.)
    expect(out.size).toBeLessThan(out.used * 1.5);
  });
});
