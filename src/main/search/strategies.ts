// The recommendation strategies over a site's catalog and its recorded traffic (docs/search.md,
// "Recommendations"): similar (shared category, then other attributes, then any), also-bought (bought
// together in recorded orders), trending (most clicked), recently-viewed (the shopper's latest product pages).
import type { Product } from '../indexing/catalog';
import { Slicer, sortInSlices } from '../slices';
import { narrows, passesNarrowing, type Narrowing } from './recommend-filters';
import { CORE_FIELDS, field, fieldValue, type SearchItem } from './items';
import type { Strategy } from './recommend-config';
import {
  CATEGORY_FIELDS,
  CLICK_CATEGORIES,
  TRAFFIC_WINDOW,
  pageviewOf,
  resultIds,
  type ItemIds,
  type RecordedTraffic,
} from './traffic';

export interface StrategyInput {
  siteId: string;
  items: readonly SearchItem[];
  traffic: RecordedTraffic;
  /** the products the widget is about (the product page's, a cart's): ids as the storefront sent them */
  products: readonly string[];
  cart: readonly string[];
  /** most recent first, as the provider's client keeps them */
  lastViewed: readonly string[];
  shopper: string;
  /** ids never to recommend */
  blocked: readonly string[];
  /** filters, categories and brands the products must match */
  narrowing?: Narrowing;
  limit: number;
}

/** Fields that name or show one product (never shared by "similar" ones) besides the core fields. */
const OWN_FIELDS = new Set([
  ...CORE_FIELDS,
  'id',
  'parent_id',
  'parentId',
  'link',
  'image',
  ...CATEGORY_FIELDS,
]);

const indexes = new WeakMap<readonly SearchItem[], Promise<Map<string, SearchItem>>>();

/**
 * The result an id names: its uid, parent id or sku, or a variant's uid or sku. Built once per catalog, in
 * slices (a catalog of 100,000 rows took ~0.4 s to index: the loop is given back in between).
 */
export function itemIndex(
  items: readonly SearchItem[],
  slicer = new Slicer(),
): Promise<Map<string, SearchItem>> {
  let index = indexes.get(items);
  if (!index) {
    index = buildIndex(items, slicer);
    indexes.set(items, index);
  }
  return index;
}

async function buildIndex(
  items: readonly SearchItem[],
  slicer: Slicer,
): Promise<Map<string, SearchItem>> {
  const index = new Map<string, SearchItem>();
  const put = (id: string | null, item: SearchItem): void => {
    if (id && !index.has(id)) index.set(id, item);
  };
  for (let i = 0; i < items.length; i++) {
    if ((i & 63) === 0) await slicer.breathe();
    const item = items[i]!;
    put(item.uid, item);
    put(item.parentId, item);
    for (const row of item.rows) {
      put(row.uid, item);
      put(row.sku, item);
      put(row.parentId, item);
    }
  }
  return index;
}

function resolve(index: Map<string, SearchItem>, ids: ItemIds | string): SearchItem | undefined {
  if (typeof ids === 'string') return index.get(ids);
  return index.get(ids.uid) ?? index.get(ids.parentId) ?? index.get(ids.sku);
}

function resolveAll(index: Map<string, SearchItem>, ids: readonly string[]): Set<SearchItem> {
  const out = new Set<SearchItem>();
  for (const id of ids) {
    const item = resolve(index, id);
    if (item) out.add(item);
  }
  return out;
}

/** Is the item one of these ids, or a variant of one: by uid, parentId or sku of any of its rows. */
function named(item: SearchItem, ids: ReadonlySet<string>): boolean {
  if (ids.has(item.uid) || (item.parentId !== null && ids.has(item.parentId))) return true;
  return item.rows.some(
    (r) =>
      ids.has(r.uid) ||
      (r.sku !== null && ids.has(r.sku)) ||
      (r.parentId !== null && ids.has(r.parentId)),
  );
}

export async function recommend(strategy: Strategy, input: StrategyInput): Promise<SearchItem[]> {
  const slicer = new Slicer();
  const index = await itemIndex(input.items, slicer);
  const blockedIds = new Set(input.blocked);
  const blocked = resolveAll(index, input.blocked);
  const ranked =
    strategy === 'similar'
      ? await similar(input, index, slicer)
      : strategy === 'also-bought'
        ? await alsoBought(input, index, slicer)
        : strategy === 'trending'
          ? await trending(input, index, slicer)
          : await recentlyViewed(input, index, slicer);
  const narrowing = input.narrowing && narrows(input.narrowing) ? input.narrowing : null;
  const out: SearchItem[] = [];
  for (let i = 0; i < ranked.length && out.length < input.limit; i++) {
    if ((i & 63) === 0) await slicer.breathe();
    const item = ranked[i]!;
    if (blocked.has(item) || named(item, blockedIds) || out.includes(item)) continue;
    if (narrowing && !passesNarrowing(item, narrowing)) continue;
    out.push(item);
  }
  return out;
}

function categories(rows: readonly Product[]): Set<string> {
  const out = new Set<string>();
  for (const r of rows) {
    const v = field(r, CATEGORY_FIELDS);
    if (v === null) continue;
    // a list ("Jackets|Outerwear") shares any of its entries
    for (const part of v.split('|')) if (part.trim()) out.add(part.trim().toLowerCase());
  }
  return out;
}

function attributes(rows: readonly Product[]): Set<string> {
  const out = new Set<string>();
  for (const r of rows) {
    const brand = fieldValue(r, 'brand');
    if (brand) out.add(`brand\u0000${brand.toLowerCase()}`);
    for (const [k, v] of Object.entries(r.fields))
      if (v !== '' && !OWN_FIELDS.has(k)) out.add(`${k}\u0000${v.toLowerCase()}`);
  }
  return out;
}

