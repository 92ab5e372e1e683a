// The body of `POST /v1/recommend` as the provider's Snap client sends it (RecommendAPI batches every widget
// of a page into one request: `{siteId, profiles: [{tag, limit?, blockedItems?, …}], products?, cart?,
// lastViewed?, shopper?, blockedItems?, test?}`; 0.78 adds `beacon: true`, later clients
// send none: every widget answered gets its responseId either way), read into a request; a bad field is an error
// naming it, its value and what is expected.
import { isObject } from '../../shared/values';
import { MAX_RECOMMENDATION_LIMIT } from './recommend-config';
import { parseFilters, type RecommendFilter } from './recommend-filters';
import { InvalidBody, InvalidParameter, MissingParameter } from './errors';
import { clipped } from '../../shared/text';

export interface WidgetRequest {
  tag: string;
  /** null: the profile's configured limit */
  limit: number | null;
  blockedItems: string[];
  filters: RecommendFilter[];
  /** lowercased */
  categories: string[];
  /** lowercased */
  brands: string[];
}

export interface RecommendRequest {
  siteId: string;
  profiles: WidgetRequest[];
  products: string[];
  cart: string[];
  lastViewed: string[];
  shopper: string;
  blockedItems: string[];
  filters: RecommendFilter[];
  /** test=true: development traffic (the Snap client's development mode sends it) */
  test: boolean;
}

/** Most widgets one request may ask for (a page holds a handful). */
export const MAX_PROFILES = 50;

function bad(field: string, value: unknown, expected: string): InvalidParameter {
  return new InvalidParameter(`${field}=${clipped(String(JSON.stringify(value)))}: ${expected}`);
}

/** Ids as a list of strings; numbers are ids too, as the real service takes them. */
function idList(v: unknown, field: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v))
    throw bad(field, v, 'expected a list of product ids or skus, e.g. ["P200", "P200-RED-M"]');
  return v.map((id, i) => {
    if (typeof id === 'string' && id !== '') return id;
    if (typeof id === 'number' && Number.isFinite(id)) return String(id);
    throw bad(`${field}[${i}]`, id, 'expected a product id or sku (a non-empty string)');
  });
}

/** Category or brand names: a list of non-empty strings, compared case-insensitively. */
function names(v: unknown, field: string, example: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || x.trim() === ''))
    throw bad(field, v, `expected a list of names, e.g. ${example}`);
  return (v as string[]).map((x) => x.trim().toLowerCase());
}

function flag(v: unknown, field: string): boolean {
  if (v === undefined || v === null || v === false || v === 'false') return false;
  if (v === true || v === 'true') return true;
  throw bad(field, v, 'expected true or false');
}

function widget(raw: unknown, i: number): WidgetRequest {
  const field = `profiles[${i}]`;
  if (!isObject(raw)) throw bad(field, raw, 'expected a profile object like {"tag": "similar"}');
  if (typeof raw.tag !== 'string' || raw.tag === '')
    throw bad(`${field}.tag`, raw.tag, 'expected the widget\'s profile tag, e.g. "similar"');
  let limit: number | null = null;
  if (raw.limit !== undefined && raw.limit !== null) {
    if (
      typeof raw.limit !== 'number' ||
      !Number.isInteger(raw.limit) ||
      raw.limit < 1 ||
      raw.limit > MAX_RECOMMENDATION_LIMIT
    )
      throw bad(
        `${field}.limit`,
        raw.limit,
        `expected a whole number from 1 to ${MAX_RECOMMENDATION_LIMIT}`,
      );
    limit = raw.limit;
  }
  return {
    tag: raw.tag,
    limit,
    blockedItems: idList(raw.blockedItems, `${field}.blockedItems`),
    filters: parseFilters(raw.filters, `${field}.filters`),
    categories: names(raw.categories, `${field}.categories`, '["Jackets"]'),
    brands: names(raw.brands, `${field}.brands`, '["Northfold"]'),
  };
}

/** The request of a recommend body (the JSON text as sent: the Snap client posts it as text/plain). */
export function parseRecommendRequest(text: string): RecommendRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new InvalidBody(
      `the body is not JSON (${JSON.stringify(text.slice(0, 60))}${text.length > 60 ? '…' : ''}): send {"siteId": "…", "profiles": [{"tag": "…"}], "products": ["…"]} as the Snap client's RecommendAPI does`,
    );
  }
  if (!isObject(body))
    throw new InvalidBody(
      `the body must be a JSON object like {"siteId": "…", "profiles": [{"tag": "…"}]}, got ${JSON.stringify(body)}`,
    );
  if (typeof body.siteId !== 'string' || body.siteId === '')
    throw new MissingParameter(
      `siteId=${JSON.stringify(body.siteId)}: the body needs "siteId", the site's id (e.g. "demo42")`,
    );
  const profiles = body.profiles;
  if (!Array.isArray(profiles) || profiles.length === 0 || profiles.length > MAX_PROFILES)
    throw bad(
      'profiles',
      profiles,
      `expected a list of 1 to ${MAX_PROFILES} widget profiles, e.g. [{"tag": "similar"}]`,
    );
  const products = idList(body.products, 'products');
  // the single `product` of older clients is one of the products
  if (body.product !== undefined) products.push(...idList([body.product], 'product'));
  if (body.shopper !== undefined && body.shopper !== null && typeof body.shopper !== 'string')
    throw bad('shopper', body.shopper, "expected the logged-in shopper's id (a string)");
  return {
    siteId: body.siteId,
    profiles: profiles.map(widget),
    products,
    cart: idList(body.cart, 'cart'),
    lastViewed: idList(body.lastViewed, 'lastViewed'),
    shopper: typeof body.shopper === 'string' ? body.shopper : '',
    blockedItems: idList(body.blockedItems, 'blockedItems'),
    filters: parseFilters(body.filters, 'filters'),
    test: flag(body.test, 'test'),
  };
}
