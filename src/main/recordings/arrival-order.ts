// Recorded events (NDJSON of an export's events, the admin API's) in the order the sandbox received them,
// not the order their lines were written in: a file sorted by hand, merged, or reversed still says, in each
// event's `seq` (or, without one, its `receivedAt`), which came first, and the rules judge that order, as
// the live sandbox did. NDJSON is read as a stream, so the order is restored within a window of the last
// WINDOW events read; an event that arrived before one already handed on, further back than the window,
// is handed on where it was read, and counted (the reader says how many). Bare beacon bodies carry no
// arrival: they keep their place in the file, and the events before them are handed on first.
import type { RecordedEvent } from '../../shared/events';
import { isObject } from '../../shared/values';

/** How many recorded events are held to restore their arrival order (about 20 MB of events at most). */
export const ARRIVAL_WINDOW = 10_000;

interface Held {
  /** the sandbox's arrival: its seq, else receivedAt in ms */
  arrival: number;
  /** its line's place among those read: equal arrivals keep the file's order */
  read: number;
  event: RecordedEvent;
}

/** A line's arrival as the sandbox recorded it: seq, else receivedAt; undefined for a bare body. */
export function arrivalOf(line: unknown): number | undefined {
  if (!isObject(line) || !('body' in line)) return undefined;
  if (typeof line.seq === 'number' && Number.isFinite(line.seq)) return line.seq;
  if (typeof line.receivedAt !== 'string') return undefined;
  const ms = Date.parse(line.receivedAt);
  return Number.isNaN(ms) ? undefined : ms;
}

const before = (a: Held, b: Held) =>
  a.arrival < b.arrival || (a.arrival === b.arrival && a.read < b.read);

/**
 * The events read, handed on in arrival order within the window. Each event handed on gets the next of the
 * reader's `seq` numbers, so the rules see them numbered in the order they apply them.
 */
export class ArrivalOrder {
  private readonly heap: Held[] = [];
  private read = 0;
  private last = -Infinity;
  private nextSeq: number | undefined;
  /** events that arrived before one handed on already, further back than the window */
  late = 0;

  constructor(private readonly window = ARRIVAL_WINDOW) {}

  /** An event with its arrival (undefined: a bare body, which keeps its place); the events now due. */
  *add(event: RecordedEvent, arrival: number | undefined): Generator<RecordedEvent> {
    this.nextSeq ??= event.seq;
    if (arrival === undefined) {
      yield* this.flush();
      yield this.numbered(event);
      return;
    }
    if (arrival < this.last) {
      // too late to be put back in its place: judged where it was read
      this.late++;
      yield this.numbered(event);
      return;
    }
    this.push({ arrival, read: this.read++, event });
    if (this.heap.length > this.window) yield this.numbered(this.pop());
  }

  /** Every event held, in arrival order (at the end of the input, or before a bare body). */
  *flush(): Generator<RecordedEvent> {
    while (this.heap.length > 0) yield this.numbered(this.pop());
  }

  private numbered(event: RecordedEvent): RecordedEvent {
    event.seq = this.nextSeq!++;
    return event;
  }

  private push(h: Held): void {
    const heap = this.heap;
    heap.push(h);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  private pop(): RecordedEvent {
    const heap = this.heap;
    const top = heap[0]!;
    const end = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = end;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && before(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && before(heap[r]!, heap[m]!)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    }
    this.last = top.arrival;
    return top.event;
  }
}
