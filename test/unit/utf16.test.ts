// A recording saved as UTF-16 read as the UTF-8 it holds, however its bytes are cut into chunks (a pipe may
// hand over one byte at a time): the byte order mark or the NUL bytes told, a character split between
// chunks joined, and UTF-8 passed through as it came.
import { describe, expect, it } from 'vitest';
import { decodeText, utf16Of, utf8Chunks } from '../../src/main/base/utf16';

const text =
  '{"context":{"pageUrl":"https://shop.example/sök?q=Zürich €"},"data":{}}\r\n{"data":{}}\r\n';

async function read(bytes: Buffer, size: number): Promise<string> {
  async function* chunks() {
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  }
  const out: Buffer[] = [];
  for await (const c of utf8Chunks(chunks())) out.push(c);
  return Buffer.concat(out).toString('utf8');
}

describe('UTF-16 recordings', () => {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  const be = Buffer.from(le).swap16();
  const bare = Buffer.from(text, 'utf16le');

  it('tells UTF-16 by its byte order mark, or by the NUL bytes JSON never holds', () => {
    expect(utf16Of(le)).toBe('utf-16le');
    expect(utf16Of(be)).toBe('utf-16be');
    expect(utf16Of(bare)).toBe('utf-16le');
    expect(utf16Of(Buffer.from(bare).swap16())).toBe('utf-16be');
    expect(utf16Of(Buffer.from(text))).toBeNull();
    expect(utf16Of(Buffer.from('\uFEFF{}'))).toBeNull();
    expect(decodeText(le)).toBe(text);
    expect(decodeText(Buffer.from(text))).toBe(text);
  });

  it('decodes chunks of any size, a character split between two included', async () => {
    for (const size of [1, 3, 7, 64 * 1024]) {
      expect(await read(le, size), `LE in ${size}-byte chunks`).toBe(text);
      expect(await read(be, size), `BE in ${size}-byte chunks`).toBe(text);
      expect(await read(bare, size), `no BOM in ${size}-byte chunks`).toBe(text);
      expect(await read(Buffer.from(text), size), `UTF-8 in ${size}-byte chunks`).toBe(text);
    }
    // shorter than the 4 bytes it takes to tell: passed through
    expect(await read(Buffer.from('{}'), 1)).toBe('{}');
  });
});
