// Long work in slices: a loop over a large input (a feed, the retained events, every page) asks its Slicer
// now and then, and gives the event loop back once the slice has run its budget, so beacons, long-polls
// and the UI's stream are answered in between. setImmediate runs after pending I/O: that is the point.

/** A slice's budget: far under the 50 ms no piece of work may hold the loop, with room for a slow machine. */
export const SLICE_MS = 4;

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
    await turn();
    // Work another request waits for may be queued behind this slice (a beacon's journal write is a
    // setImmediate queued after it): run it first, and let what it released (the beacons' answers) go
    // out before the slice goes on. One extra turn at most, so a steady stream cannot stall the slice.
    if (runUrgent()) await turn();
    this.started = performance.now();
  }
}

/** One turn of the event loop: resolves once what is pending (I/O, timers, other immediates) had its go. */
export const turn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

const urgent = new Set<() => boolean>();

/**
 * Register work that must not wait behind a slice of long work; it returns whether it had anything to do.
 * The events journal registers its group commit: a beacon's answer waits for it. Returns the unregister.
 */
export function beforeEachSlice(work: () => boolean): () => void {
  urgent.add(work);
  return () => urgent.delete(work);
}

function runUrgent(): boolean {
  let did = false;
  for (const work of urgent) {
    try {
      did = work() || did;
    } catch (err) {
      console.error('search-sandbox: work run before a slice failed:', err);
    }
  }
  return did;
}
