// How far V8 lets the heap of `search-sandbox check` grow past what it holds. check keeps a live set for
// its whole run (open pages, visits, responseIds' first pages); by its own measure of GC speed V8 grows the
// heap to about three times that set before it collects again. Capped at twice it, a million events
// (`npm run bench -- check`, 1,000,000 events, --format json) peaked at 626 MB instead of 955 MB and ran
// 31.1–31.4 s instead of 33.6–33.8 s (two runs each, alternating; at 1.5 times: 585 MB but 35–39 s). Once
// the live set had shrunk (it is ~126 MB at the end of a million events), 1.85 times it: 371–388 MB peak
// where twice it peaked at 387–416 MB, three times of seven above 400 MB, in 24.7–31.8 s where twice it took
// 24.1–34.6 s (seven runs each, alternating; at 1.75 times: 369–383 MB but 30.9–36.7 s where twice it
// took 27.9–29.9 s). Only the `check` command sets it, in its own process; a user's own V8 heap flags win.
import { setFlagsFromString } from 'node:v8';

/** The growth check runs with: the heap may reach 1.85 times its live set before the next full collection. */
export const CHECK_HEAP_FLAG = '--heap-growing-percent=85';

/** Flags by which a user already chose how the heap grows (on the command line or in NODE_OPTIONS). */
const USER_HEAP_FLAGS =
  /^--(heap-growing-percent|heap_growing_percent|max-old-space-size|max_old_space_size|optimize-for-size|optimize_for_size)\b/;

/** The flag to set, or null when the user's own flags say how the heap grows. */
export function checkHeapFlag(execArgv: readonly string[], nodeOptions = ''): string | null {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)];
  return given.some((f) => USER_HEAP_FLAGS.test(f)) ? null : CHECK_HEAP_FLAG;
}

/** Set it for this process (before check reads its input). */
export function tuneHeapForCheck(): void {
  const flag = checkHeapFlag(process.execArgv, process.env.NODE_OPTIONS);
  if (flag) setFlagsFromString(flag);
}
