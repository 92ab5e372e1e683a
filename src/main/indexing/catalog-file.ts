// A feed's catalog file in the data directory (`catalogs/<siteId>-<feedId>.ndjson`): a header line (site,
// feed, when it was indexed, its landing number), then a product per line, as the sandbox writes it; read
// back whole, or with what is wrong with it (the store then serves none of it: catalog.ts).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Product } from './feed-product';
import type { FeedCatalog } from './catalog';
import { dataDirFailure } from '../store/data-dir-error';

/** The header line, then a line per product, in pieces of about 64 KB. */
export function* catalogText(catalog: FeedCatalog, landing: number): Generator<string> {
  const { siteId, feedId, indexedAt } = catalog;
  let piece = `${JSON.stringify({ siteId, feedId, indexedAt, landing })}\n`;
  for (const p of catalog.products) {
    piece += `${JSON.stringify(p)}\n`;
    if (piece.length >= 65_536) {
      yield piece;
      piece = '';
    }
  }
  if (piece) yield piece;
}

/** What is wrong with a catalog's first line, or null when it is the header the sandbox writes. */
function headerProblem(v: unknown): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object';
  const h = v as Record<string, unknown>;
  if (typeof h.siteId !== 'string') return `"siteId" is ${JSON.stringify(h.siteId)}, not a string`;
  if (!Number.isSafeInteger(h.feedId) || (h.feedId as number) < 1)
    return `"feedId" is ${JSON.stringify(h.feedId)}, not a whole number >= 1`;
  if (typeof h.indexedAt !== 'string' || Number.isNaN(Date.parse(h.indexedAt)))
    return `"indexedAt" is ${JSON.stringify(h.indexedAt)}, not an ISO time`;
  // written since catalogs are ordered by when they landed; a header from before has none
  if (h.landing !== undefined && !(Number.isSafeInteger(h.landing) && (h.landing as number) >= 1))
    return `"landing" is ${JSON.stringify(h.landing)}, not a whole number >= 1 (or absent)`;
  return null;
}

const PRODUCT_FIELDS: ReadonlyArray<[keyof Product, (v: unknown) => boolean, string]> = [
  ['uid', (v) => typeof v === 'string', 'a string'],
  ['sku', (v) => v === null || typeof v === 'string', 'a string or null'],
  ['parentId', (v) => v === null || typeof v === 'string', 'a string or null'],
  ['name', (v) => v === null || typeof v === 'string', 'a string or null'],
  ['price', (v) => v === null || typeof v === 'number', 'a number or null'],
  ['fields', (v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'an object'],
  ['line', (v) => typeof v === 'number', 'a number'],
];

/** What is wrong with a product line, or null when it is a product as the sandbox writes them. */
function productProblem(v: unknown): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object';
  for (const [key, ok, rule] of PRODUCT_FIELDS) {
    const value = (v as Record<string, unknown>)[key];
    if (!ok(value)) return `"${key}" is ${JSON.stringify(value) ?? 'missing'}, not ${rule}`;
  }
  return null;
}

export interface CatalogHeader {
  siteId: string;
  feedId: number;
  indexedAt: string;
  landing?: number;
}

/** A catalog file's content is not what the sandbox writes (see `readCatalog`). */
class Damage extends Error {}

/**
 * A catalog file read back (its header and products), or what is wrong with it (`damage`, with its
 * header when that was read). Throws
 * a DataDirError when the file cannot be read at all.
 */
export async function readCatalog(
  file: string,
): Promise<
  | { header: CatalogHeader; products: Product[]; landing: number | undefined }
  | { damage: string; header: CatalogHeader | null; landing: number | undefined }
> {
  const input = createReadStream(file, 'utf8');
  const lines = createInterface({ input, crlfDelay: Infinity });
  let header = null as CatalogHeader | null;
  const products: Product[] = [];
  const damaged = (n: number, what: string, why: string) =>
    new Damage(`line ${n} is not ${what} (${why})`);
  let n = 0;
  try {
    for await (const line of lines) {
      n++;
      if (!line) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (err) {
        throw damaged(n, header ? 'a product' : "the catalog's header", (err as Error).message);
      }
      if (!header) {
        const problem = headerProblem(value);
        if (problem) throw damaged(n, "the catalog's header", problem);
        header = value as typeof header;
      } else {
        const problem = productProblem(value);
        if (problem) throw damaged(n, 'a product', problem);
        products.push(value as Product);
      }
    }
  } catch (err) {
    if (err instanceof Damage) return { damage: err.message, header, landing: header?.landing };
    throw dataDirFailure(file, err, 'read');
  } finally {
    lines.close();
    input.destroy();
  }
  if (!header) return { damage: 'is empty', header: null, landing: undefined };
  return { header, products, landing: header.landing };
}

/** The feed a catalog's file name says (`<siteId>-<feedId>.ndjson`), or null. */
export function feedOfFile(name: string): { siteId: string; feedId: number } | null {
  const m = /^(.+)-(\d+)\.ndjson$/.exec(name);
  const feedId = m ? Number(m[2]) : NaN;
  return m && Number.isSafeInteger(feedId) && feedId >= 1 ? { siteId: m[1]!, feedId } : null;
}
