// How far V8 lets the heap grow past what it holds, for the two long-lived kinds of process we start.
//
// `search-sandbox check` keeps a live set for its whole run (open pages, visits, responseIds' first pages), and
// V8 by its own measure grows the heap to about three times that set before it collects again; 1.85 times it
// keeps a million events under 400 MB without slowing the run (the trials: docs/benchmarks.md, "check's heap").
// Only the `check` command sets it, in its own process; a user's own V8 heap flags win.
//
// The sandbox (`serve`, the desktop app): what reads a big store (a report reads every page's events back) leaves
// garbage by the hundred megabytes, and on a machine with memory to spare V8 lets such a heap reach up to four
// times its live set before a full collection. While the live heap is big, growth is capped at 1.3 times it; a
// small heap keeps V8's own choice, which collects less often (ingest pays for every full collection of a heap
// that grows by a few megabytes). `startSandbox()` runs in the user's own process and sets nothing there.
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The growth check runs with: the heap may reach 1.85 times its live set before the next full collection. */
export const CHECK_HEAP_FLAG = '--heap-growing-percent=85';

/** Flags by which a user already chose how the heap grows (on the command line or in NODE_OPTIONS). */
const USER_HEAP_FLAGS =
  /^--(heap-growing-percent|heap_growing_percent|max-old-space-size|max_old_space_size|optimize-for-size|optimize_for_size)\b/;

/** The user's own flags (on the command line or in NODE_OPTIONS) say how the heap grows. */
export function userChoseHeap(execArgv: readonly string[], nodeOptions = ''): boolean {
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((f) => USER_HEAP_FLAGS.test(f));
}

/** The flag to set, or null when the user's own flags say how the heap grows. */
export function checkHeapFlag(execArgv: readonly string[], nodeOptions = ''): string | null {
  return userChoseHeap(execArgv, nodeOptions) ? null : CHECK_HEAP_FLAG;
}

/** Set it for this process (before check reads its input). */
export function tuneHeapForCheck(): void {
  const flag = checkHeapFlag(process.execArgv, process.env.NODE_OPTIONS);
  if (flag) setFlagsFromString(flag);
}

/** The sandbox's cap: on above `capAbove` bytes held after a full collection, off again below `freeBelow`. */
export const SERVE_HEAP = {
  capAbove: 256 * 1024 * 1024,
  freeBelow: 192 * 1024 * 1024,
  flag: '--heap-growing-percent=30',
  /** V8's own dynamic growth */
  off: '--heap-growing-percent=0',
} as const;

/** Decides, after each full collection, whether the cap goes on or off (a flag to set) or stays (null). */
export class HeapGrowthCap {
  private capped = false;

  after(liveBytes: number): string | null {
    const capped = this.capped
      ? liveBytes >= SERVE_HEAP.freeBelow
      : liveBytes > SERVE_HEAP.capAbove;
    if (capped === this.capped) return null;
    this.capped = capped;
    return capped ? SERVE_HEAP.flag : SERVE_HEAP.off;
  }
}

/**
 * Cap the sandbox process's heap growth while its live heap is big (see the top of this file), unless the
 * user's own flags say how it grows. Returns the stop.
 */
export function capHeapGrowth(
  setFlags: (flag: string) => void = setFlagsFromString,
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS,
): () => void {
  if (userChoseHeap(execArgv, nodeOptions)) return () => undefined;
  const cap = new HeapGrowthCap();
  const observer = new PerformanceObserver((list) => {
    const major = list
      .getEntries()
      .some(
        (e) =>
          (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ===
          constants.NODE_PERFORMANCE_GC_MAJOR,
      );
    if (!major) return;
    // read just after the collection: what it kept, and what was made since (little)
    const flag = cap.after(getHeapStatistics().used_heap_size);
    if (flag) setFlags(flag);
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}

/** A replay of at least this many stored events is followed by one compacting collection (`compactAfterReplay`). */
export const COMPACT_AFTER_REPLAYED = 100_000;

/**
 * After the store was replayed at start (the journal read back, the timelines rebuilt from it): one full
 * collection that moves what the heap holds onto as few pages as it can, and gives the rest back. A
 * million events replayed leave ~0.6 GB held on ~1.2 GB of pages (the replay's garbage is spread among
 * what stays, and V8's own collections compact only the emptiest pages): 1.9 GB of RSS after a restart,
 * 1.3 GB after the same events were imported (`npm run bench -- store`). It takes a few seconds, once,
 * before the sandbox listens. Only where the sandbox owns the process (`serve`, the desktop app): it sets
 * V8 flags (`--expose-gc`, for a new context's `gc`, and compaction of every page for that one collection).
 * Given as `createSandbox`'s `afterReplay`; returns whether it ran.
 */
export function compactAfterReplay(
  replayed: number,
  setFlags: (flag: string) => void = setFlagsFromString,
): boolean {
  if (replayed < COMPACT_AFTER_REPLAYED) return false;
  setFlags('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  setFlags('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    setFlags('--no-compact-on-every-full-gc');
  }
  return true;
}
