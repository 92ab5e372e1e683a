// How times, durations and ids read in the UI. Everything is shown in UTC, like the sandbox's APIs
// (`X-Sandbox-Now`, `lastIndexed`), so what the screen says can be compared with a curl answer.

import { clockMove, durationWords } from '../../shared/clock-offset';

export { byteSize, plural } from '../../shared/text';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Parse ISO 8601 and the indexing API's `+0000` form; NaN when unreadable. */
export function parseTime(value: string | null | undefined): number {
  if (!value) return NaN;
  const normalised = /[+-]\d{4}$/.test(value)
    ? value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')
    : value;
  return Date.parse(normalised);
}

export function fmtClock(ms: number, withMs = false): string {
  if (!Number.isFinite(ms)) return '—';
  const d = new Date(ms);
  const base = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return withMs ? `${base}.${pad(d.getUTCMilliseconds(), 3)}` : base;
}

export function fmtDate(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

export function fmtDateTime(ms: number, withMs = false): string {
  if (!Number.isFinite(ms)) return '—';
  return `${fmtDate(ms)} ${fmtClock(ms, withMs)}`;
}

/** e.g. "1 d 2 h", "3 h 05 min", "4 min 10 s", "850 ms" */
export const fmtDuration = durationWords;

/**
 * A time axis label: the offset from the first tick, as precise as the step between ticks, so no two
 * ticks read the same ("+1.5 s" after "+1.0 s", not "+1 s" twice).
 */
export function fmtTickOffset(offsetMs: number, stepMs: number): string {
  if (stepMs >= 1000 && stepMs % 1000 === 0) return `+${fmtDuration(offsetMs)}`;
  if (offsetMs < 1000) return `+${Math.round(offsetMs)} ms`;
  const decimals = stepMs >= 100 ? 1 : stepMs >= 10 ? 2 : 3;
  return `+${(offsetMs / 1000).toFixed(decimals)} s`;
}

/** "in 3 h 05 min" / "5 min ago" relative to `now` (sandbox time). */
export function fmtRelative(ms: number, now: number): string {
  if (!Number.isFinite(ms)) return '—';
  const diff = ms - now;
  if (Math.abs(diff) < 1000) return 'now';
  return diff > 0 ? `in ${fmtDuration(diff)}` : `${fmtDuration(diff)} ago`;
}

/** The sandbox clock's offset from real time, for the clock control. */
export function fmtOffset(offsetMs: number): string {
  // The server measures the offset against its own real clock a few ms later: round the jitter away.
  const rounded = Math.round(offsetMs / 1000) * 1000;
  return rounded === 0 ? 'real time' : clockMove(rounded);
}

/**
 * The clock's offset in words for a screen reader, "1 minute ahead of real time", "2 hours 5 minutes behind
 * real time": never "+1 min", which is the name of a step button beside the clock.
 */
export function fmtOffsetWords(offsetMs: number): string {
  const s = Math.round(Math.abs(offsetMs) / 1000);
  if (s === 0) return 'at real time';
  const units: Array<[number, string]> = [
    [Math.floor(s / 86400), 'day'],
    [Math.floor((s % 86400) / 3600), 'hour'],
    [Math.floor((s % 3600) / 60), 'minute'],
    [s % 60, 'second'],
  ];
  // the two largest units, as the badge shows them ("3 h 05 min", "1 d 2 h")
  const first = units.findIndex(([n]) => n > 0);
  const words = units
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n} ${unit}${n === 1 ? '' : 's'}`)
    .join(' ');
  return `${words} ${offsetMs < 0 ? 'behind' : 'ahead of'} real time`;
}

/** First characters of a long id (uuid), enough to tell ids apart on screen. */
export function shortId(id: string | null | undefined, n = 8): string {
  if (!id) return '—';
  return id.length > n + 1 ? `${id.slice(0, n)}…` : id;
}

/**
 * The end of a long id: ids a storefront makes often share their start (`pl-1796085764…`, a timestamp),
 * so a list of them tells them apart by their end (`…5764-a1b2`).
 */
export function idEnd(id: string, n = 12): string {
  return id.length > n + 1 ? `…${id.slice(-n)}` : id;
}

/** Path and query of a URL, or the text as given when it is not one. */
export function urlPath(url: string | null | undefined): string {
  if (!url) return '—';
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}` || '/';
  } catch {
    return url;
  }
}
