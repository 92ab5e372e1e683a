// What the beacon validators share besides their own code: ajv's options, the date-time format and the string
// length ajv counts. The validators compiled at build time (beacon-validators.generated.js) import them from
// here, and every ajv that compiles the beacon schemas is made by `beaconAjv`, so all accept and reject alike.
import type { Ajv, Options } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';

/**
 * RFC 3339 date-time as ajv-formats checks it (`full` mode), with a fast path for the one shape nearly
 * every client sends (`Date.prototype.toISOString`: 2026-11-20T10:00:00.000Z): when that shape is a
 * valid date and time the answer is true at once; everything else goes to ajv-formats' own function,
 * so the format accepts exactly what it did (checked against it in test/unit/schemas-format.test.ts).
 */
export function dateTimeFormat(full: (s: string) => boolean): (s: string) => boolean {
  const DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22];
  const SEPARATORS: Array<[number, number]> = [
    [4, 45], // -
    [7, 45],
    [10, 84], // T
    [13, 58], // :
    [16, 58],
    [19, 46], // .
    [23, 90], // Z
  ];
  const num = (s: string, at: number) => (s.charCodeAt(at) - 48) * 10 + s.charCodeAt(at + 1) - 48;
  const isoShape = (s: string) => {
    if (s.length !== 24) return false;
    for (const [at, code] of SEPARATORS) if (s.charCodeAt(at) !== code) return false;
    for (const at of DIGITS) {
      const c = s.charCodeAt(at);
      if (c < 48 || c > 57) return false;
    }
    return true;
  };
  return (s) => {
    if (isoShape(s)) {
      const year = num(s, 0) * 100 + num(s, 2);
      const month = num(s, 5);
      const day = num(s, 8);
      const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
      const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
      if (
        month >= 1 &&
        month <= 12 &&
        day >= 1 &&
        day <= days &&
        num(s, 11) <= 23 &&
        num(s, 14) <= 59 &&
        num(s, 17) <= 59
      )
        return true;
    }
    return full(s);
  };
}

/** ajv-formats' own date-time check (`full` mode), the fast path's fallback. */
export const fullDateTime = (fullFormats['date-time'] as { validate: (s: string) => boolean })
  .validate;

/** The formats the beacon schemas name, as ajv takes them (`addFormat`, or `code.formats` at build time). */
export const BEACON_FORMATS = {
  'date-time': { type: 'string' as const, validate: dateTimeFormat(fullDateTime) },
};

/**
 * An ajv for the beacon schemas, with their options and formats; `options` adds what the caller needs
 * (allErrors, the standalone code). The class is given, not imported: the run time loads ajv only when a
 * body fails.
 */
export function beaconAjv(AjvClass: typeof Ajv, options: Options): Ajv {
  const ajv = new AjvClass({ strict: true, strictTypes: false, strictRequired: false, ...options });
  for (const [name, format] of Object.entries(BEACON_FORMATS)) ajv.addFormat(name, format);
  return ajv;
}

// ajv's runtime helpers are CommonJS; depending on the bundler the default export is the function or wraps it.
/** The length ajv gives a string for minLength/maxLength: Unicode code points, not UTF-16 units. */
export const ucs2length = ((ucs2lengthModule as unknown as { default?: unknown }).default ??
  ucs2lengthModule) as (s: string) => number;
