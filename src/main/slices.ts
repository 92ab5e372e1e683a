// Long work in slices: a loop over a large input (a feed, the retained events, every page) asks its Slicer
// now and then, and gives the event loop back once the slice has run its budget, so beacons, long-polls
// and the UI's stream are answered in between. setImmediate runs after pending I/O: that is the point.

/** A slice's budget: far under the 50 ms no piece of work may hold the loop, with room for a slow machine. */
export const SLICE_MS = 8;

export class Slicer {
  private started = performance.now();

  constructor(private readonly budgetMs = SLICE_MS) {}

  /** true once this slice has used its budget */
  get due(): boolean {
    return performance.now() - this.started >= this.budgetMs;
  }

  /** Give the event loop back when the slice is used up; resolves at once otherwise. */
  breathe(): Promise<void> | void {
    if (this.due) return this.pause();
  }

  /** Give the event loop back now; the next slice starts when it comes back. */
  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}
