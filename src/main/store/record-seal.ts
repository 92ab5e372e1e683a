// A checksum on each line of the events journal, so that a record whose bytes changed on disk (a bad block,
// a flipped bit, a hand's edit) reads as damaged instead of loading as another event. A sealed line is
// the record's JSON with a first field added, `{"crc":"<8 hex>",` and then the record after its `{`: still
// one JSON object a line (jq reads it), and the record is exactly its old text once the prefix is taken
// off. The checksum is the CRC-32 of the record's UTF-8 bytes (zlib's, native: a fifth of what
// JSON.stringify costs a beacon's record; docs/benchmarks.md). Any change of up to 32
// bits changes it, and so do bytes that are no UTF-8 (read back as U+FFFD). Lines written by older
// versions carry none and read as they are.
import zlib from 'node:zlib';

const PREFIX = '{"crc":"';
/** `{"crc":"` + 8 hex digits + `",` */
const SEALED_LENGTH = PREFIX.length + 8 + 2;
const HEX8 = /^[0-9a-f]{8}$/;

/** The CRC-32 of `text`'s UTF-8 bytes, as 8 hex digits (zlib.crc32: Node 20.15 on, and engines asks 20.19). */
export function checksum(text: string): string {
  return zlib.crc32(text).toString(16).padStart(8, '0');
}

/** The journal line for a record's JSON (an object, as every record is). */
export function seal(json: string): string {
  return `${PREFIX}${checksum(json)}",${json.slice(1)}`;
}

/**
 * A journal line read back: the record's JSON (the line itself when it carries no checksum, as an older
 * version wrote it) and, when its checksum does not match, why (null: it matches, or there is none).
 */
export function unseal(line: string): { text: string; problem: string | null } {
  if (!sealShaped(line)) return { text: line, problem: null };
  const written = line.slice(PREFIX.length, PREFIX.length + 8);
  const text = `{${line.slice(SEALED_LENGTH)}`;
  if (!line.startsWith(PREFIX) || !HEX8.test(written))
    return {
      text,
      problem: `its checksum field is damaged (${JSON.stringify(line.slice(0, SEALED_LENGTH))})`,
    };
  const read = checksum(text);
  return {
    text,
    problem:
      read === written
        ? null
        : `its checksum is ${read}, not the ${written} it was written with: its bytes changed on disk since`,
  };
}

/**
 * Whether the line starts as a sealed one (`{"???":"????????",`), its key or digits damaged or not: no record
 * starts so (`{"id":"`, `{"reset":`, `{"journal":`, `{"import":`), so a changed byte in the prefix
 * is seen as damage, not read as a record without a checksum.
 */
function sealShaped(line: string): boolean {
  return (
    line.length > SEALED_LENGTH &&
    line.charCodeAt(0) === 123 && // {
    line.charCodeAt(1) === 34 && // "
    line.charCodeAt(5) === 34 &&
    line.charCodeAt(6) === 58 && // :
    line.charCodeAt(7) === 34 &&
    line.charCodeAt(16) === 34 &&
    line.charCodeAt(17) === 44 // ,
  );
}
