// The character encoding of a feed file: UTF-8 (the default, with or without a BOM), UTF-16 by its BOM,
// what an XML declaration names, or Windows-1252 (the superset of ISO-8859-1 that exports from
// spreadsheets and older shop systems use) when the bytes are not valid UTF-8. UTF-32 is told, not read. The text reaches the
// parsers as UTF-8 whatever it was, piece by piece, and the summary says how it was read.
import { firstInvalidUtf8 } from '../base/utf8';
import { TextDecoder } from 'node:util';
import { utf16Bom } from '../base/utf16';
import { grouped } from '../../shared/text';

const XML_DECLARATION = /^<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/;

export interface Charset {
  /** the encoding the text was read as, e.g. 'utf-8', 'windows-1252', 'utf-16le' */
  name: string;
  /** why, when it is not plain UTF-8: shown in the feed's history */
  note: string | null;
}

export type Utf32 = 'utf-32le' | 'utf-32be';

/** Code units read to tell UTF-32 without a byte order mark: each has three NUL bytes in its place. */
const UTF32_UNITS = 4;

/**
 * The UTF-32 the first bytes of a file are in (which the sandbox does not read), or null: by its byte order
 * mark (00 00 FE FF, FF FE 00 00: checked before UTF-16's FF FE, which the second begins with), or by
 * text whose first code units each have three NUL bytes (ASCII in UTF-32; a feed holds no NUL).
 */
export function utf32Of(head: Uint8Array): { encoding: Utf32; bom: boolean } | null {
  const [a, b, c, d] = head;
  if (a === 0x00 && b === 0x00 && c === 0xfe && d === 0xff)
    return { encoding: 'utf-32be', bom: true };
  if (a === 0xff && b === 0xfe && c === 0x00 && d === 0x00)
    return { encoding: 'utf-32le', bom: true };
  const units = Math.min(UTF32_UNITS, Math.floor(head.length / 4));
  if (units === 0) return null;
  const each = (text: number, zeros: number[]) => {
    for (let u = 0; u < units; u++) {
      const at = u * 4;
      if (head[at + text] === 0 || zeros.some((z) => head[at + z] !== 0)) return false;
    }
    return true;
  };
  if (each(0, [1, 2, 3])) return { encoding: 'utf-32le', bom: false };
  if (each(3, [0, 1, 2])) return { encoding: 'utf-32be', bom: false };
  return null;
}

/** A label TextDecoder knows, or null. */
function known(label: string): string | null {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return null;
  }
}

/**
 * The chunks as UTF-8, and (once they are all read) how they were decoded. A file that is valid UTF-8
 * up to some byte and not after is read as Windows-1252 from that chunk on, and the note names the byte.
 */
export function toUtf8(chunks: AsyncIterable<Buffer>): {
  chunks: AsyncIterable<Buffer>;
  charset: () => Charset;
} {
  let charset: Charset = { name: 'utf-8', note: null };
  async function* run(): AsyncGenerator<Buffer> {
    let decoder: TextDecoder | null = null; // null: still passing valid UTF-8 through
    let utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
    let offset = 0;
    let first = true;
    for await (const chunk of chunks) {
      if (first) {
        first = false;
        // a feed is UTF-16 only by its mark (a recording is also told by its NULs: base/utf16.ts)
        const bom = utf16Bom(chunk);
        if (bom) decoder = new TextDecoder(bom);
        if (decoder)
          charset = {
            name: decoder.encoding,
            note: `decoded as ${decoder.encoding} (its byte order mark says so)`,
          };
        else {
          const declared = XML_DECLARATION.exec(chunk.subarray(0, 200).toString('latin1'))?.[1];
          const label = declared ? known(declared) : null;
          if (label && label !== 'utf-8') {
            decoder = new TextDecoder(label);
            charset = {
              name: label,
              note: `decoded as ${label} (the XML declaration says encoding="${declared}")`,
            };
          }
        }
      }
      if (decoder) {
        yield Buffer.from(decoder.decode(chunk, { stream: true }), 'utf8');
        continue;
      }
      try {
        utf8.decode(chunk, { stream: true });
        yield chunk;
      } catch {
        // not UTF-8: Windows-1252 from this chunk on (earlier chunks were valid UTF-8 as they were)
        const at = offset + firstInvalidUtf8(chunk);
        decoder = new TextDecoder('windows-1252');
        charset = {
          name: 'windows-1252',
          note: `decoded as windows-1252: not valid UTF-8 at byte offset ${grouped(at)}`,
        };
        utf8 = new TextDecoder('utf-8');
        yield Buffer.from(decoder.decode(chunk, { stream: true }), 'utf8');
      }
      offset += chunk.length;
    }
    if (decoder) {
      const rest = decoder.decode();
      if (rest) yield Buffer.from(rest, 'utf8');
    }
  }
  return { chunks: run(), charset: () => charset };
}
