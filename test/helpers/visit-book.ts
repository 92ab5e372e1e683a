// A visit book on its own, as the engine keeps one: each page holds its visits (`PageVisits`), found by
// its pageLoadId here.
import { VisitBook, type PageVisits } from '../../src/main/tracking/visits/book';

export function bookWithHolders(): { book: VisitBook; holder: (pageLoadId: string) => PageVisits } {
  const book = new VisitBook({
    attributionWindowMs: 86_400_000,
    pageKey: (siteId, pageLoadId) => `${siteId}\u0000${pageLoadId}`,
  });
  const holders = new Map<string, PageVisits>();
  const holder = (pageLoadId: string) => {
    let h = holders.get(pageLoadId);
    if (!h) holders.set(pageLoadId, (h = { bookVisits: undefined }));
    return h;
  };
  return { book, holder };
}
