// Query suggestions for autocomplete (`GET /api/suggest/query`), over the words of the catalog's product
// names: the last word typed is completed with the most frequent name words it starts, in the shape the
// provider's Snap client reads (query, suggested {text, type, source}, alternatives [{text}]).
import type { Slicer } from '../slices';
import { words } from './words';

export interface SuggestAnswer {
  query: string;
  suggested?: { text: string; type: 'completed'; source: 'product-name' };
  alternatives: Array<{ text: string }>;
}

/**
 * Complete the last word of `query` from product names (their words with how many rows' names have each,
 * most frequent first: catalog-index.ts counts them); `count` suggestions at most (suggested included).
 */
export async function suggest(
  nameWords: ReadonlyArray<readonly [string, number]>,
  query: string,
  count: number,
  slicer: Slicer,
): Promise<SuggestAnswer> {
  const typed = words(query);
  const last = typed.at(-1);
  if (last === undefined || count < 1) return { query, alternatives: [] };
  const head = typed.slice(0, -1).join(' ');
  const phrases: string[] = [];
  for (let i = 0; i < nameWords.length; i++) {
    if (i % 16_384 === 0) await slicer.breathe();
    const w = nameWords[i]![0];
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
