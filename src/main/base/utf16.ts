// Recordings saved as UTF-16 (PowerShell's `>` and Out-File write UTF-16 LE with a byte order mark; some
// Windows editors save "Unicode" the same way) are read as the text they hold: told by their byte order
// mark, or, without one, by the NUL byte every other byte that UTF-16 gives ASCII and that JSON never holds
// (a NUL inside JSON is written \u0000). Anything else is read as UTF-8, as before.
import { TextDecoder } from 'node:util';

export type Utf16 = 'utf-16le' | 'utf-16be';

/** The UTF-16 a text's byte order mark says it is in, or null (none). */
export function utf16Bom(head: Uint8Array): Utf16 | null {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return null;
}

/** The UTF-16 the first bytes of a text are in, or null (UTF-8). Needs 4 bytes to tell one without a BOM. */
export function utf16Of(head: Uint8Array): Utf16 | null {
  const bom = utf16Bom(head);
  if (bom !== null || head.length < 4) return bom;
  const [a, b, c, d] = head;
  if (a !== 0 && b === 0 && c !== 0 && d === 0) return 'utf-16le';
  if (a === 0 && b !== 0 && c === 0 && d !== 0) return 'utf-16be';
  return null;
}

/** Bytes as text: UTF-16 when `utf16Of` says so (its BOM left out), else UTF-8. */
export function decodeText(bytes: Uint8Array): string {
  const utf16 = utf16Of(bytes);
  return utf16 === null
    ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
    : new TextDecoder(utf16).decode(bytes);
}

/**
 * The chunks as UTF-8: passed through as they are, unless the first bytes are UTF-16, which is decoded
 * piece by piece (a character split between chunks included). `onUtf16` is told which, once.
 */
export async function* utf8Chunks(
  chunks: AsyncIterable<Buffer>,
  onUtf16: (encoding: Utf16) => void = () => {},
): AsyncGenerator<Buffer> {
  // the first bytes are held until there are 4 (a pipe may give fewer at a time)
  let held: Buffer[] = [];
  let heldBytes = 0;
  let decoder: TextDecoder | null | undefined;
  const decide = (): Buffer => {
    const head = held.length === 1 ? held[0]! : Buffer.concat(held, heldBytes);
    held = [];
    const utf16 = utf16Of(head);
    decoder = utf16 === null ? null : new TextDecoder(utf16);
    if (utf16 !== null) onUtf16(utf16);
    return head;
  };
  const pass = (chunk: Buffer): Buffer =>
    decoder ? Buffer.from(decoder.decode(chunk, { stream: true }), 'utf8') : chunk;
  for await (const chunk of chunks) {
    let out = chunk;
    if (decoder === undefined) {
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes < 4) continue;
      out = pass(decide());
    } else if (decoder !== null) out = pass(chunk);
    if (out.length > 0) yield out;
  }
  if (decoder === undefined && heldBytes > 0) yield pass(decide());
  if (decoder) {
    const rest = decoder.decode();
    if (rest !== '') yield Buffer.from(rest, 'utf8');
  }
}
