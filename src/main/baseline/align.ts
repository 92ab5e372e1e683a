// Alignment of two sequences by their keys (a longest common subsequence): what is only in one of them is
// named once and the rest still pairs up. Common ends are taken first; the table in between is bounded, and
// past the bound the middle pairs greedily (each key to its next occurrence), which stays linear.

/** A pair of places (`b` and `c` indexes); -1 on the side where the item is not. In order. */
export type Step = readonly [b: number, c: number];

const MAX_CELLS = 4_000_000;

export function align(base: readonly string[], current: readonly string[]): Step[] {
  const steps: Step[] = [];
  let start = 0;
  while (start < base.length && start < current.length && base[start] === current[start]) {
    steps.push([start, start]);
    start++;
  }
  let bEnd = base.length;
  let cEnd = current.length;
  const tail: Step[] = [];
  while (bEnd > start && cEnd > start && base[bEnd - 1] === current[cEnd - 1]) {
    bEnd--;
    cEnd--;
    tail.push([bEnd, cEnd]);
  }
  const n = bEnd - start;
  const m = cEnd - start;
  if (n * m <= MAX_CELLS) table(base, current, start, bEnd, start, cEnd, steps);
  else greedy(base, current, start, bEnd, start, cEnd, steps);
  for (let i = tail.length - 1; i >= 0; i--) steps.push(tail[i]!);
  return steps;
}

function table(
  base: readonly string[],
  current: readonly string[],
  b0: number,
  b1: number,
  c0: number,
  c1: number,
  steps: Step[],
): void {
  const n = b1 - b0;
  const m = c1 - c0;
  // lcs[i][j]: the common length of base[b0+i..] and current[c0+j..]
  const lcs = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[at(i, j)] =
        base[b0 + i] === current[c0 + j]
          ? lcs[at(i + 1, j + 1)]! + 1
          : Math.max(lcs[at(i + 1, j)]!, lcs[at(i, j + 1)]!);
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (base[b0 + i] === current[c0 + j]) steps.push([b0 + i++, c0 + j++]);
    else if (lcs[at(i + 1, j)]! >= lcs[at(i, j + 1)]!) steps.push([b0 + i++, -1]);
    else steps.push([-1, c0 + j++]);
  }
  while (i < n) steps.push([b0 + i++, -1]);
  while (j < m) steps.push([-1, c0 + j++]);
}

function greedy(
  base: readonly string[],
  current: readonly string[],
  b0: number,
  b1: number,
  c0: number,
  c1: number,
  steps: Step[],
): void {
  // where each key comes next in current
  const next = new Map<string, number[]>();
  for (let j = c1 - 1; j >= c0; j--) {
    const list = next.get(current[j]!);
    if (list) list.push(j);
    else next.set(current[j]!, [j]);
  }
  let j = c0;
  for (let i = b0; i < b1; i++) {
    const list = next.get(base[i]!);
    while (list && list.length > 0 && list[list.length - 1]! < j) list.pop();
    const to = list?.pop();
    if (to === undefined) {
      steps.push([i, -1]);
      continue;
    }
    while (j < to) steps.push([-1, j++]);
    steps.push([i, j++]);
  }
  while (j < c1) steps.push([-1, j++]);
}
