// The fresh held-out set's principles (one per section of what the storefront client is known to send) and
// the shape of its clean journeys; the journey files declare theirs with `journey`.
import type { PagedClean, PageKind } from '../helpers/heldout-set';

export { PAGE_KINDS, type PageKind } from '../helpers/heldout-set';

export const PRINCIPLES = [
  'render',
  'page-load',
  'paging',
  'impressions',
  'clicks',
  'redirect',
  'autocomplete',
  'recommendations',
  'dev-test',
  'product',
  'cart',
  'order',
  'login',
  'identity',
  'empty',
] as const;
export type Principle = (typeof PRINCIPLES)[number];

export type CleanJourney = PagedClean<Principle>;

/** A journey's builder with the page kinds typed (the journey files declare them). */
export function journey(
  id: string,
  principle: Principle,
  pages: PageKind[],
  description: string,
  build: CleanJourney['build'],
  o: { dev?: boolean } = {},
): CleanJourney {
  return { id, principle, pages, description, build, ...(o.dev && { dev: true }) };
}
