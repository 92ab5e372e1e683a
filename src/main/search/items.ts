// A catalog as the search API sees it: products grouped into results (variants under their parent when
// the feed has parent ids), with the fields a storefront shows read from the feed's usual column names.
import type { FeedCatalog, Product } from '../indexing/catalog';
import { parsePrice } from '../indexing/catalog';
import type { IssuedResult } from './responses';
import type { Slicer } from '../slices';

/** One search result: a product, or a parent with its variants as children. */
export interface SearchItem {
  /** the result's uid: the product's uid, or the parent id of a variant group */
  uid: string;
  /** the group's parent id (= uid) when the catalog has parent ids, else null */
  parentId: string | null;
  /** the row the result's fields come from: the parent's own row, else the first variant */
  base: Product;
  /** the variants, in feed order (empty for a product without variants) */
  children: Product[];
  /** every row of the result (base and children), for matching and filtering */
  rows: Product[];
  /** lowest price of its rows */
  price: number | null;
  order: number;
}

const FIELDS = {
  url: ['url', 'link', 'product_url', 'productUrl', 'g:link'],
  imageUrl: ['imageUrl', 'image_url', 'image', 'image_link', 'g:image_link', 'imageURL'],
  thumbnailImageUrl: ['thumbnailImageUrl', 'thumbnail_image_url', 'thumbnail', 'thumbnail_url'],
  brand: ['brand', 'g:brand', 'vendor', 'manufacturer', 'Brand'],
  description: ['description', 'g:description', 'body', 'Description'],
  msrp: ['msrp', 'compare_at_price', 'list_price', 'retail_price'],
} as const;

/** The core fields the provider's client reads by name; every other field is an attribute. */
export const CORE_FIELDS = [
  'uid',
  'sku',
  'name',
  'url',
  'price',
  'msrp',
  'imageUrl',
  'thumbnailImageUrl',
  'brand',
  'description',
];

export function field(p: Product, names: readonly string[]): string | null {
  for (const n of names) {
    const v = p.fields[n];
    if (v !== undefined && v !== '') return v;
  }
  return null;
}

/** the product's page URL, from the feed's usual column names */
export function urlOf(p: Product): string | null {
  return field(p, FIELDS.url);
}

export function brandOf(p: Product): string | null {
  return field(p, FIELDS.brand);
}

export function descriptionOf(p: Product): string | null {
  return field(p, FIELDS.description);
}

/** The value of a catalog field for filters and facets (`price` is the parsed price). */
export function fieldValue(p: Product, name: string): string | null {
  if (name === 'price') return p.price === null ? null : String(p.price);
  if (name === 'brand') return brandOf(p);
  if (name === 'name') return p.name;
  if (name === 'sku') return p.sku;
  const v = p.fields[name];
  return v === undefined || v === '' ? null : v;
}

/** A catalog's results, and for each of its rows (by index in `products`) the result it belongs to. */
export interface Grouped {
  items: SearchItem[];
  /** the index in `items` of each row's result; -1 for a row left out (a second row with its parent's id) */
  rowItem: Int32Array;
}

const cache = new WeakMap<FeedCatalog, Grouped>();

/**
 * The catalog's results in feed order, with each row's result: grouped once per catalog (a re-index makes a
 * new catalog), in slices that give the event loop back.
 */
export async function groupedInSlices(catalog: FeedCatalog, slicer: Slicer): Promise<Grouped> {
  let grouped = cache.get(catalog);
  if (!grouped) {
    const steps = group(catalog.products);
    let step = steps.next();
    while (!step.done) {
      await slicer.breathe();
      step = steps.next();
    }
    // another caller may have grouped it meanwhile: one array of results per catalog
    grouped = cache.get(catalog) ?? step.value;
    cache.set(catalog, grouped);
  }
  return grouped;
}

/** rows looked at between two yields of the grouping */
const GROUP_STEP = 2048;

