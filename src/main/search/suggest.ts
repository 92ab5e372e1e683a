// Query suggestions for autocomplete (`GET /api/suggest/query`), over the words of the catalog's product
// names: the last word typed is completed with the most frequent name words it starts, in the shape the
// provider's Snap client reads (query, suggested {text, type, source}, alternatives [{text}]).
import type { SearchItem } from './items';
import { words } from './query';

export interface SuggestAnswer {
  query: string;
  suggested?: { text: string; type: 'completed'; source: 'product-name' };
  alternatives: Array<{ text: string }>;
}

// A catalog is suggested from many times between re-indexes: its name words are counted once.
const nameWords = new WeakMap<readonly SearchItem[], Array<[string, number]>>();

function countedNameWords(items: readonly SearchItem[]): Array<[string, number]> {
  let list = nameWords.get(items);
  if (!list) {
    const counts = new Map<string, number>();
    for (const item of items)
      for (const row of item.rows)
        for (const w of new Set(words(row.name))) counts.set(w, (counts.get(w) ?? 0) + 1);
    // most frequent first, then alphabetical, so answers are stable
    list = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    nameWords.set(items, list);
  }
  return list;
}

/** Complete the last word of `query` from product names; `count` suggestions at most (suggested included). */
export function suggest(items: readonly SearchItem[], query: string, count: number): SuggestAnswer {
  const typed = words(query);
  const last = typed.at(-1);
  if (last === undefined || count < 1) return { query, alternatives: [] };
  const head = typed.slice(0, -1).join(' ');
  const phrases: string[] = [];
  for (const [w] of countedNameWords(items)) {
    if (!w.startsWith(last)) continue;
    phrases.push(head ? `${head} ${w}` : w);
    if (phrases.length >= count) break;
  }
  const [first, ...rest] = phrases;
  if (first === undefined) return { query, alternatives: [] };
  return {
    query,
    suggested: { text: first, type: 'completed', source: 'product-name' },
    alternatives: rest.map((text) => ({ text })),
  };
}
