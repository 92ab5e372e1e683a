// When the sandbox clock goes back — reset to real time, set back, or a restart (the clock starts at real
// time again while each feed kept the times it had on the advanced clock) — a feed's times measured on
// that clock would hold it for as long as the clock had been moved: a step "ending" a day from now, a
// scheduled index two days off. They are brought within reach so the demo goes on (docs/indexing.md,
// "The clock"): a step in progress that started ahead of the clock starts again at the clock's time and
// lasts its own duration (keeping the running time it had before a pause), and the next index time comes
// back by whole intervals until it is at most one interval ahead. Times that are records of what happened
// (lastIndexed, history entries, the last accepted request) are kept as they were.
import { humanDuration } from '../durations';
import type { FeedRecord } from './feed-db';
import { RESTING_STATES } from './state-machine';

/** What moved, as the feed's history says it; empty when nothing was ahead of the clock. */
export function bringTimesWithinReach(
  rec: FeedRecord,
  interval: number | 'Never',
  now: number,
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
  if (interval !== 'Never' && next !== null && next > now + interval) {
    const back = (Math.ceil((next - now) / interval) - 1) * interval;
    rec.nextIndexTime = next - back;
    said.push(
      `the clock went back: the next index time moved back from ${new Date(next).toISOString()} to ${new Date(rec.nextIndexTime).toISOString()}, at most one interval ahead of the clock`,
    );
  }
  return said;
}
