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
