// Idle tracking for `no-impression`: pages waiting to count as idle, in deadline order (a binary heap:
// deadlines come from receive times, which go back when the sandbox clock is set back or an import
// replays older traffic), with one clock timer for the earliest deadline. Many pages can come due at
// once (the clock moved on an hour, 10,000 imported pages): they are handled in slices that give the
// event loop back, as every page judged is a few dozen microseconds.
import type { Clock } from '../../clock';
import { Slicer } from '../../slices';
import type { Page } from './page';

export class IdleQueue {
  /**
   * a min-heap by deadline, ties by push order, kept as three lists side by side (a page, its deadline, its
   * push number at each place): an entry per event pushed, and no object of its own for each (a deadline is
   * kept unboxed in a list of numbers)
   */
  private pages: Page[] = [];
  private ats: number[] = [];
  private ns: number[] = [];
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
    const { pages, ats, ns } = this;
    const n = this.pushed++;
    let i = pages.length;
    pages.push(page);
    ats.push(at);
    ns.push(n);
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (!(at < ats[up]! || (at === ats[up]! && n < ns[up]!))) break;
      this.move(up, i);
      i = up;
    }
    this.place(i, page, at, n);
    this.arm();
  }

  /** Take the earliest entry off the heap and hand it to `due`. */
  private popDue(): void {
    const { pages, ats, ns } = this;
    const page = pages[0]!;
    const at = ats[0]!;
    const lastPage = pages.pop()!;
    const lastAt = ats.pop()!;
    const lastN = ns.pop()!;
    const size = pages.length;
    if (size > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const c = l + 1 < size && this.earlier(l + 1, ats[l]!, ns[l]!) ? l + 1 : l;
        if (!this.earlier(c, lastAt, lastN)) break;
        this.move(c, i);
        i = c;
      }
      this.place(i, lastPage, lastAt, lastN);
    }
    this.due(page, at);
  }

  /** Is the entry at `i` earlier than a deadline `at` pushed `n`th? */
  private earlier(i: number, at: number, n: number): boolean {
    const a = this.ats[i]!;
    return a < at || (a === at && this.ns[i]! < n);
  }

  private move(from: number, to: number): void {
    this.pages[to] = this.pages[from]!;
    this.ats[to] = this.ats[from]!;
    this.ns[to] = this.ns[from]!;
  }

  private place(i: number, page: Page, at: number, n: number): void {
    this.pages[i] = page;
    this.ats[i] = at;
    this.ns[i] = n;
  }

  /**
   * Hand every page whose deadline has passed to `due` now, one per step. A read that comes while a burst
   * is still handled in slices (or before the timer of a deadline just passed has fired) sees every page
   * idle by the clock, not those the slices reached so far: the index and a scan answer alike.
   */
  *dueNow(): Generator<void> {
    const now = this.clock.now();
    while (this.pages.length > 0 && this.ats[0]! <= now) {
      this.popDue();
      yield;
    }
  }

  clear(): void {
    this.pages = [];
    this.ats = [];
    this.ns = [];
  }

  dispose(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
    if (this.resuming) clearImmediate(this.resuming);
    this.resuming = null;
    this.clear();
  }

  private arm(): void {
    // a burst under way re-arms when it is done
    if (this.pages.length === 0 || this.resuming) return;
    const next = this.ats[0]!;
    if (this.cancelTimer && this.armedAt <= next) return;
    this.cancelTimer?.();
    this.armedAt = next;
    this.cancelTimer = this.clock.at(next, () => this.fire());
  }

  private fire(): void {
    this.cancelTimer = null;
    this.armedAt = Infinity;
    this.resuming = null;
    const now = this.clock.now();
    const slice = new Slicer();
    while (this.pages.length > 0 && this.ats[0]! <= now) {
      if (slice.due) {
        this.resuming = setImmediate(() => this.fire());
        return;
      }
      this.popDue();
    }
    this.arm();
  }
}
