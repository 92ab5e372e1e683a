import { describe, expect, it } from 'vitest';
import { CHECK_HEAP_FLAG, checkHeapFlag } from '../../src/main/check/heap';

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
