// Text from beacons may hold anything a string can, lone UTF-16 surrogates included (any web page can
// send one). encodeURIComponent throws on those; these helpers never do, so no id can break a view.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The string with each lone surrogate replaced by U+FFFD (what a UTF-8 encoder would send). */
export function wellFormed(s: string): string {
  return s.replace(LONE_SURROGATE, '\uFFFD');
}

/** encodeURIComponent for a URL path or query part the server reads: lone surrogates become U+FFFD. */
export function encodePart(s: string): string {
  return encodeURIComponent(wellFormed(s));
}

/**
 * A reversible encoding for the UI's own hash routes: a lone surrogate is written as `%uD800` (which
 * encodeURIComponent never produces), so a link to a page whose id holds one leads back to that page.
 */
export function encodeRoutePart(s: string): string {
  let out = '';
  let last = 0;
  for (const m of s.matchAll(LONE_SURROGATE)) {
    out += encodeURIComponent(s.slice(last, m.index));
    out += `%u${m[0].charCodeAt(0).toString(16).toUpperCase()}`;
    last = m.index! + m[0].length;
  }
  return out + encodeURIComponent(s.slice(last));
}

/** The inverse of encodeRoutePart; text that does not decode is kept as it was typed. */
export function decodeRoutePart(s: string): string {
  return s
    .split(/(%u[0-9A-Fa-f]{4})/)
    .map((piece) => {
      if (/^%u[0-9A-Fa-f]{4}$/.test(piece))
        return String.fromCharCode(parseInt(piece.slice(2), 16));
      try {
        return decodeURIComponent(piece);
      } catch {
        return piece;
      }
    })
    .join('');
}

/** The characters of a value a refusal quotes before it says the value's length instead. */
export const QUOTED_CHARS = 100;

/**
 * Text a refusal quotes from what was sent: whole when short, else its first 100 characters and its
 * length. A refusal describes what was sent; it never echoes it whole (a 60 KB id is not a message).
 */
export function clipped(text: string): string {
  if (text.length <= QUOTED_CHARS + 20) return text;
  // never cut a surrogate pair in two
  const end = /[\uD800-\uDBFF]/.test(text[QUOTED_CHARS - 1]!) ? QUOTED_CHARS - 1 : QUOTED_CHARS;
  return `${text.slice(0, end)}… (${text.length} characters)`;
}

/** A value as a refusal quotes it: its JSON (`"abc"`, `5`, `nothing` for undefined), clipped. */
export function shown(value: unknown): string {
  // JSON writes NaN and Infinity as null: say what was given
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return clipped(JSON.stringify(value) ?? 'nothing');
}

/** A recorded value as a message about a recording quotes it: its JSON, the first 40 characters. */
export function recordedValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** A count with its noun in the right number, its digits grouped: `1 field`, `200,000 fields`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${grouped(n)} ${n === 1 ? one : many}`;
}

/**
 * A number with its digits grouped as en-US groups them: `999`, `200,000`. A whole number from 0 to 999 has no
 * group to mark and is written without the locale's data, whose loading took ~20 ms of CPU on a process's first
 * call (every `check`, and the UI's first render).
 */
export function grouped(n: number): string {
  return Number.isInteger(n) && n >= 0 && n < 1000 && !Object.is(n, -0)
    ? String(n)
    : n.toLocaleString('en-US');
}

/**
 * A size of data as people read it: bytes, KiB under 1 MiB, else MB with one decimal (MB of 1,048,576
 * bytes, as the 20 MB upload limit counts them): `512 bytes`, `16.0 KiB`, `15.8 MB`.
 */
export function byteSize(n: number): string {
  if (n < 1024) return plural(n, 'byte');
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  const mb = n / 1024 / 1024;
  return `${mb.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} MB`;
}

/**
 * Amounts shown together (a table, a sentence), formatted alike: with cents when any has some (49.50 beside
 * 20.00, not 20), whole otherwise; a sum of prices (0.1 + 0.2) is rounded to the cent. The currency is the
 * storefront's: no symbol.
 */
export function moneyFormat(amounts: readonly number[]): (n: number) => string {
  const cents = amounts.some((n) => Math.round(n * 100) % 100 !== 0);
  return (n) => (cents ? n.toFixed(2) : String(Math.round(n)));
}
