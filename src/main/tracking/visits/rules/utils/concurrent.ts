// Pages of a visit begun together (tabs opened at once on a fresh browser): `visit-user-changed` exempts
// them, `session-renewed` exempts visits begun so, and the engine hands pages to the book with it.
import type { Visit } from '../../book';

/**
 * A second tab opened together with the visit's first page is exempt: tabs opened at once on a fresh
 * browser each create a userId before either has stored one (the provider's client does this; the
 * corpus's two-tabs journey records it). Exempt is only the page that began within this long of the
 * visit's start with no other page of the visit begun before it but the first; every later page must
 * carry the stored userId.
 */
export const CONCURRENT_START_MS = 2_000;

export function openedWithFirst(visit: Visit, pageKey: string): boolean {
  const started = visit.pages.get(pageKey)?.first ?? Infinity;
  if (started - visit.first.time > CONCURRENT_START_MS) return false;
  for (const [key, p] of visit.pages)
    if (key !== pageKey && key !== visit.first.pageKey && p.first <= started) return false;
  return true;
}
