// What the companion search API offers the timelines' provenance rules: the responses it issued and the
// catalogs it answered from. Declared here, on the side that provides it, so the timeline domain depends
// on search and search on nothing of the timelines.
import type { IssuedResponse } from './responses';

export interface ProvenanceCatalog {
  /** a product uid or a variant group's parent id of the site's indexed catalog */
  has(id: string): boolean;
  /** the uid of the product whose sku this is, when it is one */
  uidOfSku(sku: string): string | undefined;
  /** the parent (variant group) id of the product with this uid, when the catalog gives it one */
  parentOf?(uid: string): string | undefined;
  /**
   * the ids (uids and parent ids) of the products whose URL in the catalog has this page URL's path;
   * undefined when no product's does
   */
  idsAt?(pageUrl: string): ReadonlySet<string> | undefined;
  /** the price of the product with this uid in the catalog, when it has one above 0 */
  priceOf?(uid: string): number | undefined;
}

export interface ProvenanceSource {
  /** search settings of the site's account; undefined for a site not in the config */
  site(siteId: string):
    | {
        companion: boolean;
        catalogCheck: boolean;
        /** the widget tags the companion recommend API serves for the site (absent: none) */
        recommendationTags?: readonly string[];
      }
    | undefined;
  issued(siteId: string, responseId: string): IssuedResponse | undefined;
  /** the site a remembered response with this id was issued for, whichever site asks */
  siteOf(responseId: string): string | undefined;
  /**
   * the remembered responses a page load of the site asked for (the pageLoadId its search request carried),
   * oldest first
   */
  issuedTo(siteId: string, pageLoadId: string): readonly IssuedResponse[];
  /** the remembered responses with a merchandising redirect that a session of the site asked for, oldest first */
  redirectsTo(siteId: string, sessionId: string): readonly IssuedResponse[];
  /** sandbox time (ms) from which every issued response is remembered */
  rememberedSince(): number;
  /** the newest remembered responses of the site, newest first */
  recent(siteId: string): Iterable<IssuedResponse>;
  /** the site's indexed catalog, when it has one */
  catalog(siteId: string): ProvenanceCatalog | undefined;
}
