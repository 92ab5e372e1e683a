// Reading fields of a beacon body that may hold anything (a rejected body is read too): a string or
// number as text, nothing else (whether a value is an object: isObject, src/shared/values.ts).

/** A string as it is, a finite number as its text, anything else ''. */
export function str(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return '';
}

/**
 * words a template prints where it has no id for a shopper, as templates write them (looked up as they
 * are: no string made per id read)
 */
const PLACEHOLDERS = new Set(
  [
    'anonymous',
    'anon',
    'guest',
    'undefined',
    'null',
    'unknown',
    'nan',
    'false',
    'true',
    '0',
    '-1',
    '[object object]',
  ].flatMap((w) => [w, w.toUpperCase(), w[0]!.toUpperCase() + w.slice(1)]),
).add('[object Object]');

/**
 * Is `id` a placeholder word where an id belongs (`anonymous`, `undefined`, `0`)? The provider's client
 * makes its ids at random (a uuid), and a shopperId is the customer's own: never such a word.
 */
export function isPlaceholderId(id: string): boolean {
  return PLACEHOLDERS.has(id);
}
