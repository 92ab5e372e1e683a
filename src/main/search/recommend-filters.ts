// What narrows a widget's products, as the Snap client's RecommendAPI posts it: `filters` (global and per
// profile, `{field, type: '=' | '!=' | '>=' | …, values}` after its transformRecommendationFiltersPost),
// and a profile's `categories` and `brands`. A product passes when one of its rows (the product or a variant)
// passes every filter.
import type { Product } from '../indexing/catalog';
import { isObject } from '../../shared/values';
import { field as fieldOf, fieldValue, type SearchItem } from './items';
import { CATEGORY_FIELDS } from './traffic';
import { InvalidParameter } from './errors';
import { clipped } from '../../shared/text';

export const FILTER_TYPES = ['=', '==', '===', '!=', '!==', '>', '<', '>=', '<='] as const;
export type FilterType = (typeof FILTER_TYPES)[number];

export interface RecommendFilter {
  field: string;
  type: FilterType;
  values: Array<string | number>;
}

export interface Narrowing {
  filters: RecommendFilter[];
  /** any of these categories (case-insensitive); empty: any */
  categories: string[];
  /** any of these brands (case-insensitive); empty: any */
  brands: string[];
}

function bad(field: string, value: unknown, expected: string): InvalidParameter {
  return new InvalidParameter(`${field}=${clipped(String(JSON.stringify(value)))}: ${expected}`);
}

/** `filters` of a recommend body (absent: none), each checked with the field named. */
export function parseFilters(v: unknown, field: string): RecommendFilter[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v))
    throw bad(
      field,
      v,
      'expected a list of filters like [{"field": "color", "type": "=", "values": ["Red"]}]',
    );
  return v.map((raw, i) => {
    const at = `${field}[${i}]`;
    if (!isObject(raw)) throw bad(at, raw, 'expected {"field", "type", "values"}');
    if (typeof raw.field !== 'string' || raw.field === '')
      throw bad(`${at}.field`, raw.field, 'expected the name of a catalog field, e.g. "color"');
    if (!(FILTER_TYPES as readonly unknown[]).includes(raw.type))
      throw bad(`${at}.type`, raw.type, `expected one of ${FILTER_TYPES.join(' ')}`);
    const values = raw.values;
    if (
      !Array.isArray(values) ||
      values.length === 0 ||
      values.some((x) => typeof x !== 'string' && (typeof x !== 'number' || !Number.isFinite(x)))
    )
      throw bad(`${at}.values`, values, 'expected a non-empty list of strings or numbers');
    return {
      field: raw.field,
      type: raw.type as FilterType,
      values: values as Array<string | number>,
    };
  });
}

function compare(actual: string, type: FilterType, wanted: string | number): boolean {
  const a = Number(actual);
  const w = Number(wanted);
  const numeric = actual.trim() !== '' && Number.isFinite(a) && Number.isFinite(w);
  switch (type) {
    case '=':
    case '==':
    case '===':
      return numeric ? a === w : actual.toLowerCase() === String(wanted).toLowerCase();
    case '!=':
    case '!==':
      return numeric ? a !== w : actual.toLowerCase() !== String(wanted).toLowerCase();
    case '>':
      return numeric && a > w;
    case '<':
      return numeric && a < w;
    case '>=':
      return numeric && a >= w;
    case '<=':
      return numeric && a <= w;
  }
}

function rowPasses(row: Product, n: Narrowing): boolean {
  for (const f of n.filters) {
    const v = fieldValue(row, f.field);
    if (v === null) return false;
    // a negation holds against every value; the others against any
    const holds =
      f.type === '!=' || f.type === '!=='
        ? f.values.every((w) => compare(v, f.type, w))
        : f.values.some((w) => compare(v, f.type, w));
    if (!holds) return false;
  }
  if (n.categories.length > 0) {
    const c = fieldOf(row, CATEGORY_FIELDS)?.toLowerCase() ?? '';
    if (!n.categories.some((x) => c.split('|').some((part) => part.trim() === x))) return false;
  }
  if (n.brands.length > 0 && !n.brands.includes(fieldValue(row, 'brand')?.toLowerCase() ?? ''))
    return false;
  return true;
}

export function narrows(n: Narrowing): boolean {
  return n.filters.length > 0 || n.categories.length > 0 || n.brands.length > 0;
}

/** Does the item pass: one of its rows passes every filter, category and brand asked for. */
export function passesNarrowing(item: SearchItem, n: Narrowing): boolean {
  return item.rows.some((row) => rowPasses(row, n));
}
