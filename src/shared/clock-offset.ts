// How far the sandbox clock was from real time when an event was received (RecordedEvent.clockOffsetMs):
// what a recorded value may be, how far an event's context.timestamp is from its receipt (the one
// judgement of `timestamp-skew`, live, after a restart and in `check` alike), and the few words that say an
// event was received while the clock was moved (the UI, `tail`, the reports).

/** The most an offset can be either way: the sandbox clock keeps the years 2000 to 2099. */
export const MAX_CLOCK_OFFSET_MS = 100 * 366 * 86_400_000;

/** A recorded value as a message quotes it: JSON, its first 40 characters. */
function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

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
 * How far an event's context.timestamp (`timestampMs`) is from its receipt: from the sandbox time it was
 * received at (`receivedMs`, its receivedAt), or, when the sandbox clock had been moved, from the real
 * time it was received at, whichever is nearer. A storefront whose clock is right is right by one of the
 * two: real time (a browser), or sandbox time (a test that gave the page the sandbox's clock). Read from
 * the recorded event alone, so the live sandbox, the sandbox after a restart and `check` of its export
 * judge it the same.
 */
export function timestampSkewMs(
  receivedMs: number,
  timestampMs: number,
  clockOffsetMs = 0,
): number {
  const sandbox = Math.abs(receivedMs - timestampMs);
  if (clockOffsetMs === 0) return sandbox;
  return Math.min(sandbox, Math.abs(receivedMs - clockOffsetMs - timestampMs));
}

/** An offset in a few characters, signed: `+1h01m`, `-2h`, `+3d 4h`, `+45s`, `+250ms`. */
export function clockMove(offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const abs = Math.abs(Math.round(offsetMs));
  if (abs < 1000) return `${sign}${abs}ms`;
  const s = Math.round(abs / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  if (d > 0) return `${sign}${d}d${h ? ` ${h}h` : ''}`;
  if (h > 0) return `${sign}${h}h${m ? `${two(m)}m` : ''}`;
  if (m > 0) return `${sign}${m}m${sec ? `${two(sec)}s` : ''}`;
  return `${sign}${sec}s`;
}

/** `clock moved +1h01m`: an event received while the sandbox clock was off real time; '' when it was not. */
export function clockMovedNote(clockOffsetMs: number | undefined): string {
  return clockOffsetMs ? `clock moved ${clockMove(clockOffsetMs)}` : '';
}
