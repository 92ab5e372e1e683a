// The page load a shopper came from: the one of the visit that began last before a page's own (the rules
// that read what the page before showed: `click-not-sent`, `cart-add-twice`, `cart-printed-empty`).
import type { Visit, VisitPageEntry } from '../../book';

/**
 * the tracker compares the page's cart globals with its stored cart as the page loads (T constructor): a
 * cart event of that comparison comes within this of the page's start
 */
export const CART_COMPARED_MS = 1_000;
/** a page load this long after the page before is another session's, whatever the ids say */
export const NEXT_PAGE_MS = 30 * 60_000;

/** The page load of the visit that began last before `pageKey`'s, with its key; undefined when none did. */
export function pageLoadBefore(
  visit: Visit,
  pageKey: string,
): { key: string; entry: VisitPageEntry } | undefined {
  const here = visit.pages.get(pageKey);
  if (!here) return undefined;
  let before: { key: string; entry: VisitPageEntry } | undefined;
  for (const [key, entry] of visit.pages)
    if (
      key !== pageKey &&
      entry.first < here.first &&
      (!before || entry.first > before.entry.first)
    )
      before = { key, entry };
  return before;
}
