// Reading fields of a beacon body that may hold anything (a rejected body is read too): a string or
// number as text, nothing else (whether a value is an object: isObject, src/shared/values.ts).

/** A string as it is, a finite number as its text, anything else ''. */
export function str(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return '';
}
