// How far V8 lets the heap of `search-sandbox check` grow past what it holds. check keeps a live set for
// its whole run (open pages, visits and their clicks, responseIds' first pages); by its own measure of GC
// speed V8 grows the heap to about three times that set before it collects again. Capped at twice it,
// a million events (`npm run bench -- check`, 1,000,000 events, --format json) peaked at 626 MB instead of
// 955 MB and ran 31.1–31.4 s instead of 33.6–33.8 s (two runs each, alternating; at 1.5 times: 585 MB but
// 35–39 s). Only the `check` command sets it, in its own process; a user's own V8 heap flags win.
import { setFlagsFromString } from 'node:v8';

/** The growth check runs with: the heap may reach twice its live set before the next full collection. */
export const CHECK_HEAP_FLAG = '--heap-growing-percent=100';

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
