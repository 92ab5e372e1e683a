// Idle tracking for `no-impression`: pages waiting to count as idle, in deadline order, with one clock timer
// for the earliest deadline (deadlines only grow as events arrive, so a FIFO suffices).
import type { Clock } from '../../clock';
import type { PageState } from './model';

export class IdleQueue {
  private queue: Array<{ page: PageState; at: number }> = [];
  private head = 0;
  private cancelTimer: (() => void) | null = null;
  private armedAt = Infinity;

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
    this.clear();
  }

  private arm(): void {
    const next = this.queue[this.head];
    if (!next) return;
    if (this.cancelTimer && this.armedAt <= next.at) return;
    this.cancelTimer?.();
    this.armedAt = next.at;
    this.cancelTimer = this.clock.at(next.at, () => this.fire());
  }

  private fire(): void {
    this.cancelTimer = null;
    this.armedAt = Infinity;
    const now = this.clock.now();
    while (this.head < this.queue.length && this.queue[this.head]!.at <= now) {
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
