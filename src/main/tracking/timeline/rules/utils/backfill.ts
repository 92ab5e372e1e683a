// Infinite-scroll backfill, as the sandbox's issued responses show it. SearchController restores several
// pages on load by requesting pages 1…N together and sends one render, page 1's; a page fetched later by
// scrolling is its own search, with its own render. The requests name their page load (the tracker's
// pageLoadId on every search), so the pages a page load asked for tell the two apart.
import type { IssuedResponse } from '../../../../search/responses';

/** the pages of a backfill are requested together, on load */
export const BACKFILL_MS = 2_000;

/**
 * Was `r` (page 2 or later) requested with a lower page of the same query, within BACKFILL_MS, by the same
 * page load (`asked`: the responses that page load asked for)?
 */
export function backfilledWith(r: IssuedResponse, asked: readonly IssuedResponse[]): boolean {
  if (r.page <= 1) return false;
  const kind = r.kind ?? 'search';
  return asked.some(
    (o) =>
      o !== r &&
      o.query === r.query &&
      o.page < r.page &&
      (o.kind ?? 'search') === kind &&
      Math.abs(o.issuedAt - r.issuedAt) <= BACKFILL_MS,
  );
}
