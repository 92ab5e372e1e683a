// What the search reads of a catalog, prepared once per catalog in slices that give the event loop back: its
// results (rows grouped by parent), an inverted index of the words of each row's name, sku, brand and
// description (a sorted vocabulary, so that a query word finds every word it starts), the rows by lowercase
// uid and sku, and on first use per field the distinct values of each result. A search then reads these
// instead of splitting every row's text again (373,000 rows took 6–9 s the first time, 1–2 s after, in one turn).
import type { FeedCatalog } from '../indexing/catalog';
import { Slicer, sortInSlices } from '../slices';
import { brandOf, descriptionOf, groupedInSlices, type SearchItem } from './items';
import { valuesOf, words } from './words';

/** Where a word stands decides its weight: a name hit outranks a description hit (name, sku, brand, description). */
export const FIELD_WEIGHTS = [4, 3, 2, 1] as const;

/** rows (or results, or postings) handled between two looks at the slice's clock */
export const STEP = 1024;

/** The distinct values of one field on each result (over its rows, in the order they come). */
export interface FieldValues {
  /** every distinct value of the field, by id */
  values: string[];
  /** values[id].toLowerCase() */
  lower: string[];
  /** result i's value ids are ids[start[i]] … ids[start[i + 1] - 1] */
  start: Int32Array;
  ids: Int32Array;
}

export interface CatalogIndex {
  catalog: FeedCatalog;
  items: SearchItem[];
  /** the result of each row (by index in catalog.products), -1 for a row of no result */
  rowItem: Int32Array;
  /** every word of the searched fields, sorted (code unit order): those a prefix starts are adjacent */
  vocabulary: string[];
  /** for each word, where it stands: row * 4 + field (0 name … 3 description), once per row and field */
  postings: Postings;
  /** rows by lowercase uid and by lowercase sku (a query equal to one finds it) */
  exact: Postings;
  /** some result has a price */
  hasPrice: boolean;
}

const indexes = new WeakMap<FeedCatalog, Promise<CatalogIndex>>();
/** the catalogs whose index is built (not only under way) */
const built = new WeakSet<FeedCatalog>();

/** Whether a search of `catalog` would find its index built, find it being built, or build it. */
export function catalogIndexState(catalog: FeedCatalog): 'built' | 'building' | 'none' {
  return built.has(catalog) ? 'built' : indexes.has(catalog) ? 'building' : 'none';
}

/** The catalog's index: built on first ask, in slices; every later ask (and one made meanwhile) shares it. */
export function catalogIndex(catalog: FeedCatalog, slicer = new Slicer()): Promise<CatalogIndex> {
  let index = indexes.get(catalog);
  if (!index) {
    index = build(catalog, slicer);
    indexes.set(catalog, index);
    void index.then(
      () => built.add(catalog),
      () => undefined,
    );
    // a failed build (it should not) is tried again by the next search
    index.catch(() => indexes.delete(catalog));
  }
  return index;
}

/** A key's rows: one as a number, several as a list (most words and ids are in one row only). */
export type Postings = Map<string, number | number[]>;

function push(map: Postings, key: string, value: number): void {
  const had = map.get(key);
  if (had === undefined) map.set(key, value);
  // one posting per row and field, however often the word comes in it
  else if (typeof had === 'number') {
    if (had !== value) map.set(key, [had, value]);
  } else if (had[had.length - 1] !== value) had.push(value);
}

/** The postings of a key as a list. */
export function listOf(had: number | number[] | undefined): readonly number[] {
  return had === undefined ? [] : typeof had === 'number' ? [had] : had;
}

async function build(catalog: FeedCatalog, slicer: Slicer): Promise<CatalogIndex> {
  const { items, rowItem } = await groupedInSlices(catalog, slicer);
  const products = catalog.products;
  const postings: Postings = new Map();
  const exact: Postings = new Map();
  for (let r = 0; r < products.length; r++) {
    if (r % STEP === 0) await slicer.breathe();
    if (rowItem[r] === -1) continue;
    const p = products[r]!;
    const texts = [p.name, p.sku, brandOf(p), descriptionOf(p)];
    for (let f = 0; f < 4; f++) for (const w of words(texts[f]!)) push(postings, w, r * 4 + f);
    push(exact, p.uid.toLowerCase(), r);
    if (p.sku !== null) push(exact, p.sku.toLowerCase(), r);
  }
  const unsorted: string[] = [];
  for (const w of postings.keys()) unsorted.push(w);
  const vocabulary = await sortInSlices(unsorted, (a, b) => (a < b ? -1 : a > b ? 1 : 0), slicer);
  let hasPrice = false;
  for (let i = 0; i < items.length && !hasPrice; i++) {
    if (i % STEP === 0) await slicer.breathe();
    hasPrice = items[i]!.price !== null;
  }
  return { catalog, items, rowItem, vocabulary, postings, exact, hasPrice };
}

