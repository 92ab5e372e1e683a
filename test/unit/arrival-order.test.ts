// The reorder window of recorded events: arrival order restored within it, bare bodies kept in place, an
// event too far out of place handed on where read and counted.
import { describe, expect, it } from 'vitest';
import { ArrivalOrder } from '../../src/main/recordings/arrival-order';
import type { RecordedEvent } from '../../src/shared/events';

/** Events read in the order of `arrivals` (undefined: a bare body), through a window of `window`. */
function through(arrivals: Array<number | undefined>, window: number) {
  const order = new ArrivalOrder(window);
  const out: Array<{ id: string; seq: number }> = [];
  arrivals.forEach((arrival, i) => {
    const event = { id: `e${i}`, seq: 100 + i } as RecordedEvent;
    for (const e of order.add(event, arrival)) out.push({ id: e.id, seq: e.seq });
  });
  for (const e of order.flush()) out.push({ id: e.id, seq: e.seq });
  return { ids: out.map((e) => e.id), seqs: out.map((e) => e.seq), late: order.late };
}

describe('ArrivalOrder', () => {
  it('hands events on by arrival within the window, numbered in the order handed on', () => {
    const r = through([3, 1, 2, 5, 4], 10);
    expect(r.ids).toEqual(['e1', 'e2', 'e0', 'e4', 'e3']);
    expect(r.seqs).toEqual([100, 101, 102, 103, 104]);
    expect(r.late).toBe(0);
  });

  it('keeps a bare body in its place, after every event read before it', () => {
    expect(through([2, 1, undefined, 0], 10).ids).toEqual(['e1', 'e0', 'e2', 'e3']);
  });

  it('counts an event further out of place than the window and hands it on where read', () => {
    const r = through([5, 6, 7, 1], 2);
    expect(r.ids).toEqual(['e0', 'e3', 'e1', 'e2']);
    expect(r.late).toBe(1);
  });

  it('keeps the file order of events that arrived at once', () => {
    expect(through([1, 1, 1], 10).ids).toEqual(['e0', 'e1', 'e2']);
  });
});
