// Infinite-scroll backfill, as the sandbox's issued responses show it. SearchController restores several
// pages on load by requesting pages 1…N together and sends one render, page 1's; a page fetched later by
// scrolling is its own search, with its own render. The requests name their page load (the tracker's
// pageLoadId on every search), so the pages a page load asked for tell the two apart.
import { issuedKind, type IssuedResponse } from '../../../../search/responses';

/** the pages of a backfill are requested together, on load */
export const BACKFILL_MS = 2_000;

/**
 * How the page load that asked for `r` (`asked`: the responses it asked for) fetched it, when `r` is page 2
 * or later of a query it also asked a lower page of: with a lower page, within BACKFILL_MS (a backfill), or
 * later (a scroll; `afterMs` after the latest lower page). Undefined for page 1, or with no lower page known.
 */
export function fetchedBy(
  r: IssuedResponse,
  asked: readonly IssuedResponse[],
): { how: 'backfill' } | { how: 'scroll'; afterMs: number } | undefined {
  if (r.page <= 1) return undefined;
  const kind = issuedKind(r);
  let latest: IssuedResponse | undefined;
  for (const o of asked) {
    if (o === r || o.query !== r.query || o.page >= r.page || issuedKind(o) !== kind) continue;
    if (Math.abs(o.issuedAt - r.issuedAt) <= BACKFILL_MS) return { how: 'backfill' };
    if (!latest || o.issuedAt > latest.issuedAt) latest = o;
  }
  return latest ? { how: 'scroll', afterMs: Math.abs(r.issuedAt - latest.issuedAt) } : undefined;
}
