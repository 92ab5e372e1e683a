// The known names nearest to an unknown one (a typo, a word of it, a name of another version), so that an
// error can say what was meant: `forwrd` → `forward`, `dupes` → `duplicate-impression`. Used where a user
// types a name the sandbox knows a list of: config keys, rule ids, the admin API's rule lookup.

/**
 * The words of a name that say something: `duplicate-impression` and `forwardTimeoutMs` alike, lower case,
 * without those of one or two letters (`no`, `of`, `id`: shared by names that have nothing else in common).
 */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 2);
}

/**
 * Up to `max` of `names` nearest to `given`, best first. A typo: those within a few edits of it (about one
 * in four characters, at least two), nearest first, and only those. Else a word of one: those sharing a word
 * with it, more words first. None when nothing is near.
 */
export function nearestNames(given: string, names: readonly string[], max = 3): string[] {
  const scored = scoredNames(given, names);
  const close = typos(scored, max, given);
  if (close.length > 0) return close;
  const words = new Set(wordsOf(given));
  return scored
    .map((s) => ({ ...s, shared: wordsOf(s.name).filter((w) => words.has(w)).length }))
    .filter((s) => s.shared > 0)
    .sort((a, b) => b.shared - a.shared || a.distance - b.distance)
    .slice(0, max)
    .map((s) => s.name);
}

/**
 * The one of `names` within a few edits of `given` (a typo), if any: for names that share words by their
 * nature (field paths all starting `data.`), where a shared word says nothing.
 */
export function nearestTypo(given: string, names: readonly string[]): string | undefined {
  return typos(scoredNames(given, names), 1, given)[0];
}

interface Scored {
  name: string;
  distance: number;
  bound: number;
}

function scoredNames(given: string, names: readonly string[]): Scored[] {
  const lower = given.toLowerCase();
  return names.map((name) => ({
    name,
    distance: editDistance(lower, name.toLowerCase()),
    bound: Math.max(2, Math.floor(name.length / 4)),
  }));
}

/**
 * Those within about one edit in four characters (at least two), nearest first; never one that changes half
 * of what was typed or more (`nope` is not a typo of `mode`: two of its four letters are other letters).
 */
function typos(scored: Scored[], max: number, given: string): string[] {
  return scored
    .filter((s) => s.distance <= s.bound && s.distance * 2 < given.length)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, max)
    .map((s) => s.name);
}

/** `did you mean a, b? ` for an error message (its own trailing space), or '' when nothing is near. */
export function didYouMean(given: string, names: readonly string[]): string {
  const near = nearestNames(given, names);
  return near.length ? `did you mean ${near.join(', ')}? ` : '';
}

/** Edits from `a` to `b`, a swap of two neighbouring letters one edit (`prot` is one from `port`). */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(
        row[j]! + 1,
        next[j - 1]! + 1,
        row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        next[j] = Math.min(next[j]!, before[j - 2]! + 1);
    }
    before = row;
    row = next;
  }
  return row[b.length]!;
}
