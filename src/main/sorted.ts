// Lists kept in ascending order of a number (a time, a start): where a value falls in one, by binary
// search, and putting an item in its place. The rules and the visits keep several such lists so that a
// question about "the one before" or "those between" reads a few items, not the whole list.

/** How many of `list` have a key at most `key`: the index of the first with a greater one. */
export function countUpTo<T>(list: readonly T[], key: number, keyOf: (x: T) => number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keyOf(list[mid]!) <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many of `list` have a key below `key`: the index of the first with one at least as great. */
export function countBelow<T>(list: readonly T[], key: number, keyOf: (x: T) => number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keyOf(list[mid]!) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Put `item` after every item whose key is at most its own (so items of one key stay in the order they
 * came). Items mostly come in order: the place is looked for from the end.
 */
export function insertInOrder<T>(list: T[], item: T, keyOf: (x: T) => number): void {
  const key = keyOf(item);
  let at = list.length;
  while (at > 0 && keyOf(list[at - 1]!) > key) at--;
  if (at === list.length) list.push(item);
  else list.splice(at, 0, item);
}
