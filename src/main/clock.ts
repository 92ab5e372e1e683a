// The sandbox clock: real time plus an offset that tests and users can advance or set (test-clock style).
// Domain code only sees `Clock`; timers scheduled with `at()` fire when sandbox time reaches them,
// whether real time passes or the clock is moved forward.

export interface Clock {
  /** sandbox time, ms since the epoch */
  now(): number;
  /** run `fn` once sandbox time reaches `when` (immediately, on a microtask, if it already has); returns cancel */
  at(when: number, fn: () => void): () => void;
  /**
   * sandbox time minus real time now, whole ms: exactly 0 while the clock runs at real time (never moved,
   * or reset), so an event recorded then carries none (RecordedEvent.clockOffsetMs)
   */
  readonly offset: number;
}

interface Timer {
  when: number;
  seq: number;
  fn: () => void;
}

/**
 * The furthest the sandbox clock moves forward at once (advanced, or set ahead). Every timer on the way
 * fires at its own time (each feed's scheduled indexes), so a move of a million days held the event loop
 * for seconds and its indexes caught up for minutes; a year holds every schedule a demo or a test needs.
 */
export const MAX_CLOCK_MOVE_MS = 366 * 86_400_000;

/** The earliest and latest instants the clock is set to: dates every part of the sandbox can write. */
export const CLOCK_RANGE = { from: Date.UTC(2000, 0, 1), to: Date.UTC(2100, 0, 1) };

/** Why the clock cannot move from `now` to `target`, or null when it can. */
export function clockMoveProblem(now: number, target: number): string | null {
  if (target - now > MAX_CLOCK_MOVE_MS)
    return `is more than 366 days ahead of the sandbox time (${new Date(now).toISOString()}): the clock moves forward at most 366 days at a time (every scheduled index on the way runs); move it in steps`;
  if (target < CLOCK_RANGE.from || target >= CLOCK_RANGE.to)
    return 'is outside the years 2000 to 2099 the sandbox clock keeps';
  return null;
}

/** A Clock whose time can be advanced, set and reset; `frozen` clocks move only when told (unit tests). */
export class SandboxClock implements Clock {
  private offsetMs = 0;
  private frozenAt: number | null;
  private timers: Timer[] = [];
  private seq = 0;
  private realTimer: ReturnType<typeof setTimeout> | null = null;
  private listeners = new Set<(now: number) => void>();

  constructor(
    options: { start?: number; frozen?: boolean } = {},
    private readonly realNow: () => number = Date.now,
  ) {
    this.frozenAt = options.frozen ? (options.start ?? realNow()) : null;
    if (!options.frozen && options.start !== undefined) this.offsetMs = options.start - realNow();
  }

  now(): number {
    return this.frozenAt ?? this.realNow() + this.offsetMs;
  }

  get frozen(): boolean {
    return this.frozenAt !== null;
  }

  get offset(): number {
    // from what the clock keeps, not two readings of real time (which may straddle a millisecond): a
    // clock at real time is 0 exactly; a frozen one is as far from real time as real time has moved on
    return Math.round(this.frozenAt === null ? this.offsetMs : this.frozenAt - this.realNow()) || 0;
  }

  at(when: number, fn: () => void): () => void {
    const timer: Timer = { when, seq: this.seq++, fn };
    this.timers.push(timer);
    this.timers.sort((a, b) => a.when - b.when || a.seq - b.seq);
    this.armRealTimer();
    if (when <= this.now()) queueMicrotask(() => this.fireDue());
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
      this.armRealTimer();
    };
  }

  /** Move sandbox time forward by `ms` (never backwards), firing due timers in time order. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0)
      throw new RangeError(`advance needs a duration >= 0 ms, got ${ms}`);
    // a running clock ends exactly `ms` further from real time: the real milliseconds the move itself
    // takes (firing timers) are not taken off the offset, so PT10M reads as an offset of 600000 ms
    this.moveTo(this.now() + ms, this.offsetMs + ms);
  }

  /** Set sandbox time; timers whose time has come fire. Setting it back does not re-fire anything. */
  set(epochMs: number): void {
    if (!Number.isFinite(epochMs)) throw new RangeError(`set needs a time, got ${epochMs}`);
    this.moveTo(epochMs);
  }

  /** Back to real time (unfrozen, no offset). */
  reset(): void {
    this.frozenAt = null;
    this.offsetMs = 0;
    this.changed();
  }

  onChange(listener: (now: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stop the real-time timer so a closing process can exit. */
  dispose(): void {
    if (this.realTimer) clearTimeout(this.realTimer);
    this.realTimer = null;
    this.timers = [];
    this.listeners.clear();
  }

  private moveTo(target: number, offsetAfter?: number): void {
    // Fire timers one at a time at their own time, so a timer that schedules another inside the window sees it fire too.
    for (;;) {
      const next = this.timers[0];
      if (!next || next.when > target) break;
      if (next.when > this.now()) this.setNow(next.when);
      this.timers.shift();
      next.fn();
    }
    this.setNow(target);
    if (offsetAfter !== undefined && this.frozenAt === null) this.offsetMs = offsetAfter;
    this.armRealTimer();
    this.changed();
  }

  private setNow(t: number): void {
    if (this.frozenAt !== null) this.frozenAt = t;
    else this.offsetMs = t - this.realNow();
  }

  private fireDue(): void {
    const now = this.now();
    while (this.timers[0] && this.timers[0].when <= now) {
      const timer = this.timers.shift()!;
      timer.fn();
    }
    this.armRealTimer();
  }

  private armRealTimer(): void {
    if (this.realTimer) clearTimeout(this.realTimer);
    this.realTimer = null;
    const next = this.timers[0];
    if (!next || this.frozenAt !== null) return;
    // Cap the wait so a long timer still fires near its time after the machine sleeps.
    const wait = Math.min(Math.max(0, next.when - this.now()), 60_000);
    this.realTimer = setTimeout(() => this.fireDue(), wait);
    this.realTimer.unref?.();
  }

  private changed(): void {
    const now = this.now();
    for (const l of this.listeners) l(now);
  }
}

/** ISO 8601 with milliseconds, UTC. */
export function iso(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
