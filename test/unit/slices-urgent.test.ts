// Work a request waits for (a beacon's journal write) runs before each slice of long work, and what it
// releases (the beacon's answer, a few awaits down the line) goes out before the slice goes on.
import { describe, expect, it } from 'vitest';
import { Slicer, beforeEachSlice } from '../../src/main/slices';

describe('beforeEachSlice', () => {
  it('runs queued urgent work first, and lets its promise chain finish before the slice resumes', async () => {
    const order: string[] = [];
    let queued: (() => void) | null = null;
    const off = beforeEachSlice(() => {
      if (!queued) return false;
      queued();
      queued = null;
      return true;
    });
    try {
      const slicer = new Slicer(0);
      const long = (async () => {
        for (let i = 0; i < 3; i++) {
          await slicer.pause();
          order.push(`slice ${i}`);
        }
      })();
      // a request arrives while the first slice waits: its write is queued behind that slice
      const written = new Promise<void>((resolve) => {
        queued = resolve;
        setImmediate(() => {
          queued?.();
          queued = null;
        });
      });
      const answered = (async () => {
        await written;
        await Promise.resolve(); // the store's commit
        await Promise.resolve(); // the handler's await
        order.push('answer');
      })();
      await Promise.all([long, answered]);
      expect(order).toEqual(['answer', 'slice 0', 'slice 1', 'slice 2']);
    } finally {
      off();
    }
  });

  it('a failing piece of urgent work is reported and does not stop the slice', async () => {
    const off = beforeEachSlice(() => {
      throw new Error('boom');
    });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      await new Slicer(0).pause();
      expect(errors).toHaveLength(1);
    } finally {
      console.error = original;
      off();
    }
  });
});
