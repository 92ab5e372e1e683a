// Uploaded feeds are joined in slices: the same bytes as one Buffer.concat, with the loop given back
// between slices.
import { describe, expect, it } from 'vitest';
import { joinInSlices } from '../../src/main/http/upload-storage';
import { Slicer } from '../../src/main/slices';
import { countTurns } from '../helpers/drafts';

describe('joinInSlices', () => {
  it('gives exactly the bytes of Buffer.concat, and turns the loop meanwhile', async () => {
    const chunks = Array.from({ length: 40 }, (_, i) =>
      Buffer.alloc(64 * 1024 + (i % 3), String.fromCharCode(65 + (i % 26))),
    );
    chunks.push(Buffer.alloc(3 * 1024 * 1024, 'z')); // a chunk larger than one copy
    const size = chunks.reduce((n, c) => n + c.length, 0);
    const turns = countTurns();
    const joined = await joinInSlices(chunks, size, new Slicer(0));
    expect(turns.stop()).toBeGreaterThan(10);
    expect(joined.equals(Buffer.concat(chunks))).toBe(true);
  });

  it('hands a single chunk back as it is', async () => {
    const only = Buffer.from('id,name\n1,a\n');
    expect(await joinInSlices([only], only.length)).toBe(only);
  });
});
