// Simple, predictable search over a catalog's results: text matching, filters, sorting and facet counts.
// Every query word (a trailing s dropped) must start a word of name, sku, brand or description (or equal a uid/sku).
import type { Product } from '../indexing/catalog';
import { brandOf, descriptionOf, fieldValue, type SearchItem } from './items';

export type Filter =
  | { kind: 'value'; field: string; values: string[]; background: boolean }
  | { kind: 'range'; field: string; low: number | null; high: number | null; background: boolean };

export interface Sort {
  field: string;
  direction: 'asc' | 'desc';
}

/** Lowercase words of a text: letters and digits, everything else separates. */
export function words(text: string | null): string[] {
  if (!text) return [];
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

// Where a query word matched decides the score: a name hit outranks a description hit.
const WEIGHTS = { name: 4, sku: 3, brand: 2, description: 1 } as const;

// A catalog is searched many times between re-indexes: each row's words are split once.
const rowWords = new WeakMap<Product, Array<[number, string[]]>>();

function fieldsOf(p: Product): Array<[number, string[]]> {
  let fields = rowWords.get(p);
  if (!fields) {
    fields = [
      [WEIGHTS.name, words(p.name)],
      [WEIGHTS.sku, words(p.sku)],
      [WEIGHTS.brand, words(brandOf(p))],
      [WEIGHTS.description, words(descriptionOf(p))],
    ];
    rowWords.set(p, fields);
  }
  return fields;
}

function rowScore(p: Product, terms: string[], exact: string): number {
  if (exact && (p.uid.toLowerCase() === exact || p.sku?.toLowerCase() === exact)) return 100;
  const fields = fieldsOf(p);
  let score = 0;
  for (const term of terms) {
    // a plural finds the singular: "jackets" matches "Jacket"
    const stem = term.length > 3 && term.endsWith('s') ? term.slice(0, -1) : term;
    let best = 0;
    for (const [weight, ws] of fields)
      if (weight > best && ws.some((w) => w.startsWith(stem))) best = weight;
    if (best === 0) return 0;
    score += best;
  }
  return score;
}

/** Relevance of an item for the query: the best of its rows; 0 = no match. An empty query matches all. */
export function score(item: SearchItem, q: string): number {
  const terms = words(q);
  if (terms.length === 0) return 1;
  const exact = q.trim().toLowerCase();
  let best = 0;
  for (const row of item.rows) best = Math.max(best, rowScore(row, terms, exact));
  return best;
}

/** Values of a field on a row: `|` separates several values ("Shoes|Running"). */
export function valuesOf(p: Product, field: string): string[] {
  const v = fieldValue(p, field);
  if (v === null) return [];
  return v.includes('|')
    ? v
        .split('|')
        .map((s) => s.trim())
        .filter(Boolean)
    : [v];
}

function rowPasses(p: Product, f: Filter): boolean {
  if (f.kind === 'value') {
    const have = valuesOf(p, f.field).map((v) => v.toLowerCase());
    return f.values.some((v) => have.includes(v.toLowerCase()));
  }
  const raw = f.field === 'price' ? p.price : Number(fieldValue(p, f.field));
  if (raw === null || !Number.isFinite(raw)) return false;
  return (f.low === null || raw >= f.low) && (f.high === null || raw <= f.high);
}

/** An item passes a filter when one of its rows (the parent or a variant) does. */
export function passes(item: SearchItem, filters: readonly Filter[]): boolean {
  return filters.every((f) => item.rows.some((row) => rowPasses(row, f)));
}

export function sortItems(
  items: Array<{ item: SearchItem; score: number }>,
  sort: Sort | null,
): void {
  if (!sort || sort.field === 'relevance') {
    items.sort((a, b) => b.score - a.score || a.item.order - b.item.order);
    return;
  }
  const dir = sort.direction === 'asc' ? 1 : -1;
  const key = (i: SearchItem): number | string | null => {
    if (sort.field === 'price') return i.price;
    const v = fieldValue(i.base, sort.field);
    if (v === null) return null;
    const n = Number(v);
    return v.trim() !== '' && Number.isFinite(n) ? n : v.toLowerCase();
  };
  items.sort((a, b) => {
    const ka = key(a.item);
    const kb = key(b.item);
    // items without the field go last, whatever the direction
    if (ka === null || kb === null)
      return ka === kb ? a.item.order - b.item.order : ka === null ? 1 : -1;
    if (ka < kb) return -dir;
    if (ka > kb) return dir;
    return a.item.order - b.item.order;
  });
}

/** Distinct values of `field` over items, with how many items carry each (counted once per item). */
export function valueCounts(items: readonly SearchItem[], field: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) {
    const seen = new Set<string>();
    for (const row of item.rows) for (const v of valuesOf(row, field)) seen.add(v);
    for (const v of seen) counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return counts;
}

/** Lowest and highest value of a numeric field over items (price: each item's lowest price). */
export function numericRange(items: readonly SearchItem[], field: string): [number, number] | null {
  let low = Infinity;
  let high = -Infinity;
  for (const item of items) {
    for (const row of item.rows) {
      const n = field === 'price' ? row.price : Number(fieldValue(row, field));
      if (n === null || !Number.isFinite(n)) continue;
      low = Math.min(low, n);
      high = Math.max(high, n);
    }
  }
  return low === Infinity ? null : [low, high];
}
