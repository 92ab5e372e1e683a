// Time formats of the indexing interface: ISO 8601 durations (clock admin, PATCH interval), the status
// endpoint's `YYYY-MM-DDThh:mm:ss+0000`, and intervals written back the way the config writes them.

const ISO_DURATION =
  /^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i;

/** "PT61M", "P1D", "PT1H30M", "P2W", "PT0.5S" → ms; null when not an ISO 8601 duration (years and months are refused: their length varies). */
export function parseIsoDuration(v: string): number | null {
  const m = ISO_DURATION.exec(v.trim());
  if (!m || v.trim().toUpperCase() === 'P' || /T$/i.test(v.trim())) return null;
  const [, w, d, h, min, s] = m;
  const n = (x: string | undefined) => (x === undefined ? 0 : Number(x));
  const ms =
    n(w) * 604_800_000 + n(d) * 86_400_000 + n(h) * 3_600_000 + n(min) * 60_000 + n(s) * 1000;
  return Number.isFinite(ms) ? Math.round(ms) : null;
}

const NUM = String.raw`\d+(?:[.,]\d+)?`;
/** Any ISO 8601 duration, years and months included (the unit letters in their order). */
const ANY_DURATION = new RegExp(
  `^P(?:(${NUM})Y)?(?:(${NUM})M)?(?:${NUM}W)?(?:${NUM}D)?(?:T(?:${NUM}H)?(?:${NUM}M)?(?:${NUM}S)?)?$`,
  'i',
);

/**
 * Why an ISO 8601 duration in years or months ("P1Y", "P2M") is not taken, with the durations that are
 * and an example; null for any other text. It is an ISO 8601 duration: "not one" would be wrong.
 */
export function calendarDurationProblem(v: string): string | null {
  const m = ANY_DURATION.exec(v.trim());
  if (!m || (m[1] === undefined && m[2] === undefined)) return null;
  const units =
    m[1] !== undefined && m[2] !== undefined ? 'years and months' : m[1] ? 'years' : 'months';
  const example = m[1] !== undefined ? 'P365D' : 'P30D';
  return `is a duration in ${units}, which the sandbox clock does not take: their length varies. Use weeks, days, hours, minutes and seconds, e.g. "${example}" or "PT61M"`;
}

/**
 * The first of `from + interval`, `from + 2 × interval`, … that lies after `at`: a schedule moved on by
 * whole intervals, counted rather than stepped through (a minute's interval years behind is one step).
 */
export function nextAfter(from: number, interval: number, at: number): number {
  const first = from + interval;
  if (first > at) return first;
  return first + (Math.floor((at - first) / interval) + 1) * interval;
}

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

/**
 * An ISO 8601 instant with its offset ("2026-11-22T04:00:00Z", "…+01:00") → ms; null when it is not one,
 * names a day or time that does not exist ("2026-02-30", "25:00"), or has no offset (it would be read
 * in the server's own time zone).
 */
export function parseInstant(v: string): number | null {
  const m = INSTANT.exec(v.trim());
  if (!m) return null;
  const [, y, mo, d, h, min, sec = '0', oh = '0', om = '0'] = m;
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (day.getUTCMonth() !== Number(mo) - 1 || day.getUTCDate() !== Number(d)) return null;
  if (Number(h) > 23 || Number(min) > 59 || Number(sec) > 59 || Number(oh) > 23 || Number(om) > 59)
    return null;
  const t = Date.parse(v.trim());
  return Number.isFinite(t) ? t : null;
}

/** The status endpoint's timestamp: `2026-11-21T04:00:00+0000` (UTC, no milliseconds). */
export function statusTime(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, '+0000');
}

/** ms → "24h", "30m", "90s", "7d" (the config's own notation); 'Never' stays. */
export function formatInterval(v: number | 'Never'): string {
  if (v === 'Never') return 'Never';
  // "24h" reads better than "1d" (it is how the provider writes intervals); whole days from 48h on
  if (v % 86_400_000 === 0 && v >= 2 * 86_400_000) return `${v / 86_400_000}d`;
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (v % size === 0) return `${v / size}${unit}`;
  }
  return `${v}ms`;
}

/** "in 59 minutes" style, for Retry-After messages. */
export function humanDuration(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 120) return `${s} seconds`;
  const min = Math.ceil(s / 60);
  if (min < 120) return `${min} minutes`;
  return `${Math.round(min / 60)} hours`;
}
