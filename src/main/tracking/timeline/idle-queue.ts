// Idle tracking for `no-impression`: pages waiting to count as idle, in deadline order, with one clock timer
// for the earliest deadline (deadlines only grow as events arrive, so a FIFO suffices). Many pages can
// come due at once (the clock moved on an hour, 10,000 imported pages): they are handled in slices that
// give the event loop back, as every page judged is a few dozen microseconds.
import type { Clock } from '../../clock';
import { Slicer } from '../../slices';
import type { PageState } from './model';

export class IdleQueue {
  private queue: Array<{ page: PageState; at: number }> = [];
  private head = 0;
  private cancelTimer: (() => void) | null = null;
  private armedAt = Infinity;
  /** the next slice of due pages, while a burst is being handled */
  private resuming: NodeJS.Immediate | null = null;

  constructor(
    private readonly clock: Clock,
    /** called for each page whose deadline `at` passed (the caller checks it is still current) */
    private readonly due: (page: PageState, at: number) => void,
  ) {}

  push(page: PageState, at: number): void {
    this.queue.push({ page, at });
    this.arm();
  }

  clear(): void {
    this.queue = [];
    this.head = 0;
  }

  dispose(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
    if (this.resuming) clearImmediate(this.resuming);
    this.resuming = null;
    this.clear();
  }

  private arm(): void {
    const next = this.queue[this.head];
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
    while (this.head < this.queue.length && this.queue[this.head]!.at <= now) {
      if (slice.due) {
        this.resuming = setImmediate(() => this.fire());
        return;
      }
      const { page, at } = this.queue[this.head++]!;
      this.due(page, at);
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    this.arm();
  }
}
