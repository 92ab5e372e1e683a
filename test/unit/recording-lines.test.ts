import { describe, expect, it, vi } from 'vitest';
import { linesOf } from '../../src/main/recordings/lines';
import type { RecordingSource } from '../../src/main/recordings/source';

const RECORDING_CAPS = { lineBytes: 1 << 20, documentBytes: 1 << 20, inputBytes: 1 << 30 };

/** The lines read from `text` cut into chunks at `cuts` (byte offsets), with a line cap of `lineBytes`. */
async function lines(text: string, cuts: number[], lineBytes = RECORDING_CAPS.lineBytes) {
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    chunks.push(bytes.subarray(at, cut));
    at = cut;
  }
  const source: RecordingSource = {
    name: 'rec.ndjson',
    caps: { ...RECORDING_CAPS, lineBytes },
    chunks: async function* () {
      yield* chunks;
    },
  };
  const out: string[] = [];
  for await (const batch of linesOf(source)) out.push(...batch);
  return out;
}

describe('the lines of a recording', () => {
  const text = '{"a":1}\r\n\n{"b":"é€😀"}\n{"c":3}';
  const expected = ['{"a":1}', '', '{"b":"é€😀"}', '{"c":3}'];

  it('are the same wherever the chunks are cut (inside a line, a CRLF or a UTF-8 sequence)', async () => {
    const size = Buffer.byteLength(text);
    expect(await lines(text, [])).toEqual(expected);
    for (let cut = 1; cut < size; cut++) expect(await lines(text, [cut])).toEqual(expected);
    for (let cut = 1; cut + 3 < size; cut++)
      expect(await lines(text, [cut, cut + 1, cut + 3])).toEqual(expected);
  });

  it('refuse a line over the cap, naming its line, whether it is whole in a chunk or spans chunks', async () => {
    const long = `{"x":"${'y'.repeat(40)}"}`;
    const input = `{"a":1}\n${long}\n{"c":3}\n`;
    const at = /rec\.ndjson:2: a line longer than/;
    await expect(lines(input, [], 30)).rejects.toThrow(at);
    await expect(lines(input, [12, 30], 30)).rejects.toThrow(at);
    // at the cap exactly, it is read
    expect(await lines(input, [], Buffer.byteLength(long))).toEqual(['{"a":1}', long, '{"c":3}']);
    expect(await lines(input, [12, 30], Buffer.byteLength(long))).toEqual([
      '{"a":1}',
      long,
      '{"c":3}',
    ]);
  });

  it('count bytes, not characters, against the cap', async () => {
    const line = `"${'é'.repeat(20)}"`; // 22 characters, 42 bytes
    await expect(lines(`${line}\n`, [], 30)).rejects.toThrow(/rec\.ndjson:1:/);
    expect(await lines(`${line}\n`, [], 42)).toEqual([line]);
  });

  it('join a line that spans many chunks once: the bytes copied grow with its length, not its square', async () => {
    // 16 MiB on line 2 in 256 chunks of 64 KiB, as a file is read: joining the text so far on every
    // chunk (the reader this replaced) copied ~2 GiB here, and took 20 s and more for a 40 MB line
    const long = `{"x":"${'a'.repeat(16 * 1024 * 1024)}"}`;
    const input = `{"a":1}\n${long}\n{"c":3}\n`;
    const cuts = Array.from({ length: 256 }, (_, i) => 8 + (i + 1) * 65_536);
    let copied = 0;
    const original = Buffer.concat.bind(Buffer);
    const concat = vi.spyOn(Buffer, 'concat').mockImplementation((list, total) => {
      copied += list.reduce((n, b) => n + b.length, 0);
      return original(list, total);
    });
    try {
      expect(await lines(input, cuts, 64 << 20)).toEqual(['{"a":1}', long, '{"c":3}']);
    } finally {
      concat.mockRestore();
    }
    expect(copied).toBeGreaterThanOrEqual(long.length);
    expect(copied).toBeLessThanOrEqual(2 * Buffer.byteLength(input));
  });
});
