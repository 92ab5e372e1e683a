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

/** elements sorted or merged between two looks at the slice's clock */
const SORT_STEP = 2048;

/**
 * A stable sort in slices (bottom-up merge sort): `cmp` as Array.prototype.sort takes it. For a comparator
 * that orders consistently (a total preorder) any stable sort gives the same order, so this one answers as
 * `list.sort(cmp)` would; runs of SORT_STEP are sorted by the engine's own sort first. Returns a new array.
 */
export async function sortInSlices<T>(
  list: readonly T[],
  cmp: (a: T, b: T) => number,
  slicer = new Slicer(),
): Promise<T[]> {
  let src: T[] = [];
  for (let i = 0; i < list.length; i += SORT_STEP) {
    const run = list.slice(i, i + SORT_STEP).sort(cmp);
    for (const x of run) src.push(x);
    await slicer.breathe();
  }
  let dst: T[] = new Array<T>(src.length);
  for (let width = SORT_STEP; width < src.length; width *= 2) {
    let steps = 0;
    for (let lo = 0; lo < src.length; lo += 2 * width) {
      const mid = Math.min(lo + width, src.length);
      const hi = Math.min(lo + 2 * width, src.length);
      let a = lo;
      let b = mid;
      let k = lo;
      while (a < mid && b < hi) {
        // the left run wins ties: stable
        dst[k++] = cmp(src[b]!, src[a]!) < 0 ? src[b++]! : src[a++]!;
        if (++steps === SORT_STEP) {
          steps = 0;
          await slicer.breathe();
        }
      }
      while (a < mid) dst[k++] = src[a++]!;
      while (b < hi) dst[k++] = src[b++]!;
    }
    [src, dst] = [dst, src];
    await slicer.breathe();
  }
  return src;
}
