// The page load a shopper came from: the one of the visit that began last before a page's own (the rules
// that read what the page before showed: `click-not-sent`, `cart-add-twice`).
import type { Visit, VisitPageEntry } from '../../book';

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
