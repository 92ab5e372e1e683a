// What the recommendation strategies read of the traffic the sandbox recorded: the accepted beacons of a
// site at one endpoint (clicks, orders, product pages). Declared here, on the side that reads it; the core
// hands in the event store's answer, so search depends on no store and no HTTP.
import { RESPONSE_KINDS } from '../../shared/kinds';
import { isObject } from '../../shared/values';

export interface RecordedTraffic {
  /** bodies of the newest `max` accepted beacons of the site at `category/event`, oldest first */
  bodies(siteId: string, category: string, event: string, max: number): Iterable<unknown>;
}

/** How many beacons of one endpoint a strategy reads at most: bounded work per recommend request. */
export const TRAFFIC_WINDOW = 2_000;

/** The item ids a beacon item names (uid, parentId, sku), empty ones left out. */
export interface ItemIds {
  uid: string;
  parentId: string;
  sku: string;
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : '';
}

function ids(v: unknown): ItemIds | null {
  if (!isObject(v)) return null;
  const out = { uid: text(v.uid), parentId: text(v.parentId), sku: text(v.sku) };
  return out.uid || out.parentId || out.sku ? out : null;
}

function data(body: unknown): Record<string, unknown> {
  return isObject(body) && isObject(body.data) ? body.data : {};
}

/** `data.results` of a beacon body (clicks, orders) as item ids. */
export function resultIds(body: unknown): ItemIds[] {
  const results = data(body).results;
  if (!Array.isArray(results)) return [];
  const out: ItemIds[] = [];
  for (const r of results) {
    const item = ids(r);
    if (item && !(isObject(r) && r.type === 'banner')) out.push(item);
  }
  return out;
}

/** The product of a product/pageview body (`data.result`), and who viewed it. */
export function pageviewOf(
  body: unknown,
): { item: ItemIds; shopperId: string; userId: string } | null {
  const item = ids(data(body).result);
  if (!item) return null;
  const context = isObject(body) && isObject(body.context) ? body.context : {};
  return { item, shopperId: text(context.shopperId), userId: text(context.userId) };
}

/** Feed columns that hold a product's category (the first one a row has is read). */
export const CATEGORY_FIELDS = [
  'category',
  'categories',
  'Category',
  'category_hierarchy',
  'product_type',
  'g:product_type',
  'google_product_category',
];

/** The endpoints whose clicks make a product trending: every kind of result a shopper clicks. */
export const CLICK_CATEGORIES = RESPONSE_KINDS;
