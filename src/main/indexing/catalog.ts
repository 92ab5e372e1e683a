// The parsed catalog of each feed (its last successful index) behind a small query interface:
// the mock search API serves it and the timeline rules check beacons against it (`item-not-in-catalog`).
import { readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import type { Product } from './feed-product';
import { catalogText, feedOfFile, readCatalog } from './catalog-file';
import { dataDirFailure } from '../store/data-dir-error';
import { removeFile, replaceFile, syncDir } from '../store/durable';
import { makePrivateDir } from '../store/private-files';
import { Listeners } from '../listeners';

export {
  JSON_ROWS,
  parsePrice,
  ProductMapper,
  type Product,
  type RawFields,
  type RowReader,
} from './feed-product';

/** One feed's catalog: the products of its last successful index. */
export class FeedCatalog {
  private readonly byUid: Map<string, Product>;
  private bySkuIndex: Map<string, Product> | null = null;

  constructor(
    readonly siteId: string,
    readonly feedId: number,
    /** sandbox time of the index that produced it, ISO */
    readonly indexedAt: string,
    readonly products: readonly Product[],
    /** the uid index when the parse already built it (it checks duplicate ids with one) */
    byUid?: Map<string, Product>,
  ) {
    if (byUid) this.byUid = byUid;
    else {
      this.byUid = new Map();
      for (const p of products) if (!this.byUid.has(p.uid)) this.byUid.set(p.uid, p);
    }
  }

  get size(): number {
    return this.products.length;
  }

  get(uid: string): Product | undefined {
    return this.byUid.get(uid);
  }

  bySku(sku: string): Product | undefined {
    // Built on first use: most callers look products up by uid only.
    if (!this.bySkuIndex) {
      this.bySkuIndex = new Map();
      for (const p of this.products)
        if (p.sku !== null && !this.bySkuIndex.has(p.sku)) this.bySkuIndex.set(p.sku, p);
    }
    return this.bySkuIndex.get(sku);
  }
}

/** What other areas (search API, timeline rules, admin API) may ask of the catalogs. */
export interface CatalogReader {
  /** one feed's catalog, or undefined before its first successful index */
  feed(siteId: string, feedId: number): FeedCatalog | undefined;
  /**
   * every feed catalog of a site, the most recently indexed first: in the order the indexes happened, not
   * by their sandbox times (the clock can go back, leaving a catalog indexed before at a later time)
   */
  site(siteId: string): FeedCatalog[];
  /** the catalog the site's search answers from: its most recently indexed one with products */
  served(siteId: string): FeedCatalog | undefined;
  /** true when the site has at least one indexed catalog (the `item-not-in-catalog` rule applies only then) */
  hasCatalog(siteId: string): boolean;
  /** a product of the site by uid, else by sku; the most recently indexed feed wins */
  findProduct(siteId: string, uidOrSku: string): Product | undefined;
  /** told the siteId whenever that site's catalogs change; returns the unsubscribe */
  onChange(listener: (siteId: string) => void): () => void;
}

/**
 * A feed's catalog file that could not be read whole (a line that is no product, a file cut short): the
 * feed has no catalog served, and the file stays as it is until the feed's next index replaces it.
 */
export interface DamagedCatalog {
  siteId: string;
  feedId: number;
  file: string;
  /** what is wrong, e.g. `line 25 is not a product (Unterminated string …)` */
  problem: string;
}

/** A catalog moved out of the way because no feed record names it (see `CatalogStore.orphan`). */
export interface OrphanedCatalog {
  /** where it was, and where it is now */
  file: string;
  movedTo: string;
  /** what it held, when it could be read */
  products: number | null;
  indexedAt: string | null;
}

/** Where catalogs no feed record names are moved, inside the catalogs directory. */
export const ORPHANED_DIR = 'orphaned';

/**
 * Catalogs in memory, mirrored to `<dataDir>/catalogs/*.ndjson` so they survive a restart. Each catalog
 * gets a landing number when it is put in place, kept in its file's header: "the last indexed" of a site
 * is the one with the highest, whatever the sandbox clock said when it was indexed.
 */
export class CatalogStore implements CatalogReader {
  private readonly catalogs = new Map<string, FeedCatalog>();
  /** the landing number of each catalog; 0 for one kept by a version that wrote none */
  private readonly landing = new WeakMap<FeedCatalog, number>();
  private lastLanding = 0;
  /** the save of each feed's catalog under way */
  private readonly saving = new Map<string, Promise<void>>();
  /** the catalog files read at start that could not be read whole, by feed */
  private readonly damagedFiles = new Map<string, DamagedCatalog>();
  private readonly changes = new Listeners<string>('catalog listener');

  constructor(private readonly dir: string | null) {}

  /**
   * Told the site whenever its catalogs change (a feed indexed, catalogs cleared), and only then: a
   * feed's progress and state changes leave the catalogs as they are.
   */
  onChange(listener: (siteId: string) => void): () => void {
    return this.changes.on(listener);
  }

  feed(siteId: string, feedId: number): FeedCatalog | undefined {
    return this.catalogs.get(`${siteId}/${feedId}`);
  }

  site(siteId: string): FeedCatalog[] {
    return [...this.catalogs.values()]
      .filter((c) => c.siteId === siteId)
      .sort((a, b) => this.landedLater(a, b));
  }

  /**
   * The one order of "indexed later" (site(), and so served(), findProduct() and the search's catalog
   * rules): negative when `a` landed after `b`. Catalogs kept without a landing number landed before
   * every numbered one; among themselves their sandbox times are all there is to go by.
   */
  private landedLater(a: FeedCatalog, b: FeedCatalog): number {
    const order = (this.landing.get(b) ?? 0) - (this.landing.get(a) ?? 0);
    return order !== 0 ? order : b.indexedAt.localeCompare(a.indexedAt);
  }

  served(siteId: string): FeedCatalog | undefined {
    return this.site(siteId).find((c) => c.size > 0);
  }

  hasCatalog(siteId: string): boolean {
    return this.site(siteId).some((c) => c.size > 0);
  }

  findProduct(siteId: string, uidOrSku: string): Product | undefined {
    const cats = this.site(siteId);
    for (const c of cats) {
      const p = c.get(uidOrSku);
      if (p) return p;
    }
    for (const c of cats) {
      const p = c.bySku(uidOrSku);
      if (p) return p;
    }
    return undefined;
  }

  /**
   * Serve `catalog` for its feed and write it to the data directory. A write that fails puts the
   * catalog it replaced back (the feed did not index: FeedEngine ends it in error) and rejects.
   */
  async replace(catalog: FeedCatalog): Promise<void> {
    const key = `${catalog.siteId}/${catalog.feedId}`;
    const before = this.catalogs.get(key);
    this.landing.set(catalog, ++this.lastLanding);
    this.catalogs.set(key, catalog);
    this.changes.emit(catalog.siteId);
    if (!this.dir) return;
    // One save per feed at a time (a save yields to the loop, so the next index may finish meanwhile):
    // two would write the same temp file. A save whose catalog was replaced since is skipped.
    const previous = this.saving.get(key) ?? Promise.resolve();
    const save = previous
      .catch(() => undefined)
      .then(() => (this.catalogs.get(key) === catalog ? this.save(catalog) : undefined));
    this.saving.set(key, save);
    try {
      await save;
      // the file is the new catalog now: whatever was damaged in the one it replaced is gone
      this.damagedFiles.delete(key);
    } catch (err) {
      if (this.catalogs.get(key) === catalog) {
        if (before) this.catalogs.set(key, before);
        else this.catalogs.delete(key);
        this.changes.emit(catalog.siteId);
      }
      throw err;
    } finally {
      if (this.saving.get(key) === save) this.saving.delete(key);
    }
  }

  /** The catalog's file replaced whole, on disk before the feed is said to be indexed (durable.ts). */
  private async save(catalog: FeedCatalog): Promise<void> {
    await makePrivateDir(this.dir!);
    const landing = this.landing.get(catalog)!;
    await replaceFile(this.file(catalog.siteId, catalog.feedId), catalogText(catalog, landing));
  }

  /** Forget the catalogs of one site, or all (a damaged file of theirs goes too). */
  async clear(siteId?: string): Promise<void> {
    for (const [key, d] of this.damagedFiles) {
      if (siteId !== undefined && d.siteId !== siteId) continue;
      this.damagedFiles.delete(key);
      await removeFile(d.file);
    }
    for (const [key, c] of this.catalogs) {
      if (siteId !== undefined && c.siteId !== siteId) continue;
      this.catalogs.delete(key);
      this.changes.emit(c.siteId);
      // a save under way would put the file back after its removal
      await this.saving.get(key)?.catch(() => undefined);
      if (this.dir) await removeFile(this.file(c.siteId, c.feedId));
    }
  }

  /**
   * Read the catalogs kept in the data directory, serving those of the feeds `named` (the config's). One
   * that cannot be read whole is not served, and is left as it is: `damaged` says which and why, for the
   * feed's state and the start-up's warnings. A catalog is written whole (durable.ts), so a damaged one is
   * the disk's or a hand's, and serving part of it would have the search and the timeline rules answer
   * from products that are not the feed's; but it concerns that feed alone, as a catalog moved away does,
   * so it does not stop the sandbox. A file that cannot be read at all (permissions) still does.
   * Answers warnings on files in the directory that are no feed's catalog.
   */
  async load(named: (siteId: string, feedId: number) => boolean = () => true): Promise<string[]> {
    if (!this.dir) return [];
    // no directory yet: no catalogs; one that cannot be listed is the user's to fix, not to ignore
    const names = await readdir(this.dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [] as string[];
      throw dataDirFailure(this.dir!, err, 'read');
    });
    const warnings: string[] = [];
    for (const name of names.filter((n) => n.endsWith('.ndjson'))) {
      const file = path.join(this.dir, name);
      const read = await readCatalog(file);
      if (read.landing !== undefined) this.lastLanding = Math.max(this.lastLanding, read.landing);
      if ('damage' in read) {
        const feed = read.header ?? feedOfFile(name);
        if (feed) {
          const { siteId, feedId } = feed;
          this.damagedFiles.set(`${siteId}/${feedId}`, {
            siteId,
            feedId,
            file,
            problem: read.damage,
          });
        } else
          warnings.push(
            `${file} ${read.damage}, and its name is not <siteId>-<feedId>.ndjson: it is no feed's catalog, and was not read; move it out of ${this.dir}`,
          );
        continue;
      }
      const { siteId, feedId, indexedAt } = read.header;
      const c = new FeedCatalog(siteId, feedId, indexedAt, read.products);
      // a dormant feed's catalog (no account names it) stays on disk, unserved, until one does again
      if (!named(c.siteId, c.feedId)) continue;
      this.catalogs.set(`${c.siteId}/${c.feedId}`, c);
      if (read.landing !== undefined) this.landing.set(c, read.landing);
    }
    return warnings;
  }

  /** The feed's catalog file read at start that could not be read whole, if it is one. */
  damaged(siteId: string, feedId: number): DamagedCatalog | undefined {
    return this.damagedFiles.get(`${siteId}/${feedId}`);
  }

  /** Every damaged catalog file (see `damaged`). */
  allDamaged(): DamagedCatalog[] {
    return [...this.damagedFiles.values()];
  }

  /**
   * Move the feed's catalog file, whole or damaged, to `catalogs/orphaned/` and stop serving it: at start,
   * for a feed that indexing.json holds no record of (it was missing, or never named the feed), so the
   * feed starts from the fixtures and that catalog is not its index. Moved rather than left: left, it would
   * be served again at the next start, under a record that never indexed it. Resolves with what was
   * moved, or null when the feed has no catalog file.
   */
  async orphan(siteId: string, feedId: number): Promise<OrphanedCatalog | null> {
    const key = `${siteId}/${feedId}`;
    const catalog = this.catalogs.get(key);
    if (!this.dir || (!catalog && !this.damagedFiles.has(key))) return null;
    const file = this.file(siteId, feedId);
    const dir = path.join(this.dir, ORPHANED_DIR);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const movedTo = path.join(dir, `${siteId}-${feedId}.${stamp}.ndjson`);
    try {
      await makePrivateDir(dir);
      await rename(file, movedTo);
      await syncDir(this.dir);
      await syncDir(dir);
    } catch (err) {
      throw dataDirFailure(file, err, 'write');
    }
    this.catalogs.delete(key);
    this.damagedFiles.delete(key);
    if (catalog) this.changes.emit(siteId);
    return {
      file,
      movedTo,
      products: catalog?.size ?? null,
      indexedAt: catalog?.indexedAt ?? null,
    };
  }

  /** The feed's catalog file, whether there is one or not (none in memory). */
  filesOf(siteId: string, feedId: number): string[] {
    return this.dir ? [this.file(siteId, feedId)] : [];
  }

  private file(siteId: string, feedId: number): string {
    return path.join(this.dir!, `${siteId}-${feedId}.ndjson`);
  }
}

/**
 * What a damaged catalog costs and what to do, after the file and its problem: said in the start-up's
 * warnings and, when the feed claimed that catalog, in its state (kept-feeds.ts).
 */
export function damageNote(d: DamagedCatalog): string {
  return `${d.file} ${d.problem}: that catalog is not served, and the file is left as it is; index feed ${d.feedId} of ${d.siteId} again (its next index replaces the file), or move the file away`;
}
