// Idle tracking for `no-impression`: pages waiting to count as idle, in deadline order (a binary heap:
// deadlines come from receive times, which go back when the sandbox clock is set back or an import
// replays older traffic), with one clock timer for the earliest deadline. Many pages can come due at
// once (the clock moved on an hour, 10,000 imported pages): they are handled in slices that give the
// event loop back, as every page judged is a few dozen microseconds.
import type { Clock } from '../../clock';
import { Slicer } from '../../slices';
import type { Page } from './page';

export class IdleQueue {
  /** a min-heap by `at`, ties by push order */
  private heap: Array<{ page: Page; at: number; n: number }> = [];
  private pushed = 0;
  private cancelTimer: (() => void) | null = null;
  private armedAt = Infinity;
  /** the next slice of due pages, while a burst is being handled */
  private resuming: NodeJS.Immediate | null = null;

  constructor(
    private readonly clock: Clock,
    /** called for each page whose deadline `at` passed (the caller checks it is still current) */
    private readonly due: (page: Page, at: number) => void,
  ) {}

  push(page: Page, at: number): void {
    const heap = this.heap;
    const entry = { page, at, n: this.pushed++ };
    let i = heap.push(entry) - 1;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (!earlier(entry, heap[up]!)) break;
      heap[i] = heap[up]!;
      i = up;
    }
    heap[i] = entry;
    this.arm();
  }

  private pop(): { page: Page; at: number } {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= heap.length) break;
        const c = l + 1 < heap.length && earlier(heap[l + 1]!, heap[l]!) ? l + 1 : l;
        if (!earlier(heap[c]!, last)) break;
        heap[i] = heap[c]!;
        i = c;
      }
      heap[i] = last;
    }
    return top;
  }

  clear(): void {
    this.heap = [];
  }

  dispose(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
    if (this.resuming) clearImmediate(this.resuming);
    this.resuming = null;
    this.clear();
  }

  private arm(): void {
    const next = this.heap[0];
    // a burst under way re-arms when it is done
    if (!next || this.resuming) return;
    if (this.cancelTimer && this.armedAt <= next.at) return;
    this.cancelTimer?.();
    this.armedAt = next.at;
    this.cancelTimer = this.clock.at(next.at, () => this.fire());
  }

  private fire(): void {
    this.cancelTimer = null;
    this.armedAt = Infinity;
    this.resuming = null;
    const now = this.clock.now();
    const slice = new Slicer();
    while (this.heap.length > 0 && this.heap[0]!.at <= now) {
      if (slice.due) {
        this.resuming = setImmediate(() => this.fire());
        return;
      }
      const { page, at } = this.pop();
      this.due(page, at);
    }
    this.arm();
  }
}

function earlier(a: { at: number; n: number }, b: { at: number; n: number }): boolean {
  return a.at < b.at || (a.at === b.at && a.n < b.n);
}
