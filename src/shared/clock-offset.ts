// How far the sandbox clock was from real time when an event was received (RecordedEvent.clockOffsetMs):
// what a recorded value may be, how far an event's context.timestamp is from its receipt (the one
// judgement of `timestamp-skew`, live, after a restart and in `check` alike), and the few words that say an
// event was received while the clock was moved (the UI, `tail`, the reports).
import { recordedValue as quoted } from './text';

/** The most an offset can be either way: the sandbox clock keeps the years 2000 to 2099. */
export const MAX_CLOCK_OFFSET_MS = 100 * 366 * 86_400_000;

/**
 * Why `value` is not a recorded clock offset, or null when it is one: `field clockOffsetMs is "1h": it
 * must be …` (the caller puts the file, line or element in front).
 */
export function clockOffsetProblem(value: unknown): string | null {
  if (
    typeof value === 'number' &&
    Number.isInteger(value) &&
    Math.abs(value) <= MAX_CLOCK_OFFSET_MS
  )
    return null;
  return `field clockOffsetMs is ${quoted(value)}: it must be a whole number of milliseconds, the sandbox clock's time minus real time when the event was received (e.g. 3660000 after the clock was advanced PT61M), at most 100 years either way; an event received while the clock ran at real time has none`;
}

/**
 * How far an event's context.timestamp (`timestampMs`) is from its receipt, signed (positive: sent before it
 * arrived): from the sandbox time it was received at (`receivedMs`, its receivedAt), or, when the sandbox
 * clock had been moved, from the real time it was received at, whichever is nearer. A storefront whose clock
 * is right is right by one of the two: real time (a browser), or sandbox time (a test that gave the page the
 * sandbox's clock). Read from the recorded event alone, so the live sandbox, the sandbox after a restart,
 * `check` of its export and the event inspector judge it the same.
 */
export function timestampDifferenceMs(
  receivedMs: number,
  timestampMs: number,
  clockOffsetMs = 0,
): number {
  const sandbox = receivedMs - timestampMs;
  if (clockOffsetMs === 0) return sandbox;
  const real = sandbox - clockOffsetMs;
  return Math.abs(real) < Math.abs(sandbox) ? real : sandbox;
}

/** What `timestamp-skew` measures: the size of timestampDifferenceMs. */
export function timestampSkewMs(
  receivedMs: number,
  timestampMs: number,
  clockOffsetMs = 0,
): number {
  return Math.abs(timestampDifferenceMs(receivedMs, timestampMs, clockOffsetMs));
}

/**
 * A length of time in the words the UI's clock and durations use: "1 d 2 h", "3 h 05 min", "4 min 10 s",
 * "850 ms" (whole seconds from a second on).
 */
export function durationWords(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  const abs = Math.abs(ms);
  if (abs < 1000) return `${Math.round(abs)} ms`;
  const s = Math.floor(abs / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  if (d) return h ? `${d} d ${h} h` : `${d} d`;
  if (h) return m ? `${h} h ${two(m)} min` : `${h} h`;
  if (m) return sec ? `${m} min ${two(sec)} s` : `${m} min`;
  return `${sec} s`;
}

/**
 * How far the sandbox clock is off real time, signed, as the UI's clock says it: `+1 h 01 min`, `−2 h`,
 * `+250 ms` (to the nearest second from a second on).
 */
export function clockMove(offsetMs: number): string {
  const rounded = Math.abs(offsetMs) < 1000 ? offsetMs : Math.round(offsetMs / 1000) * 1000;
  return `${rounded < 0 ? '−' : '+'}${durationWords(rounded)}`;
}

/** `clock moved +1 h 01 min`: an event received while the sandbox clock was off real time; '' when it was not. */
export function clockMovedNote(clockOffsetMs: number | undefined): string {
  return clockOffsetMs ? `clock moved ${clockMove(clockOffsetMs)}` : '';
}
