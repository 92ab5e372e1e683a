// RFC 3339 times as recorded events carry them (receivedAt, a beacon's timestamp): one reading for the
// timelines, check, the journal and imports.

// RFC 3339 date-time: a T (or space) separator and an explicit offset are required.
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

export function parseRfc3339(ts: string | null): number | null {
  if (ts === null) return null;
  const fast = isoUtcMs(ts);
  if (fast !== undefined) return fast;
  if (!RFC3339.test(ts)) return null;
  const ms = Date.parse(ts);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * The time of a timestamp as `toISOString` writes it (`2026-11-20T10:00:00.000Z`, as nearly every client
 * and the sandbox's own receive times do), read from its digits: every event's timestamp and receive time
 * is parsed, and a regular expression and `Date.parse` cost more than the rest of reading the event.
 * undefined for any other shape or an out-of-range field, which the full parse answers instead (a year
 * before 1000 too: `Date.UTC` reads years below 100 as 19xx).
 */
export function isoUtcMs(s: string): number | undefined {
  if (
    s.length !== 24 ||
    s.charCodeAt(4) !== 45 || // -
    s.charCodeAt(7) !== 45 ||
    s.charCodeAt(10) !== 84 || // T
    s.charCodeAt(13) !== 58 || // :
    s.charCodeAt(16) !== 58 ||
    s.charCodeAt(19) !== 46 || // .
    s.charCodeAt(23) !== 90 // Z
  )
    return undefined;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  const ms = digits(s, 20, 3);
  if (
    year < 1000 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > 31 ||
    (hour | minute | second | ms) < 0 ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    return undefined;
  // as Date.parse does, a day past its month's end runs into the next month; the day's start is kept for
  // the next timestamp, which is mostly of the same day
  const dayKey = (year * 16 + month) * 32 + day;
  if (dayKey !== lastDay) {
    lastDayMs = Date.UTC(year, month - 1, day);
    lastDay = dayKey;
  }
  return lastDayMs + ((hour * 60 + minute) * 60 + second) * 1000 + ms;
}

/** the day of the last timestamp read (year, month and day in one number), and its first ms */
let lastDay = -1;
let lastDayMs = 0;

/** The number `n` decimal digits at `at` spell; -1 when one is not a digit. */
function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}
