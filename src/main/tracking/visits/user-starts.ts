// Which of a userId's visits began last before another: `session-renewed` asks it of each visit's first
// page. Read from the userId's visits one by one, a userId of thousands of sessions (a load test, a crawler
// with one userId) cost `check` their number squared: one userId's 20,000 sessions took 20 s where 3,000
// shoppers' took 8. A userId of more than a few visits keeps them by start time too, and the answer is a
// binary search; a visit whose start moves earlier (an event from before it arrived late) takes its place
// again.

import { countUpTo, insertInOrder } from '../../sorted';

/** what the index reads of a visit */
interface Started {
  startMs: number;
}

const startOf = (v: Started) => v.startMs;

/** visits a userId has before its visits are kept by start time too (below, reading them all is as quick) */
const INDEXED_FROM = 16;

export class UserStarts<V extends Started> {
  /** per userId key, its visits by start time (of one time, in the order they joined) */
  private readonly byUser = new Map<string, V[]>();

  /** `v` joined the visits of `key`, which are now `all`. */
  added(key: string, v: V, all: ReadonlySet<V>): void {
    const starts = this.byUser.get(key);
    if (starts) insertInOrder(starts, v, startOf);
    else if (all.size > INDEXED_FROM)
      // a stable sort of the set's order: of one start time, in the order they joined
      this.byUser.set(
        key,
        [...all].sort((a, b) => a.startMs - b.startMs),
      );
  }

  /** `v` left the visits of `key` (`left`: how many remain). */
  removed(key: string, v: V, left: number): void {
    const starts = this.byUser.get(key);
    if (!starts) return;
    if (left === 0) {
      this.byUser.delete(key);
      return;
    }
    const at = starts.indexOf(v);
    if (at >= 0) starts.splice(at, 1);
  }

  /** `v`'s start moved earlier: its place in `key`'s visits too. */
  restarted(key: string, v: V): void {
    const starts = this.byUser.get(key);
    if (!starts) return;
    const at = starts.indexOf(v);
    if (at >= 0) starts.splice(at, 1);
    insertInOrder(starts, v, startOf);
  }

  clear(): void {
    this.byUser.clear();
  }

  /**
   * Of `all` (the visits of `key`), the one other than `visit` that began latest at or before it did (of
   * one start time, the first to join); undefined when none did.
   */
  previous(key: string, visit: V, all: Iterable<V> | undefined): V | undefined {
    const starts = this.byUser.get(key);
    if (!starts) {
      let prev: V | undefined;
      for (const v of all ?? [])
        if (v !== visit && v.startMs <= visit.startMs && (!prev || v.startMs > prev.startMs))
          prev = v;
      return prev;
    }
    // the last that began at or before it, itself aside
    let last = countUpTo(starts, visit.startMs, startOf) - 1;
    while (last >= 0 && starts[last] === visit) last--;
    if (last < 0) return undefined;
    // of that start time, the first to join
    const startMs = starts[last]!.startMs;
    let first = last;
    while (first > 0 && starts[first - 1]!.startMs === startMs) first--;
    for (let i = first; i <= last; i++) if (starts[i] !== visit) return starts[i];
    return undefined;
  }
}
