// When the sandbox clock goes back — reset to real time, set back, or a restart (the clock starts at real
// time again while each feed kept the times it had on the advanced clock) — a feed's times measured on
// that clock would hold it for as long as the clock had been moved: a step "ending" a day from now, a
// scheduled index two days off. They are brought within reach so the demo goes on (docs/indexing.md,
// "The clock"): a step in progress that started ahead of the clock starts again at the clock's time and
// lasts its own duration (keeping the running time it had before a pause), and the next index time comes
// back by whole intervals until it is at most one interval ahead — but never to or before the last index's
// finish time, as the real service never shows it: when that finish is itself ahead of the clock, the next
// index time is the first of the schedule after it. Times that are records of what happened (lastIndexed,
// history entries, the last accepted request) are kept as they were.
import { humanDuration, nextAfter } from '../durations';
import type { FeedRecord } from './feed-db';
import { RESTING_STATES } from './state-machine';

/**
 * What moved, as the feed's history says it; empty when nothing was ahead of the clock. `wentBack`: a
 * next index time kept after a last index ahead of the clock is said too (not again on each move on).
 */
export function bringTimesWithinReach(
  rec: FeedRecord,
  interval: number | 'Never',
  now: number,
  wentBack = true,
): string[] {
  const said: string[] = [];
  // a resting feed's step start is only when it came to rest; a paused one has none running
  const timed = !RESTING_STATES.includes(rec.state) && rec.state !== 'paused';
  if (timed && rec.stepStartedAt !== null && rec.stepStartedAt > now) {
    said.push(
      `the clock went back ${humanDuration(rec.stepStartedAt - now)} before the start of the current step ("${rec.state}", started on the advanced clock): the step starts again at the clock's time and takes its own duration`,
    );
    rec.stepStartedAt = now;
  }
  const next = rec.nextIndexTime;
  if (interval !== 'Never' && next !== null) {
    const moved = nextIndexWithinReach(next, interval, rec.lastIndexed, now);
    // a time that stays is said once: a second restart with the same times has nothing new to say
    const saidAlready = moved?.to === next && rec.history.at(-1)?.detail === moved.said;
    if (moved && (moved.to !== next || (wentBack && !saidAlready))) {
      rec.nextIndexTime = moved.to;
      said.push(moved.said);
    }
  }
  return said;
}

/** The next index time brought within reach, and what the history says of it; null when it stays. */
function nextIndexWithinReach(
  next: number,
  interval: number,
  last: number | null,
  now: number,
): { to: number; said: string } | null {
  const iso = (ms: number) => new Date(ms).toISOString();
  const lastIndex = `the last index (finished ${iso(last ?? now)}, ahead of the clock)`;
  if (last !== null && next <= last) {
    // kept by a version that moved it back past the last index: the pair the status API shows is put right
    const to = nextAfter(next, interval, last);
    return {
      to,
      said: `the next index time ${iso(next)} was not after ${lastIndex}: it is now ${iso(to)}, the first of the schedule after it`,
    };
  }
  if (next <= now + interval) return null;
  const to = scheduleBack(next, interval, Math.max(now, last ?? now));
  if (to === next)
    return {
      to,
      said: `the clock went back: the next index time stays ${iso(next)}, the first of the schedule after ${lastIndex}; request an index, or advance the clock, to index sooner`,
    };
  const why =
    to > now + interval
      ? `the first of the schedule after ${lastIndex}`
      : 'at most one interval ahead of the clock';
  return {
    to,
    said: `the clock went back: the next index time moved back from ${iso(next)} to ${iso(to)}, ${why}`,
  };
}

/**
 * `next` moved back by whole intervals (the same time of day for 24h) to the first time of its schedule
 * after `after`; never forward. The status API, as the real service's, never shows a next index time at
 * or before the last index's finish time, and no more than one interval after it once the feed indexed.
 */
export function scheduleBack(next: number, interval: number, after: number): number {
  if (next <= after + interval) return next;
  return next - (Math.ceil((next - after) / interval) - 1) * interval;
}