const features = new WeakMap<SearchItem, { categories: Set<string>; attributes: Set<string> }>();

/** An item's categories and attributes, worked out once per catalog's item. */
function featuresOf(item: SearchItem): { categories: Set<string>; attributes: Set<string> } {
  let f = features.get(item);
  if (!f) {
    f = { categories: categories(item.rows), attributes: attributes(item.rows) };
    features.set(item, f);
  }
  return f;
}

/** Shared category first, then more shared attributes, then the rest in catalog order; never a requested product. */
async function similar(
  input: StrategyInput,
  index: Map<string, SearchItem>,
  slicer: Slicer,
): Promise<SearchItem[]> {
  const requestedIds = new Set(input.products);
  const seeds = resolveAll(index, input.products);
  const seedRows = [...seeds].flatMap((s) => s.rows);
  const seedCategories = categories(seedRows);
  const seedAttributes = attributes(seedRows);
  const scored: Array<{ item: SearchItem; category: boolean; shared: number }> = [];
  for (let i = 0; i < input.items.length; i++) {
    // the first ask of a catalog works out every item's features: ~0.6 s for 100,000 rows, in slices
    if ((i & 63) === 0) await slicer.breathe();
    const item = input.items[i]!;
    if (seeds.has(item) || named(item, requestedIds)) continue;
    const f = featuresOf(item);
    let category = false;
    for (const c of f.categories) if (seedCategories.has(c)) category = true;
    let shared = 0;
    for (const a of f.attributes) if (seedAttributes.has(a)) shared++;
    scored.push({ item, category, shared });
  }
  const sorted = await sortInSlices(
    scored,
    (a, b) =>
      Number(b.category) - Number(a.category) || b.shared - a.shared || a.item.order - b.item.order,
    slicer,
  );
  return sorted.map((s) => s.item);
}

/** Items counted by how often they appear, the most frequent first (the most recent among equals). */
function byCount(counts: Map<SearchItem, { n: number; last: number }>): SearchItem[] {
  return [...counts].sort((a, b) => b[1].n - a[1].n || b[1].last - a[1].last).map(([item]) => item);
}

function count(
  counts: Map<SearchItem, { n: number; last: number }>,
  item: SearchItem,
  at: number,
): void {
  const c = counts.get(item);
  if (c) {
    c.n++;
    c.last = at;
  } else counts.set(item, { n: 1, last: at });
}

/**
 * Bought together with the requested products (or, without any, with the cart's) in the orders the sandbox
 * recorded; with neither, the most bought. Never the products it was asked about.
 */
async function alsoBought(
  input: StrategyInput,
  index: Map<string, SearchItem>,
  slicer: Slicer,
): Promise<SearchItem[]> {
  const seedIds = input.products.length > 0 ? input.products : input.cart;
  const seeds = resolveAll(index, seedIds);
  const counts = new Map<SearchItem, { n: number; last: number }>();
  let at = 0;
  for (const body of input.traffic.bodies(input.siteId, 'order', 'transaction', TRAFFIC_WINDOW)) {
    if ((++at & 63) === 0) await slicer.breathe();
    const lines = new Set<SearchItem>();
    for (const ids of resultIds(body)) {
      const item = resolve(index, ids);
      if (item) lines.add(item);
    }
    if (seeds.size > 0 && ![...lines].some((i) => seeds.has(i))) continue;
    for (const item of lines) if (!seeds.has(item)) count(counts, item, at);
  }
  return byCount(counts);
}

/** The most clicked products of the site's recorded traffic (every kind of result), most recent among equals. */
async function trending(
  input: StrategyInput,
  index: Map<string, SearchItem>,
  slicer: Slicer,
): Promise<SearchItem[]> {
  const counts = new Map<SearchItem, { n: number; last: number }>();
  let n = 0;
  for (const category of CLICK_CATEGORIES) {
    for (const body of input.traffic.bodies(
      input.siteId,
      category,
      'clickthrough',
      TRAFFIC_WINDOW,
    )) {
      if ((++n & 63) === 0) await slicer.breathe();
      const at = clickTime(body);
      for (const ids of resultIds(body)) {
        const item = resolve(index, ids);
        if (item) count(counts, item, at);
      }
    }
  }
  return byCount(counts);
}

function clickTime(body: unknown): number {
  const ctx = (body as { context?: { timestamp?: unknown } } | null)?.context;
  const t = typeof ctx?.timestamp === 'string' ? Date.parse(ctx.timestamp) : NaN;
  return Number.isFinite(t) ? t : 0;
}

/**
 * The shopper's latest product pages: the ones the storefront's client remembers (`lastViewed`, most recent
 * first), then the product pages the sandbox recorded for this shopper (by shopperId or userId), newest first.
 */
async function recentlyViewed(
  input: StrategyInput,
  index: Map<string, SearchItem>,
  slicer: Slicer,
): Promise<SearchItem[]> {
  const out: SearchItem[] = [];
  const add = (item: SearchItem | undefined): void => {
    if (item && !out.includes(item)) out.push(item);
  };
  for (const id of input.lastViewed) add(resolve(index, id));
  if (input.shopper) {
    const views: SearchItem[] = [];
    let n = 0;
    for (const body of input.traffic.bodies(input.siteId, 'product', 'pageview', TRAFFIC_WINDOW)) {
      if ((++n & 63) === 0) await slicer.breathe();
      const view = pageviewOf(body);
      if (!view || (view.shopperId !== input.shopper && view.userId !== input.shopper)) continue;
      const item = resolve(index, view.item);
      if (item) views.push(item);
    }
    for (let i = views.length - 1; i >= 0; i--) add(views[i]);
  }
  return out;
}
