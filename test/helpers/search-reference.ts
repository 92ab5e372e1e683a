// The companion search's answer as it was computed before the catalog index (one synchronous pass over every
// result per search): the oracle the sliced, indexed search is compared with, body for body. Kept as it was
// written, apart from taking its pieces from here and remembering a row's words and field values (pure
// functions of the row, which no search changes: read again for every search, they made the equivalence
// test the longest in-process file); not used by the sandbox.
import type { FeedCatalog, Product } from '../../src/main/indexing/catalog';
import type { SearchConfig } from '../../src/main/search/config';
import {
  brandOf,
  descriptionOf,
  fieldValue,
  issuedResult,
  resultJson,
  type SearchItem,
} from '../../src/main/search/items';
import { merchandise, merchandisingJson } from '../../src/main/search/merchandising';
import { parseSearchRequest } from '../../src/main/search/params';
import type { Filter, Sort } from '../../src/main/search/query';
import {
  filterSummaryJson,
  label,
  paginationJson,
  sortOptionsJson,
} from '../../src/main/search/response-json';
import type { IssuedResult } from '../../src/main/search/responses';

export function group(products: readonly Product[]): SearchItem[] {
  const grouped = products.some((p) => p.parentId !== null);
  const byKey = new Map<string, { own: Product | null; children: Product[]; order: number }>();
  let order = 0;
  for (const p of products) {
    const key = grouped ? (p.parentId ?? p.uid) : p.uid;
    let g = byKey.get(key);
    if (!g) byKey.set(key, (g = { own: null, children: [], order: order++ }));
    if (p.uid === key) g.own ??= p;
    else g.children.push(p);
  }
  const items: SearchItem[] = [];
  for (const [uid, g] of byKey) {
    const base = g.own ?? g.children[0]!;
    const rows = g.own ? [g.own, ...g.children] : g.children;
    let price: number | null = null;
    for (const r of rows)
      if (r.price !== null && (price === null || r.price < price)) price = r.price;
    items.push({
      uid,
      parentId: grouped ? uid : null,
      base,
      children: g.children,
      rows,
      price,
      order: g.order,
    });
  }
  return items;
}

function words(text: string | null): string[] {
  if (!text) return [];
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

const WEIGHTS = { name: 4, sku: 3, brand: 2, description: 1 } as const;

const fieldWords = new WeakMap<Product, Array<[number, string[]]>>();

function fieldsOf(p: Product): Array<[number, string[]]> {
  let fields = fieldWords.get(p);
  if (!fields)
    fieldWords.set(
      p,
      (fields = [
        [WEIGHTS.name, words(p.name)],
        [WEIGHTS.sku, words(p.sku)],
        [WEIGHTS.brand, words(brandOf(p))],
        [WEIGHTS.description, words(descriptionOf(p))],
      ]),
    );
  return fields;
}

function rowScore(p: Product, terms: string[], exact: string): number {
  if (exact && (p.uid.toLowerCase() === exact || p.sku?.toLowerCase() === exact)) return 100;
  const fields = fieldsOf(p);
  let score = 0;
  for (const term of terms) {
    const stem = term.length > 3 && term.endsWith('s') ? term.slice(0, -1) : term;
    let best = 0;
    for (const [weight, ws] of fields)
      if (weight > best && ws.some((w) => w.startsWith(stem))) best = weight;
    if (best === 0) return 0;
    score += best;
  }
  return score;
}

function score(item: SearchItem, q: string): number {
  const terms = words(q);
  // no query browses; text of no words finds only a uid or sku it equals
  if (terms.length === 0 && q.trim() === '') return 1;
  const exact = q.trim().toLowerCase();
  let best = 0;
  for (const row of item.rows) best = Math.max(best, rowScore(row, terms, exact));
  return best;
}

const rowValues = new WeakMap<Product, Map<string, string[]>>();

function valuesOf(p: Product, field: string): string[] {
  let fields = rowValues.get(p);
  if (!fields) rowValues.set(p, (fields = new Map()));
  let values = fields.get(field);
  if (!values) fields.set(field, (values = splitValues(fieldValue(p, field))));
  return values;
}

function splitValues(v: string | null): string[] {
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

function passes(item: SearchItem, filters: readonly Filter[]): boolean {
  return filters.every((f) => item.rows.some((row) => rowPasses(row, f)));
}

function sortItems(items: Array<{ item: SearchItem; score: number }>, sort: Sort | null): void {
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
    if (ka === null || kb === null)
      return ka === kb ? a.item.order - b.item.order : ka === null ? 1 : -1;
    if (ka < kb) return -dir;
    if (ka > kb) return dir;
    return a.item.order - b.item.order;
  });
}

