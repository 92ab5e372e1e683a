// The parsed catalog of each feed (its last successful index) behind a small query interface:
// the mock search API serves it and the timeline rules check beacons against it (`item-not-in-catalog`).
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Product } from './feed-product';
import { dataDirFailure } from '../store/data-dir-error';
import { removeFile, replaceFile } from '../store/durable';
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
  /** every feed catalog of a site, the most recently indexed first */
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

/** Catalogs in memory, mirrored to `<dataDir>/catalogs/*.ndjson` so they survive a restart. */
export class CatalogStore implements CatalogReader {
  private readonly catalogs = new Map<string, FeedCatalog>();
  /** the save of each feed's catalog under way */
  private readonly saving = new Map<string, Promise<void>>();
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
      .sort((a, b) => b.indexedAt.localeCompare(a.indexedAt));
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
    await replaceFile(this.file(catalog.siteId, catalog.feedId), catalogText(catalog));
  }

  /** Forget the catalogs of one site, or all. */
  async clear(siteId?: string): Promise<void> {
    for (const [key, c] of this.catalogs) {
      if (siteId !== undefined && c.siteId !== siteId) continue;
      this.catalogs.delete(key);
      this.changes.emit(c.siteId);
      // a save under way would put the file back after its removal
      await this.saving.get(key)?.catch(() => undefined);
      if (this.dir) await removeFile(this.file(c.siteId, c.feedId));
    }
  }

  /** Read the catalogs kept in the data directory; unreadable files become warnings. */
  async load(): Promise<string[]> {
    if (!this.dir) return [];
    const warnings: string[] = [];
    // no directory yet: no catalogs; one that cannot be listed is the user's to fix, not to ignore
    const names = await readdir(this.dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [] as string[];
      throw dataDirFailure(this.dir!, err, 'read');
    });
    for (const name of names.filter((n) => n.endsWith('.ndjson'))) {
      try {
        this.catalogs.set(name, await readCatalog(path.join(this.dir, name)));
      } catch (err) {
        warnings.push(
          `catalog ${name} could not be read (${(err as Error).message}); index the feed again`,
        );
      }
    }
    // keys were file names while loading; re-key by site/feed
    for (const [key, c] of [...this.catalogs]) {
      if (key.endsWith('.ndjson')) {
        this.catalogs.delete(key);
        this.catalogs.set(`${c.siteId}/${c.feedId}`, c);
      }
    }
    return warnings;
  }

  private file(siteId: string, feedId: number): string {
    return path.join(this.dir!, `${siteId}-${feedId}.ndjson`);
  }
}

/** The header line, then a line per product, in pieces of about 64 KB. */
function* catalogText(catalog: FeedCatalog): Generator<string> {
  const { siteId, feedId, indexedAt } = catalog;
  let piece = `${JSON.stringify({ siteId, feedId, indexedAt })}\n`;
  for (const p of catalog.products) {
    piece += `${JSON.stringify(p)}\n`;
    if (piece.length >= 65_536) {
      yield piece;
      piece = '';
    }
  }
  if (piece) yield piece;
}

async function readCatalog(file: string): Promise<FeedCatalog> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let header = null as { siteId: string; feedId: number; indexedAt: string } | null;
  const products: Product[] = [];
  for await (const line of lines) {
    if (!line) continue;
    if (!header) header = JSON.parse(line) as typeof header;
    else products.push(JSON.parse(line) as Product);
  }
  if (!header) throw new Error('empty file');
  return new FeedCatalog(header.siteId, header.feedId, header.indexedAt, products);
}