/** The first index of the vocabulary whose word is not below `word`. */
export function lowerBound(sorted: readonly string[], word: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < word) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const fieldValues = new WeakMap<CatalogIndex, Map<string, Promise<FieldValues>>>();

/** The distinct values of `field` on each result (filters and facets read them), built on first use in slices. */
export function valuesOfField(
  index: CatalogIndex,
  field: string,
  slicer: Slicer,
): Promise<FieldValues> {
  let byField = fieldValues.get(index);
  if (!byField) fieldValues.set(index, (byField = new Map()));
  let values = byField.get(field);
  if (!values) {
    values = buildValues(index.items, field, slicer);
    byField.set(field, values);
  }
  return values;
}

async function buildValues(
  items: readonly SearchItem[],
  field: string,
  slicer: Slicer,
): Promise<FieldValues> {
  const idOf = new Map<string, number>();
  const values: string[] = [];
  const start = new Int32Array(items.length + 1);
  const ids: number[] = [];
  for (let i = 0; i < items.length; i++) {
    if (i % STEP === 0) await slicer.breathe();
    start[i] = ids.length;
    const seen = new Set<string>();
    for (const row of items[i]!.rows) for (const v of valuesOf(row, field)) seen.add(v);
    for (const v of seen) {
      let id = idOf.get(v);
      if (id === undefined) {
        id = values.length;
        idOf.set(v, id);
        values.push(v);
      }
      ids.push(id);
    }
  }
  start[items.length] = ids.length;
  return {
    values,
    lower: values.map((v) => v.toLowerCase()),
    start,
    ids: Int32Array.from(ids),
  };
}

const nameWords = new WeakMap<CatalogIndex, Promise<Array<[string, number]>>>();

/**
 * The words of the product names with the number of rows whose name has each, most frequent first, then
 * alphabetical (what suggestions complete from): counted from the postings, sorted in slices.
 */
export function countedNameWords(
  index: CatalogIndex,
  slicer: Slicer,
): Promise<Array<[string, number]>> {
  let list = nameWords.get(index);
  if (!list) {
    list = countNameWords(index, slicer);
    nameWords.set(index, list);
  }
  return list;
}

async function countNameWords(
  index: CatalogIndex,
  slicer: Slicer,
): Promise<Array<[string, number]>> {
  const counts: Array<[string, number]> = [];
  let steps = 0;
  for (const [w, had] of index.postings) {
    const list = listOf(had);
    let n = 0;
    for (const code of list) if ((code & 3) === 0) n++;
    if (n > 0) counts.push([w, n]);
    steps += list.length;
    if (steps >= STEP) {
      steps = 0;
      await slicer.breathe();
    }
  }
  return await sortInSlices(counts, (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1), slicer);
}

const fieldNames = new WeakMap<CatalogIndex, Promise<ReadonlySet<string>>>();

/**
 * The fields some product of the catalog has a value for (its columns, and `name`, `sku`, `brand` read from
 * their usual columns), in the order first met: what a sort may name. Collected once per catalog, in slices.
 */
export function catalogFields(index: CatalogIndex, slicer: Slicer): Promise<ReadonlySet<string>> {
  let names = fieldNames.get(index);
  if (!names) {
    names = collectFields(index.catalog.products, slicer);
    fieldNames.set(index, names);
  }
  return names;
}

async function collectFields(
  products: FeedCatalog['products'],
  slicer: Slicer,
): Promise<ReadonlySet<string>> {
  const names = new Set<string>();
  for (let r = 0; r < products.length; r++) {
    if (r % STEP === 0) await slicer.breathe();
    const p = products[r]!;
    if (p.name !== null) names.add('name');
    if (p.sku !== null) names.add('sku');
    if (brandOf(p) !== null) names.add('brand');
    for (const [k, v] of Object.entries(p.fields)) if (v !== '') names.add(k);
  }
  return names;
}