function valueCounts(items: readonly SearchItem[], field: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) {
    const seen = new Set<string>();
    for (const row of item.rows) for (const v of valuesOf(row, field)) seen.add(v);
    for (const v of seen) counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return counts;
}

function numericRange(items: readonly SearchItem[], field: string): [number, number] | null {
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

const FACET_CANDIDATES = [
  'brand',
  'category',
  'categories',
  'product_type',
  'color',
  'colour',
  'size',
  'gender',
  'material',
];

interface FacetField {
  field: string;
  kind: 'value' | 'range';
}

function facetFields(config: SearchConfig, items: readonly SearchItem[]): FacetField[] {
  const named = config.facets ?? [
    ...FACET_CANDIDATES.filter((f) => valueCounts(items.slice(0, 500), f).size > 0),
    'price',
  ];
  return named
    .filter((f) => f !== 'price' || items.some((i) => i.price !== null))
    .map((field) => ({ field, kind: field === 'price' ? 'range' : 'value' }));
}

function facetsJson(
  fields: readonly FacetField[],
  matched: readonly SearchItem[],
  filters: readonly Filter[],
): unknown[] {
  const out: unknown[] = [];
  for (const { field, kind } of fields) {
    const own = filters.filter((f) => f.field === field && !f.background);
    const others = filters.filter((f) => !(f.field === field && !f.background));
    const pool = matched.filter((i) => passes(i, others));
    if (kind === 'range') {
      const range = numericRange(pool, field);
      if (!range) continue;
      const active = own.find((f) => f.kind === 'range');
      out.push({
        field,
        label: label(field),
        type: 'slider',
        collapse: 0,
        facet_active: active ? 1 : 0,
        step: 1,
        range: [Math.floor(range[0]), Math.ceil(range[1])],
        active:
          active && active.kind === 'range'
            ? [active.low ?? Math.floor(range[0]), active.high ?? Math.ceil(range[1])]
            : [Math.floor(range[0]), Math.ceil(range[1])],
      });
      continue;
    }
    const counts = valueCounts(pool, field);
    if (counts.size === 0) continue;
    const chosen = new Set(
      own.flatMap((f) => (f.kind === 'value' ? f.values.map((v) => v.toLowerCase()) : [])),
    );
    const values = [...counts]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([value, count]) => ({
        active: chosen.has(value.toLowerCase()),
        type: 'value',
        value,
        label: value,
        count,
      }));
    out.push({
      field,
      label: label(field),
      multiple: 'or',
      collapse: 0,
      facet_active: chosen.size > 0 ? 1 : 0,
      values,
    });
  }
  return out;
}

/** The body search.json answered (without a responseId), and the results a responseId would remember. */
export function referenceAnswer(
  params: URLSearchParams,
  config: SearchConfig,
  catalog: FeedCatalog,
  all: readonly SearchItem[] = group(catalog.products),
): { body: Record<string, unknown>; results: IssuedResult[] } {
  const req = parseSearchRequest(params);
  const perPage = req.resultsPerPage ?? config.resultsPerPage;
  const fields = facetFields(config, all);
  const matched: Array<{ item: SearchItem; score: number }> = [];
  for (const item of all) {
    const s = score(item, req.q);
    if (s > 0) matched.push({ item, score: s });
  }
  const filtered = matched.filter((m) => passes(m.item, req.filters));
  sortItems(filtered, req.sort);
  const merch = merchandise(config, req.q);
  const minimalRedirect = merch.redirect !== null && req.redirectResponse === 'minimal';
  const pageItems =
    minimalRedirect || perPage === 0
      ? []
      : filtered.slice((req.page - 1) * perPage, req.page * perPage).map((m) => m.item);
  const total = minimalRedirect ? 0 : filtered.length;
  const body: Record<string, unknown> = {
    pagination: paginationJson(total, req.page, perPage, config.resultsPerPage, pageItems.length),
    sorting: { options: sortOptionsJson(req.sort) },
    resultLayoutPredicted: 'grid',
    results: pageItems.map(resultJson),
    filterSummary: filterSummaryJson(req.filters),
    facets: minimalRedirect
      ? []
      : facetsJson(
          fields,
          matched.map((m) => m.item),
          req.filters,
        ),
    merchandising: merchandisingJson(merch, !minimalRedirect),
    query: { original: req.q },
  };
  return { body, results: pageItems.map(issuedResult) };
}
