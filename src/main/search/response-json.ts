// Pieces of search.json and meta.json in the provider's shape (what @searchspring/snap-client's
// transforms read): pagination, facets, filterSummary, sorting options, and the meta description.
import { sortInSlices, type Slicer } from '../slices';
import type { CatalogIndex } from './catalog-index';
import type { SearchConfig } from './config';
import type { SearchItem } from './items';
import {
  numericRangeOf,
  passingAll,
  valueCounts,
  valueCountsOf,
  type Filter,
  type QueryRun,
  type Sort,
} from './query';

// Fields offered as facets when the config names none, in this order, when the catalog has them.
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

/** "product_type" → "Product Type" */
export function label(field: string): string {
  return field.replace(/[_.-]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}

export interface FacetField {
  field: string;
  kind: 'value' | 'range';
}

export function facetFields(
  config: SearchConfig,
  items: readonly SearchItem[],
  hasPrice: boolean,
): FacetField[] {
  const named = config.facets ?? [
    ...FACET_CANDIDATES.filter((f) => valueCounts(items.slice(0, 500), f).size > 0),
    'price',
  ];
  return named
    .filter((f) => f !== 'price' || hasPrice)
    .map((field) => ({ field, kind: field === 'price' ? 'range' : 'value' }));
}

/**
 * Facets over the matched results: each facet counts with every filter applied but its own ("or" facets).
 * Counted in slices (the event loop turns in between).
 */
export async function facetsJson(
  fields: readonly FacetField[],
  run: QueryRun,
  slicer: Slicer,
): Promise<unknown[]> {
  const filters = run.filters;
  const out: unknown[] = [];
  for (const { field, kind } of fields) {
    const own = filters.filter((f) => f.field === field && !f.background);
    const pool = await passingAll(run, slicer, (f) => !(f.field === field && !f.background));
    if (kind === 'range') {
      const range = await numericRangeOf(run, pool, field, slicer);
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
    const counts = await valueCountsOf(run, pool, field, slicer);
    if (counts.length === 0) continue;
    const chosen = new Set(
      own.flatMap((f) => (f.kind === 'value' ? f.values.map((v) => v.toLowerCase()) : [])),
    );
    const sorted = await sortInSlices(
      counts,
      (a, b) => b[1] - a[1] || a[0].localeCompare(b[0]),
      slicer,
    );
    const values: unknown[] = [];
    for (let i = 0; i < sorted.length; i++) {
      if (i % 1024 === 0) await slicer.breathe();
      const [value, count] = sorted[i]!;
      values.push({
        active: chosen.has(value.toLowerCase()),
        type: 'value',
        value,
        label: value,
        count,
      });
    }
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

export function filterSummaryJson(filters: readonly Filter[]): unknown[] {
  const out: unknown[] = [];
  for (const f of filters) {
    if (f.background) continue;
    if (f.kind === 'value') {
      for (const v of f.values)
        out.push({
          field: f.field,
          value: v,
          label: `${label(f.field)}: ${v}`,
          filterLabel: label(f.field),
          filterValue: v,
        });
    } else {
      const low = f.low === null ? '*' : String(f.low);
      const high = f.high === null ? '*' : String(f.high);
      out.push({
        field: f.field,
        value: { rangeLow: low, rangeHigh: high },
        label: `${label(f.field)}: ${low} - ${high}`,
        filterLabel: label(f.field),
        filterValue: `${low} - ${high}`,
      });
    }
  }
  return out;
}

export function paginationJson(
  total: number,
  page: number,
  perPage: number,
  defaultPerPage: number,
  onPage: number,
): Record<string, number> {
  const totalPages = perPage > 0 ? Math.ceil(total / perPage) : 0;
  const begin = onPage > 0 ? (page - 1) * perPage + 1 : 0;
  return {
    totalResults: total,
    begin,
    end: onPage > 0 ? begin + onPage - 1 : 0,
    currentPage: page,
    totalPages,
    previousPage: page > 1 ? page - 1 : 0,
    nextPage: page < totalPages ? page + 1 : 0,
    perPage,
    defaultPerPage,
  };
}

const SORTS: Array<{ field: string; direction: 'asc' | 'desc'; label: string }> = [
  { field: 'relevance', direction: 'desc', label: 'Best Match' },
  { field: 'price', direction: 'asc', label: 'Price: Low to High' },
  { field: 'price', direction: 'desc', label: 'Price: High to Low' },
  { field: 'name', direction: 'asc', label: 'Name: A to Z' },
];

export function sortOptionsJson(sort: Sort | null): unknown[] {
  const options = SORTS.map((s) => ({
    type: s.field === 'relevance' ? 'relevance' : 'field',
    field: s.field,
    direction: s.direction,
    label: s.label,
    active: (
      sort === null
        ? s.field === 'relevance'
        : s.field === sort.field && s.direction === sort.direction
    )
      ? 1
      : 0,
  }));
  // a sort the storefront asked for that is not a standard option still shows as the active one
  if (sort && !options.some((o) => o.active === 1))
    options.push({
      type: 'field',
      field: sort.field,
      direction: sort.direction,
      label: `${label(sort.field)} (${sort.direction})`,
      active: 1,
    });
  return options;
}

/** meta.json: facet display settings, sort options and the default page size. */
export function metaJson(config: SearchConfig, index: CatalogIndex): Record<string, unknown> {
  const facets: Record<string, unknown> = {};
  for (const { field, kind } of facetFields(config, index.items, index.hasPrice)) {
    facets[field] =
      kind === 'range'
        ? { display: 'slider', label: label(field), collapsed: false }
        : { display: 'list', label: label(field), collapsed: false, multiple: 'or' };
  }
  return {
    facets,
    sortOptions: SORTS.map((s) => ({
      type: s.field === 'relevance' ? 'relevance' : 'field',
      field: s.field,
      direction: s.direction,
      label: s.label,
    })),
    pagination: { defaultPageSize: config.resultsPerPage },
  };
}