function* group(products: readonly Product[]): Generator<void, Grouped> {
  // (reading a packed row's parent id may unpack the row: this too is done in slices)
  let grouped = false;
  for (let i = 0; i < products.length && !grouped; i++) {
    if (i % GROUP_STEP === GROUP_STEP - 1) yield;
    grouped = products[i]!.parentId !== null;
  }
  const byKey = new Map<string, { own: number; children: number[]; order: number }>();
  let order = 0;
  for (let i = 0; i < products.length; i++) {
    if (i % GROUP_STEP === GROUP_STEP - 1) yield;
    const p = products[i]!;
    const key = grouped ? (p.parentId ?? p.uid) : p.uid;
    let g = byKey.get(key);
    if (!g) byKey.set(key, (g = { own: -1, children: [], order: order++ }));
    if (p.uid === key) {
      if (g.own === -1) g.own = i;
    } else g.children.push(i);
  }
  const items: SearchItem[] = [];
  const rowItem = new Int32Array(products.length).fill(-1);
  for (const [uid, g] of byKey) {
    if (items.length % GROUP_STEP === GROUP_STEP - 1) yield;
    const at = items.length;
    const children = g.children.map((i) => products[i]!);
    const own = g.own === -1 ? null : products[g.own]!;
    const base = own ?? children[0]!;
    const rows = own ? [own, ...children] : children;
    if (g.own !== -1) rowItem[g.own] = at;
    for (const i of g.children) rowItem[i] = at;
    let price: number | null = null;
    for (const r of rows)
      if (r.price !== null && (price === null || r.price < price)) price = r.price;
    items.push({
      uid,
      parentId: grouped ? uid : null,
      base,
      children,
      rows,
      price,
      order: g.order,
    });
  }
  return { items, rowItem };
}

/** What a response that served `i` records of it, for the provenance rules (IssuedResponse.results). */
export function issuedResult(i: SearchItem): IssuedResult {
  return {
    uid: i.uid,
    sku: i.base.sku,
    parentId: i.parentId,
    children: i.children.map((c) => ({
      uid: c.uid,
      sku: c.sku,
      ...(c.price !== null && c.price > 0 && { price: c.price }),
    })),
    // the price resultJson serves (price-unit-mismatch compares a quick add's with it)
    ...(i.price !== null && i.price > 0 && { price: i.price }),
  };
}

/**
 * `price` and `msrp` of a result or a variant, each written one way: the number read from the feed, as a
 * plain decimal ("139", "119.95"), whatever the feed wrote ("139.00", "$1,299.00"), which the provider's
 * client could not read as a number. `msrp` only when above the price (it is the price before a
 * discount); neither when the feed's value is not a price. Other columns stay as the feed wrote them.
 */
function setPrices(out: Record<string, unknown>, price: number | null, row: Product): void {
  delete out.price;
  delete out.msrp;
  if (price !== null) out.price = String(price);
  const msrp = parsePrice(field(row, FIELDS.msrp));
  if (msrp !== null && (price === null || msrp > price)) out.msrp = String(msrp);
}

/** A result in the shape of the provider's search.json (`resultsFormat=native`): strings, like the real API. */
export function resultJson(item: SearchItem): Record<string, unknown> {
  const b = item.base;
  const out: Record<string, unknown> = {};
  // attributes first, so the core fields below win over same-named feed columns
  for (const [k, v] of Object.entries(b.fields))
    if (v !== '' && !['id', 'parent_id', 'parentId'].includes(k)) out[k] = v;
  out.uid = item.uid;
  // the provider's client maps parentId into the result's core fields and sends it in beacons
  if (item.parentId !== null) out.parentId = item.parentId;
  else delete out.parentId;
  // a parent without a row of its own shows its first variant, that variant's sku included (as a
  // storefront platform gives a product the sku of its first variant): the client sends it in clicks
  if (b.sku !== null) out.sku = b.sku;
  else delete out.sku;
  if (b.name !== null) out.name = b.name;
  const url = field(b, FIELDS.url);
  if (url !== null) out.url = url;
  setPrices(out, item.price, b);
  const image = field(b, FIELDS.imageUrl);
  if (image !== null) out.imageUrl = image;
  const thumb = field(b, FIELDS.thumbnailImageUrl) ?? image;
  if (thumb !== null) out.thumbnailImageUrl = thumb;
  const brand = brandOf(b);
  if (brand !== null) out.brand = brand;
  const description = descriptionOf(b);
  if (description !== null) out.description = description;
  if (item.children.length > 0) {
    out.children = item.children.map((c) => {
      const child: Record<string, string> = {};
      for (const [k, v] of Object.entries(c.fields)) if (v !== '') child[k] = v;
      child.uid = c.uid;
      if (c.sku !== null) child.sku = c.sku;
      setPrices(child, c.price, c);
      return child;
    });
  }
  return out;
}
