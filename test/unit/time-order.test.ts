// Rules read a response's events by timestamp: the list itself when it is in that order (as a response
// keeps it), a sorted copy of the timed ones otherwise.
import { describe, expect, it } from 'vitest';
import type { TimelineEvent } from '../../src/main/tracking/timeline/model';
import { timedInOrder } from '../../src/main/tracking/timeline/rules/utils/time-order';

const ev = (seq: number, tsMs: number | null) => ({ seq, tsMs }) as TimelineEvent;

describe('timedInOrder', () => {
  it('answers the list itself when every event has a timestamp and they are in order (ties by seq)', () => {
    const list = [ev(1, 10), ev(2, 10), ev(3, 20)];
    expect(timedInOrder(list)).toBe(list);
    expect(timedInOrder([])).toEqual([]);
  });

  it('sorts a copy by timestamp, then seq, without the events that have none', () => {
    const list = [ev(3, 20), ev(1, 10), ev(2, null), ev(0, 10)];
    expect(timedInOrder(list).map((e) => e.seq)).toEqual([0, 1, 3]);
    expect(list.map((e) => e.seq)).toEqual([3, 1, 2, 0]);
    // in order but one without a timestamp: a copy without it
    const gap = [ev(1, 10), ev(2, null), ev(3, 20)];
    expect(timedInOrder(gap).map((e) => e.seq)).toEqual([1, 3]);
    // equal timestamps out of seq order
    expect(timedInOrder([ev(2, 10), ev(1, 10)]).map((e) => e.seq)).toEqual([1, 2]);
  });
});
