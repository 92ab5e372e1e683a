// How soon a client asks the sandbox the same costly question again (the UI's text and event-type filters,
// as pages change): at least `minMs` after it last asked, and at least `cost` times what the last answer
// took after it, so that a slow answer is asked less often and the sandbox stays mostly free for beacons.

/** ms to wait before asking again, `sinceAskedMs` after the last ask, whose answer took `lastTookMs`. */
export function askAgainIn(
  sinceAskedMs: number,
  lastTookMs: number,
  minMs: number,
  cost: number,
): number {
  return Math.max(0, Math.max(minMs, cost * lastTookMs) - sinceAskedMs);
}
