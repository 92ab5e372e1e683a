// Event timestamps: the digits of an ISO UTC timestamp are read directly; every shape and value must be
// read exactly as RFC 3339 parsing with Date.parse reads it.
import { describe, expect, it } from 'vitest';
import { parseRfc3339 } from '../../src/main/tracking/timeline/model';

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
function byDateParse(ts: string): number | null {
  if (!RFC3339.test(ts)) return null;
  const ms = Date.parse(ts);
  return Number.isFinite(ms) ? ms : null;
}

const pad = (v: number, width: number) => String(v).padStart(width, '0');

describe('event timestamps', () => {
  it('reads every ISO UTC timestamp as Date.parse does, out-of-range fields included', () => {
    const cases: string[] = [];
    for (const y of [0, 99, 100, 999, 1000, 2024, 9999])
      for (const mo of [0, 1, 2, 12, 13])
        for (const d of [0, 1, 29, 30, 31, 32])
          for (const h of [0, 23, 24])
            for (const mi of [0, 59, 60])
              for (const s of [0, 59, 60])
                cases.push(
                  `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(7, 3)}Z`,
                );
    for (const ts of cases) expect(parseRfc3339(ts), ts).toBe(byDateParse(ts));
  });

  it('reads the other shapes RFC 3339 allows, and refuses what it does not', () => {
    for (const ts of [
      '2026-11-20T10:00:00Z',
      '2026-11-20t10:00:00.123z',
      '2026-11-20 10:00:00.5Z',
      '2026-11-20T10:00:00.123456Z',
      '2026-11-20T10:00:00.000+01:00',
      '2026-11-20T10:00:0a.000Z',
      '2026-11-20T10:00:00.00aZ',
      '2026-11-20T10:00:00,000Z',
      '+02026-11-20T10:00:00.00Z',
      '2026-11-20',
      '',
    ])
      expect(parseRfc3339(ts), ts).toBe(byDateParse(ts));
    expect(parseRfc3339('2026-11-20T10:00:00.250Z')).toBe(Date.UTC(2026, 10, 20, 10, 0, 0, 250));
    expect(parseRfc3339(null)).toBeNull();
  });
});
