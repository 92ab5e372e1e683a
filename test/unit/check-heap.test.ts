import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CHECK_HEAP_FLAG,
  capHeapGrowth,
  checkHeapFlag,
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
      let held = Array.from({ length: 6_000_000 }, (_, i) => ({ i, s: 'x' + i }));
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
    expect(JSON.parse(out)).toEqual([SERVE_HEAP.flag, 'held 6000000', '--heap-growing-percent=0']);
  });
});
