// A site's indexed catalogs as the timeline rules read them (ProvenanceCatalog): ids, skus, variant groups,
// prices and the products at a page URL. The running sandbox offers its catalogs so, `check --catalog` the
// feeds it is given, and `check` of an export the catalogs the export recorded.
import { FeedCatalog } from '../indexing/catalog';
import type { Product } from '../indexing/feed-product';
import { urlOf } from './items';
import { idsByPath, urlPath } from './product-paths';
import type { ProvenanceCatalog } from './provenance';

/** The view of a site's catalogs (its feeds' last indexes), or undefined when none holds a product. */
export function catalogView(catalogs: readonly FeedCatalog[]): ProvenanceCatalog | undefined {
  const cats = catalogs.filter((c) => c.size > 0);
  if (cats.length === 0) return undefined;
  return {
    has: (id) => cats.some((c) => c.get(id) !== undefined || parentIds(c).has(id)),
    uidOfSku: (sku) => {
      for (const c of cats) {
        const p = c.bySku(sku);
        if (p) return p.uid;
      }
      return undefined;
    },
    parentOf: (uid) => {
      for (const c of cats) {
        const p = c.get(uid);
        if (p) return p.parentId ?? undefined;
      }
      return undefined;
    },
    priceOf: (uid) => {
      for (const c of cats) {
        const price = c.get(uid)?.price;
        if (price != null && price > 0) return price;
      }
      return undefined;
    },
    idsAt: (pageUrl) => {
      const path = urlPath(pageUrl);
      if (path === undefined) return undefined;
      for (const c of cats) {
        const ids = pathsOf(c).get(path);
        if (ids) return ids;
      }
      return undefined;
    },
  };
}

const pathCache = new WeakMap<FeedCatalog, Map<string, Set<string>>>();

/** A catalog's product ids by the path of their URL, indexed on first use (most sites never ask). */
function pathsOf(c: FeedCatalog): Map<string, Set<string>> {
  let paths = pathCache.get(c);
  if (!paths) {
    paths = idsByPath(c.products.map((p) => ({ uid: p.uid, parentId: p.parentId, url: urlOf(p) })));
    pathCache.set(c, paths);
  }
  return paths;
}

const parentCache = new WeakMap<FeedCatalog, Set<string>>();

/** Parent (variant group) ids of a catalog: beacons may send them as uid or parentId though no row has them. */
function parentIds(c: FeedCatalog): Set<string> {
  let ids = parentCache.get(c);
  if (!ids) {
    ids = new Set();
    for (const p of c.products) if (p.parentId !== null) ids.add(p.parentId);
    parentCache.set(c, ids);
  }
  return ids;
}

/**
 * A feed's catalog as an export records it for `check`: of each product what the catalog rules read (its
 * uid, parent id, sku, price and page URL), nothing else of its row.
 */
export interface RecordedCatalog {
  siteId: string;
  products: RecordedProduct[];
}

export interface RecordedProduct {
  uid: string;
  parentId?: string;
  sku?: string;
  price?: number;
  url?: string;
}

/** products written per piece of an export: a piece is made only when the writer reaches it */
const PRODUCTS_PER_PIECE = 500;

/**
 * The site's feed catalogs (most recently indexed first, as the view reads them) as an export records
 * them: the JSON of one `RecordedCatalog` each, in pieces, so that a catalog of a million products is never
 * one string and each piece is made only when the writer reaches it.
 */
export function* recordedCatalogEntries(
  siteId: string,
  catalogs: readonly FeedCatalog[],
): Generator<Generator<string>> {
  for (const c of catalogs) if (c.size > 0) yield recordedCatalogPieces(siteId, c);
}

function* recordedCatalogPieces(siteId: string, c: FeedCatalog): Generator<string> {
  yield `{"siteId":${JSON.stringify(siteId)},"products":[`;
  for (let i = 0; i < c.products.length; i += PRODUCTS_PER_PIECE) {
    const chunk = c.products.slice(i, i + PRODUCTS_PER_PIECE).map(recordedProduct);
    yield `${i === 0 ? '' : ','}${JSON.stringify(chunk).slice(1, -1)}`;
  }
  yield ']}';
}

/** Of a product, what the catalog rules read. */
function recordedProduct(p: Product): RecordedProduct {
  const r: RecordedProduct = { uid: p.uid };
  if (p.parentId !== null) r.parentId = p.parentId;
  if (p.sku !== null) r.sku = p.sku;
  if (p.price !== null) r.price = p.price;
  const url = urlOf(p);
  if (url !== null) r.url = url;
  return r;
}

const NO_FIELDS: Record<string, string> = Object.freeze({});

/** The views of feed catalogs of several sites, by site: each site's view reads its catalogs in their order. */
export function catalogViewsBySite(
  catalogs: readonly FeedCatalog[],
): Map<string, ProvenanceCatalog> {
  const bySite = new Map<string, FeedCatalog[]>();
  for (const c of catalogs) {
    const list = bySite.get(c.siteId);
    if (list) list.push(c);
    else bySite.set(c.siteId, [c]);
  }
  const views = new Map<string, ProvenanceCatalog>();
  for (const [siteId, cats] of bySite) {
    const view = catalogView(cats);
    if (view) views.set(siteId, view);
  }
  return views;
}

/** The views of recorded catalogs, by site: each site's in the order they were recorded. */
export function recordedCatalogViews(
  recorded: readonly RecordedCatalog[],
  indexedAt: string,
): Map<string, ProvenanceCatalog> {
  return catalogViewsBySite(
    recorded.map((c, i) => {
      const products: Product[] = c.products.map((p, line) => ({
        uid: p.uid,
        parentId: p.parentId ?? null,
        sku: p.sku ?? null,
        price: p.price ?? null,
        name: null,
        // the page URL where `urlOf` reads it
        fields: p.url === undefined ? NO_FIELDS : { url: p.url },
        line: line + 1,
      }));
      return new FeedCatalog(c.siteId, i + 1, indexedAt, products);
    }),
  );
}
