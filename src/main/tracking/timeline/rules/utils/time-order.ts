// The order a response keeps its events in, for rules that read them by their timestamps.
import type { TimelineEvent } from '../../model';

/** By timestamp, ties by arrival (seq): for events that have a timestamp. */
export function byTimestamp(a: TimelineEvent, b: TimelineEvent): number {
  return a.tsMs! - b.tsMs! || a.seq - b.seq;
}

/**
 * The events that have a timestamp, by timestamp and then arrival. A response's lists are in that order
 * already (it keeps its events by time and seq, and an event's time is its timestamp where it has one),
 * so the list itself is the answer then, not a copy sorted for every response judged.
 */
export function timedInOrder(events: readonly TimelineEvent[]): readonly TimelineEvent[] {
  for (let i = 0; i < events.length; i++)
    if (events[i]!.tsMs === null || (i > 0 && byTimestamp(events[i - 1]!, events[i]!) > 0))
      return events.filter((e) => e.tsMs !== null).sort(byTimestamp);
  return events;
}
