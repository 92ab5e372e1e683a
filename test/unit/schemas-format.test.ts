// The fast path of the date-time format accepts exactly what ajv-formats' own function accepts: checked
// on the shapes it takes (toISOString's) with every field at and past its bounds, and on random strings.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dateTimeFormat, fullDateTime as full } from '../../src/main/tracking/beacon-formats';

const fast = dateTimeFormat(full);

describe('date-time format fast path', () => {
  it('agrees with ajv-formats on dates and times at and past their bounds', () => {
    const years = ['0000', '1900', '2000', '2024', '2026', '2100', '9999'];
    const months = ['00', '01', '02', '04', '06', '09', '11', '12', '13', '1a'];
    const days = ['00', '01', '28', '29', '30', '31', '32', '3x'];
    const times = [
      '00:00:00',
      '23:59:59',
      '23:59:60',
      '24:00:00',
      '12:60:00',
      '12:00:60',
      '1:00:000',
    ];
    const fractions = ['.000', '.999', '.9a9', '.00'];
    let checked = 0;
    // the strings on which the two disagree, asserted empty once (one expect, not 40,000: ~12 µs a call)
    const disagree: string[] = [];
    for (const y of years)
      for (const m of months)
        for (const d of days)
          for (const t of times)
            for (const f of fractions)
              for (const z of ['Z', 'z', '+']) {
                const s = `${y}-${m}-${d}T${t}${f}${z}`;
                if (fast(s) !== full(s))
                  disagree.push(`${s}: fast ${fast(s)}, ajv-formats ${full(s)}`);
                checked++;
              }
    expect(disagree).toEqual([]);
    expect(checked).toBeGreaterThan(40_000);
    // the fast path does answer for the common shape (not only by falling back)
    expect(fast('2026-11-20T10:00:00.000Z')).toBe(true);
    expect(fast('2026-02-29T10:00:00.000Z')).toBe(false);
    expect(fast('2024-02-29T10:00:00.000Z')).toBe(true);
  });

  it('agrees with ajv-formats on random strings of that length and shape', () => {
    const char = fc.constantFrom(...'0123456789-:.TZtz+ a'.split(''));
    fc.assert(
      fc.property(fc.array(char, { minLength: 24, maxLength: 24 }), (chars) => {
        const s = chars.join('');
        expect(fast(s)).toBe(full(s));
      }),
      { numRuns: 5_000 },
    );
    fc.assert(
      fc.property(fc.date({ noInvalidDate: true }), fc.string({ maxLength: 3 }), (d, tail) => {
        const s = d.toISOString() + tail;
        expect(fast(s)).toBe(full(s));
      }),
      { numRuns: 5_000 },
    );
  });
});
