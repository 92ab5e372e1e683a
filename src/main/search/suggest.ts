// Query suggestions for autocomplete (`GET /api/suggest/query`), in the shape the provider's Snap client
// reads (query, suggested {text, type, source}, alternatives [{text}]). A suggestion is a query that finds
// something, as the real service's are: the Snap client searches the suggested text next, and a storefront
// that shows it must not lead the shopper to an empty page. So the last word typed is completed only with
// words of product names that the words before it find, and a configured campaign query that starts with
// what was typed (a "gift card" redirect, say) is offered too.
import { sortInSlices, type Slicer } from '../slices';
import { STEP, countedNameWords, type CatalogIndex } from './catalog-index';
import { normalizeQuery, type CampaignConfig } from './config';
import { rowsMatchingEvery, runQuery } from './query';
import { words } from './words';

export type SuggestionSource = 'product-name' | 'merchandising';

export interface SuggestAnswer {
  query: string;
  suggested?: { text: string; type: 'completed'; source: SuggestionSource };
  alternatives: Array<{ text: string }>;
}

/**
 * Suggestions for `query`, `count` at most (suggested included): product-name completions first (the most
 * frequent among the products the earlier words find), then the campaign queries that complete it.
 */
export async function suggest(
  index: CatalogIndex,
  campaigns: readonly CampaignConfig[],
  query: string,
  count: number,
  slicer: Slicer,
): Promise<SuggestAnswer> {
  const typed = words(query);
  const last = typed.at(-1);
  if (last === undefined || count < 1) return { query, alternatives: [] };
  const head = typed.slice(0, -1);
  const found: Array<{ text: string; source: SuggestionSource }> = [];
  const prefix = head.length > 0 ? `${head.join(' ')} ` : '';
  for (const w of await completions(index, head, last, count, slicer))
    found.push({ text: prefix + w, source: 'product-name' });
  for (const text of await campaignQueries(index, campaigns, query, slicer)) {
    if (found.length >= count) break;
    if (!found.some((f) => f.text === text)) found.push({ text, source: 'merchandising' });
  }
  const [first, ...rest] = found;
  if (first === undefined) return { query, alternatives: [] };
  return {
    query,
    suggested: { text: first.text, type: 'completed', source: first.source },
    alternatives: rest.map(({ text }) => ({ text })),
  };
}

/**
 * Words of product names that `last` starts, `count` at most, the most frequent first: over the whole
 * catalog when it is the only word, else over the products the earlier words find (each of them then finds
 * at least the product it came from). A word already typed is not offered again.
 */
async function completions(
  index: CatalogIndex,
  head: readonly string[],
  last: string,
  count: number,
  slicer: Slicer,
): Promise<string[]> {
  const out: string[] = [];
  if (head.length === 0) {
    const nameWords = await countedNameWords(index, slicer);
    for (let i = 0; i < nameWords.length && out.length < count; i++) {
      if (i % 16_384 === 0) await slicer.breathe();
      const w = nameWords[i]![0];
      if (w.startsWith(last)) out.push(w);
    }
    return out;
  }
  const rows = await rowsMatchingEvery(index, head, slicer);
  const counts = new Map<string, number>();
  const products = index.catalog.products;
  for (let i = 0; i < rows.length; i++) {
    if (i % STEP === 0) await slicer.breathe();
    for (const w of new Set(words(products[rows[i]!]!.name)))
      if (w.startsWith(last) && !head.includes(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  const ranked = await sortInSlices(
    [...counts],
    (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0),
    slicer,
  );
  return ranked.slice(0, count).map(([w]) => w);
}

/**
 * The configured campaign queries that start with what was typed and lead somewhere: to a redirect, or to
 * products (a campaign of banners alone over a query that finds nothing would show an empty page).
 */
async function campaignQueries(
  index: CatalogIndex,
  campaigns: readonly CampaignConfig[],
  query: string,
  slicer: Slicer,
): Promise<string[]> {
  const typed = normalizeQuery(query);
  const out: string[] = [];
  for (const c of campaigns)
    for (const q of c.queries) {
      if (!q.startsWith(typed) || out.includes(q)) continue;
      if (c.redirect !== null || (await runQuery(index, q, [], slicer)).matched.length > 0)
        out.push(q);
    }
  return out;
}
