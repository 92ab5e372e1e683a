// Reading fields of a beacon body that may hold anything (a rejected body is read too): an object or
// not, a string or number as text, nothing else.

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A string as it is, a finite number as its text, anything else ''. */
export function str(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return '';
}
