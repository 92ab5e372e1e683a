import { describe, expect, it } from 'vitest';
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
});
