// A small deterministic generator for randomized tests: the same draws on every run, so a failure repeats.

/** `draw(n)`: a whole number from 0 to n - 1, the next of the sequence `seed` starts. */
export function seededRandom(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s % n;
  };
}
