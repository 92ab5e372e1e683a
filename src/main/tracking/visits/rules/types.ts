// What a visit rule reads: one page's product, cart, order and login events and the visit the page belongs
// to (the visit book), and the helpers its messages are written with. A rule is written with `defineRule`.
import type { ProvenanceCatalog } from '../../../search/provenance';
import type { Finding } from '../../finding';
import type { Visit, VisitBook } from '../book';
import type { VisitEvent } from '../events';

export { duration } from '../../finding';

/** What the visit rules read of a page (the timeline engine's page state satisfies it). */
export interface VisitPage {
  key: string;
  siteId: string;
  pageLoadId: string;
  sessionId: string;
  userId: string;
  /** the URL of its first accepted event (its origin is the page's) */
  pageUrl: string;
  accepted: number;
  /** accepted events sent without context.dev: true */
  notDev: { count: number; ids: string[] };
  /** the page's visit events, first first (capped) */
  visitEvents: readonly VisitEvent[];
}

/** The site's indexed catalog, when it has one and its account checks ids against it. */
/** the site's indexed catalog, as the search side offers it to the timelines */
export type VisitCatalog = ProvenanceCatalog;

/**
 * Which product a sku names (and what it cost), read from the site's indexed catalog or the responses the
 * companion issued.
 */
export interface SkuOwners {
  /** the uid of the product or variant whose sku this is */
  uidOfSku(sku: string): string | undefined;
  /** the parent (variant group) id of a product or variant */
  parentOf?(uid: string): string | undefined;
  /**
   * the price a response the companion issued for the site served for the product or variant (a variant's
   * own, else its result's), the newest that served one
   */
  priceOf?(uid: string): number | undefined;
}

import type { ShownOnPage } from '../shown-on-page';

export type { ShownOnPage };

export interface VisitContext {
  book: VisitBook;
  catalog?: VisitCatalog;
  /** the skus of the results the companion search and recommend APIs issued for the site, when it did */
  served?: SkuOwners;
  /** the page's accepted visit events */
  accepted: readonly VisitEvent[];
  /** the visit of the page's sessionId, if the book has it */
  visit: Visit | undefined;
  /** what a page load of the visit (by its key in `visit.pages`) showed (with the visit: `needs.visit`) */
  shown(pageKey: string): ShownOnPage | undefined;
}

declare module '../../rule' {
  interface Handlers {
    /** a page's product, cart, order and login events and the visit they belong to */
    visit(page: VisitPage, ctx: VisitContext): Finding[];
  }
}

/** The first three of names a message lists, and how many more: `uid "a", uid "b", uid "c" and 2 more`. */
export function firstThree(names: readonly string[]): string {
  return `${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''}`;
}

export const money = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
