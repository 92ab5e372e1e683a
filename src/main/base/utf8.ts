// Where UTF-8 stops being valid: a feed file then read as Windows-1252 from there, a JSON body refused
// naming the byte.
import { isUtf8 } from 'node:buffer';

/** The offset of the first byte of `bytes` that does not start or continue valid UTF-8 (its length: none). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    const n =
      b < 0x80
        ? 1
        : b >= 0xc2 && b <= 0xdf
          ? 2
          : b >= 0xe0 && b <= 0xef
            ? 3
            : b >= 0xf0 && b <= 0xf4
              ? 4
              : 0;
    if (n === 0) return i;
    for (let k = 1; k < n; k++)
      if (i + k >= bytes.length || (bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += n;
  }
  return bytes.length;
}

/** Why `bytes` are not UTF-8 text, naming the first byte that is not (plus `offset`), or null when they are. */
export function notUtf8At(bytes: Uint8Array, offset = 0): string | null {
  // checked natively first: most bodies are UTF-8, and the walk below is only for naming the byte
  if (isUtf8(bytes)) return null;
  const at = firstInvalidUtf8(bytes);
  if (at >= bytes.length) return null;
  return `not valid UTF-8 at byte offset ${offset + at} (0x${bytes[at]!.toString(16).padStart(2, '0')})`;
}
