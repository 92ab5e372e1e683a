// `check --catalog SITE=FILE`: a site's product feed beside the recording, read as the sandbox indexes
// one (CSV, TSV, ndJSON or XML, raw, gzip or zip), so the rules that read the catalog judge that site
// offline as they do live: ids the catalog does not hold, a product view at another product's URL,
// prices in another unit than the feed's.
import { existsSync, statSync } from 'node:fs';
import { FeedCatalog } from '../indexing/catalog';
import { parseFeed } from '../indexing/feed-parse';
import type { Product } from '../indexing/catalog';
import { catalogViewsBySite } from '../search/catalog-view';
import type { ProvenanceCatalog } from '../search/provenance';
import { InputError } from '../recordings/recorded';
import { SITE_ID_PATTERN } from '../../shared/site-id';

/** `SITE=FILE`, checked: the siteId and the file's path. */
export function catalogFlag(flag: string): { siteId: string; file: string } {
  const eq = flag.indexOf('=');
  const siteId = eq > 0 ? flag.slice(0, eq).trim().toLowerCase() : '';
  const file = eq > 0 ? flag.slice(eq + 1) : '';
  if (siteId === '' || file === '')
    throw new InputError(
      `--catalog "${flag}" must be SITE=FILE, the siteId and its product feed, e.g. --catalog demo42=products.csv`,
    );
  // a siteId as a beacon's path has it (six lower-case letters or digits): another is a typo no event matches
  if (!SITE_ID_PATTERN.test(siteId))
    throw new InputError(
      `--catalog ${flag}: "${siteId}" is not a siteId (six letters or digits, e.g. demo42): give the site whose events the catalog is for`,
    );
  if (!existsSync(file)) throw new InputError(`--catalog ${flag}: no such file "${file}"`);
  if (!statSync(file).isFile())
    throw new InputError(
      `--catalog ${flag}: "${file}" is a folder, not a file: give the product feed's file`,
    );
  return { siteId, file };
}

/** Each flag's feed read into its site's catalog view; InputError naming the flag when a feed is unusable. */
export async function readCatalogs(
  flags: ReadonlyArray<{ siteId: string; file: string }>,
  now: number,
): Promise<Map<string, ProvenanceCatalog>> {
  const catalogs: FeedCatalog[] = [];
  for (const [i, { siteId, file }] of flags.entries()) {
    const products: Product[] = [];
    const index = new Map<string, Product>();
    const summary = await parseFeed({ kind: 'file', path: file }, { idField: null, index }, (p) =>
      products.push(p),
    );
    if (summary.error !== null)
      throw new InputError(`--catalog ${siteId}=${file}: ${summary.error}`);
    if (products.length === 0)
      throw new InputError(`--catalog ${siteId}=${file}: the feed holds no product`);
    catalogs.push(new FeedCatalog(siteId, i + 1, new Date(now).toISOString(), products, index));
  }
  return catalogViewsBySite(catalogs);
}
