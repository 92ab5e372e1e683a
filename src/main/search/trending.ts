// Trending search terms (`GET /api/suggest/trending`), what the Snap client's autocomplete shows before
// the shopper types, in the shape it reads: {trending: {queries: [{searchQuery, popularity}]}}. The sandbox
// knows no traffic of other shoppers, so the terms come from what it does know: the queries its search and
// autocomplete endpoints answered for the site (most searched first), then the catalog's most common
// product-name words. Like suggestions, every term finds something when searched now.
import { sortInSlices, type Slicer } from '../slices';
import { STEP, countedNameWords, type CatalogIndex } from './catalog-index';
import { normalizeQuery, type CampaignConfig } from './config';
import { triggered } from './merchandising';
import { runQuery } from './query';
import { issuedKind, type IssuedResponse } from './responses';

export interface TrendingAnswer {
  trending: { queries: Array<{ searchQuery: string; popularity: number }> };
}

/** Searched queries checked against the catalog at most, so a long history stays a short answer. */
const MAX_CHECKED = 200;

/**
 * The `limit` most trending terms: searched queries by how often they were searched (page 1 of a search or
 * autocomplete response; the most recent first among equals), then catalog words, with popularity 0.
 */
export async function trending(
  index: CatalogIndex,
  campaigns: readonly CampaignConfig[],
  issued: Iterable<IssuedResponse>,
  limit: number,
  slicer: Slicer,
): Promise<TrendingAnswer> {
  const queries: Array<{ searchQuery: string; popularity: number }> = [];
  let checked = 0;
  for (const [searchQuery, popularity] of await searchedQueries(issued, slicer)) {
    if (queries.length >= limit || checked++ >= MAX_CHECKED) break;
    if (await leadsSomewhere(index, campaigns, searchQuery, slicer))
      queries.push({ searchQuery, popularity });
  }
  const nameWords = await countedNameWords(index, slicer);
  for (let i = 0; i < nameWords.length && queries.length < limit; i++) {
    if (i % 16_384 === 0) await slicer.breathe();
    const w = nameWords[i]![0];
    // sizes and one- or two-letter words ("m", "42") are no terms a shopper searches for
    if (w.length < 3 || /^\p{N}+$/u.test(w) || queries.some((q) => q.searchQuery === w)) continue;
    queries.push({ searchQuery: w, popularity: 0 });
  }
  return { trending: { queries } };
}

/** Queries of the site's remembered page-1 search and autocomplete responses, most searched first. */
async function searchedQueries(
  issued: Iterable<IssuedResponse>,
  slicer: Slicer,
): Promise<Array<[string, number]>> {
  // newest first: among equal counts, the one searched most recently keeps its earlier place
  const counts = new Map<string, number>();
  let n = 0;
  for (const r of issued) {
    if (++n % STEP === 0) await slicer.breathe();
    const kind = issuedKind(r);
    if ((kind !== 'search' && kind !== 'autocomplete') || r.page !== 1) continue;
    const q = normalizeQuery(r.query);
    if (q !== '') counts.set(q, (counts.get(q) ?? 0) + 1);
  }
  return await sortInSlices([...counts], (a, b) => b[1] - a[1], slicer);
}

/** A query that triggers a redirect, or finds a product of the catalog as it is now. */
async function leadsSomewhere(
  index: CatalogIndex,
  campaigns: readonly CampaignConfig[],
  q: string,
  slicer: Slicer,
): Promise<boolean> {
  if (triggered({ campaigns }, q).some((c) => c.redirect !== null)) return true;
  return (await runQuery(index, q, [], slicer)).matched.length > 0;
}
