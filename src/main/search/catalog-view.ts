// A site's indexed catalogs as the timeline rules read them (ProvenanceCatalog): ids, skus, variant groups,
// prices and the products at a page URL. The running sandbox offers its catalogs so, and `check --catalog`
// the feeds it is given.
import type { FeedCatalog } from '../indexing/catalog';
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
