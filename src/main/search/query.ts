// Simple, predictable search over a catalog's results: text matching, filters, sorting and facet counts.
// Every query word (a trailing s dropped) must start a word of name, sku, brand or description (or the query
// equal a uid/sku). Runs over the catalog's index (catalog-index.ts) in slices that give the event loop back.
import type { Product } from '../indexing/catalog';
import { Slicer, sortInSlices } from '../slices';
import {
  FIELD_WEIGHTS,
  STEP,
  listOf,
  lowerBound,
  valuesOfField,
  type CatalogIndex,
} from './catalog-index';
import { fieldValue, type SearchItem } from './items';
import { valuesOf, words } from './words';
import { InvalidParameter } from './errors';
import { clipped, shown as shownValue } from '../../shared/text';
import { nearestNames } from '../../shared/nearest';

export type Filter =
  | { kind: 'value'; field: string; values: string[]; background: boolean }
  | { kind: 'range'; field: string; low: number | null; high: number | null; background: boolean };

export interface Sort {
  field: string;
  direction: 'asc' | 'desc';
}

/** The results a query matched, before filters, and which of them pass each filter. */
export interface QueryRun {
  index: CatalogIndex;
  /** the matched results (indexes in index.items), in feed order */
  matched: Int32Array;
  /** the relevance of each matched result (same positions); every one 1 for an empty query */
  scores: Float64Array;
  filters: readonly Filter[];
  /** for each filter (same order), 1 at the position of each matched result that passes it */
  passing: Uint8Array[];
}

/** The words of a row best matching a query word: per row, the highest weight of a field with a word it starts. */
async function termRows(
  index: CatalogIndex,
  stem: string,
  slicer: Slicer,
): Promise<{ best: Uint8Array; touched: number[] }> {
  const best = new Uint8Array(index.rowItem.length);
  const touched: number[] = [];
  const { vocabulary, postings } = index;
  let steps = 0;
  for (let i = lowerBound(vocabulary, stem); i < vocabulary.length; i++) {
    const word = vocabulary[i]!;
    if (!word.startsWith(stem)) break;
    const list = listOf(postings.get(word));
    for (let k = 0; k < list.length; k++) {
      const code = list[k]!;
      const row = code >> 2;
      const weight = FIELD_WEIGHTS[code & 3]!;
      if (best[row] === 0) touched.push(row);
      if (weight > best[row]!) best[row] = weight;
      if (++steps === STEP * 8) {
        steps = 0;
        await slicer.breathe();
      }
    }
  }
  return { best, touched };
}

/** The rows each query word matches (a word repeated is looked up once). */
async function rowsOfTerms(
  index: CatalogIndex,
  terms: readonly string[],
  slicer: Slicer,
): Promise<Array<{ best: Uint8Array; touched: number[] }>> {
  const byStem = new Map<string, { best: Uint8Array; touched: number[] }>();
  const perTerm: Array<{ best: Uint8Array; touched: number[] }> = [];
  for (const term of terms) {
    // a plural finds the singular: "jackets" matches "Jacket"
    const stem = term.length > 3 && term.endsWith('s') ? term.slice(0, -1) : term;
    let rows = byStem.get(stem);
    if (!rows) byStem.set(stem, (rows = await termRows(index, stem, slicer)));
    perTerm.push(rows);
  }
  return perTerm;
}

/**
 * The rows (indexes in the catalog's products) that every word of `terms` matches as a query word would,
 * in no particular order: a query of these words finds each of them. Every indexed row for no words.
 */
export async function rowsMatchingEvery(
  index: CatalogIndex,
  terms: readonly string[],
  slicer: Slicer,
): Promise<number[]> {
  const out: number[] = [];
  if (terms.length === 0) {
    for (let r = 0; r < index.rowItem.length; r++) {
      if (r % (STEP * 8) === 0) await slicer.breathe();
      if (index.rowItem[r] !== -1) out.push(r);
    }
    return out;
  }
  const perTerm = await rowsOfTerms(index, terms, slicer);
  const driver = perTerm.reduce((a, b) => (b.touched.length < a.touched.length ? b : a));
  for (let i = 0; i < driver.touched.length; i++) {
    if (i % STEP === 0) await slicer.breathe();
    const row = driver.touched[i]!;
    if (perTerm.every((t) => t.best[row]! > 0)) out.push(row);
  }
  return out;
}

/**
 * Relevance of each result for the query (0 = no match), as the rules say: a row scores the sum over query
 * words of the best field a word starts (4 name, 3 sku, 2 brand, 1 description), 0 when a word starts none,
 * 100 when the whole query equals its uid or sku; a result scores its best row. An empty query (or one of
 * spaces) matches all; a query of no words otherwise ("!!!", an emoji, a zero-width space) matches none.
 */
async function match(
  index: CatalogIndex,
  q: string,
  slicer: Slicer,
): Promise<{ matched: Int32Array; scores: Float64Array }> {
  const n = index.items.length;
  const terms = words(q);
  // no query is a browse (a category page sends none). Text the shopper typed that holds no word is still a
  // search: it finds what no word finds (nothing, but a uid or sku it equals), as a query of words that start
  // no product's words does; read as a browse it would show the whole catalog, and become a trending term
  if (terms.length === 0 && q.trim() === '') {
    const matched = new Int32Array(n);
    for (let i = 0; i < n; i++) matched[i] = i;
    return { matched, scores: new Float64Array(n).fill(1) };
  }
  const perTerm = await rowsOfTerms(index, terms, slicer);
  // the rows every word matched are among those the rarest word matched (none without a word: only the
  // uid or sku the query equals, below)
  const driver = perTerm.reduce(
    (a, b) => (b.touched.length < a.touched.length ? b : a),
    perTerm[0] ?? { best: new Uint8Array(0), touched: [] },
  );
  const rowScores = new Float64Array(index.rowItem.length);
  const scored: number[] = [];
  for (let i = 0; i < driver.touched.length; i++) {
    if (i % STEP === 0) await slicer.breathe();
    const row = driver.touched[i]!;
    let score = 0;
    for (const t of perTerm) {
      const weight = t.best[row]!;
      if (weight === 0) {
        score = 0;
        break;
      }
      score += weight;
    }
    if (score > 0) {
      rowScores[row] = score;
      scored.push(row);
    }
  }
  // a query equal to a row's uid or sku finds it, whatever its words
  for (const row of listOf(index.exact.get(q.trim().toLowerCase()))) {
    if (rowScores[row] === 0) scored.push(row);
    rowScores[row] = 100;
  }
  const itemScores = new Float64Array(n);
  let count = 0;
  for (let i = 0; i < scored.length; i++) {
    if (i % (STEP * 4) === 0) await slicer.breathe();
    const row = scored[i]!;
    const item = index.rowItem[row]!;
    if (itemScores[item] === 0) count++;
    if (rowScores[row]! > itemScores[item]!) itemScores[item] = rowScores[row]!;
  }
  const matched = new Int32Array(count);
  const scores = new Float64Array(count);
  for (let i = 0, at = 0; at < count; i++) {
    if (i % (STEP * 8) === 0) await slicer.breathe();
    if (itemScores[i]! > 0) {
      matched[at] = i;
      scores[at++] = itemScores[i]!;
    }
  }
  return { matched, scores };
}

function rowInRange(p: Product, f: Extract<Filter, { kind: 'range' }>): boolean {
  const raw = f.field === 'price' ? p.price : Number(fieldValue(p, f.field));
  if (raw === null || !Number.isFinite(raw)) return false;
  return (f.low === null || raw >= f.low) && (f.high === null || raw <= f.high);
}

/**
 * Which matched results pass a filter: one of its rows (the parent or a variant) does. A value filter passes
 * a row with one of the values, compared case-insensitively (`|` separates several values in a column).
 */
async function passingOf(
  index: CatalogIndex,
  matched: Int32Array,
  f: Filter,
  slicer: Slicer,
): Promise<Uint8Array> {
  const out = new Uint8Array(matched.length);
  if (f.kind === 'value') {
    const fv = await valuesOfField(index, f.field, slicer);
    const wanted = new Set(f.values.map((v) => v.toLowerCase()));
    const wantedId = Uint8Array.from(fv.lower, (v) => (wanted.has(v) ? 1 : 0));
    for (let pos = 0; pos < matched.length; pos++) {
      if (pos % (STEP * 4) === 0) await slicer.breathe();
      const item = matched[pos]!;
      for (let k = fv.start[item]!; k < fv.start[item + 1]!; k++)
        if (wantedId[fv.ids[k]!] === 1) {
          out[pos] = 1;
          break;
        }
    }
    return out;
  }
  for (let pos = 0; pos < matched.length; pos++) {
    if (pos % STEP === 0) await slicer.breathe();
    if (index.items[matched[pos]!]!.rows.some((row) => rowInRange(row, f))) out[pos] = 1;
  }
  return out;
}

/** Match the query and work out which matched results pass each filter. */
export async function runQuery(
  index: CatalogIndex,
  q: string,
  filters: readonly Filter[],
  slicer = new Slicer(),
): Promise<QueryRun> {
  const { matched, scores } = await match(index, q, slicer);
  const passing: Uint8Array[] = [];
  for (const f of filters) passing.push(await passingOf(index, matched, f, slicer));
  return { index, matched, scores, filters, passing };
}

/** Positions (in run.matched) of the results that pass every filter `counts` keeps. */
export async function passingAll(
  run: QueryRun,
  slicer: Slicer,
  counts: (f: Filter) => boolean = () => true,
): Promise<number[]> {
  const bits = run.passing.filter((_, i) => counts(run.filters[i]!));
  const out: number[] = [];
  for (let pos = 0; pos < run.matched.length; pos++) {
    if (pos % (STEP * 8) === 0) await slicer.breathe();
    let passes = true;
    for (const b of bits) if (b[pos] !== 1) passes = false;
    if (passes) out.push(pos);
  }
  return out;
}

/**
 * The results at these positions of the run (in feed order) in the order asked: relevance (the best first,
 * feed order among equals), or a field's value (numbers as numbers, text case-insensitively; results without
 * the value last, whatever the direction; feed order among equals).
 */
export async function sortResults(
  run: QueryRun,
  positions: readonly number[],
  sort: Sort | null,
  slicer: Slicer,
): Promise<SearchItem[]> {
  const items = run.index.items;
  if (!sort || sort.field === 'relevance') {
    // scores are few distinct numbers: results grouped by score keep feed order within each
    const byScore = new Map<number, SearchItem[]>();
    for (let i = 0; i < positions.length; i++) {
      if (i % (STEP * 8) === 0) await slicer.breathe();
      const pos = positions[i]!;
      const score = run.scores[pos]!;
      let list = byScore.get(score);
      if (!list) byScore.set(score, (list = []));
      list.push(items[run.matched[pos]!]!);
    }
    const out: SearchItem[] = [];
    for (const score of [...byScore.keys()].sort((a, b) => b - a))
      for (const item of byScore.get(score)!) out.push(item);
    return out;
  }
  const dir = sort.direction === 'asc' ? 1 : -1;
  // the keys in flat arrays, sorted as result numbers: no object per result for the collector to move
  const n = positions.length;
  const result = new Int32Array(n);
  const kind = new Uint8Array(n); // 0 none, 1 number, 2 text
  const number = new Float64Array(n);
  const text: string[] = new Array<string>(n).fill('');
  let numbers = false;
  let texts = false;
  for (let i = 0; i < n; i++) {
    if (i % STEP === 0) await slicer.breathe();
    const at = run.matched[positions[i]!]!;
    result[i] = at;
    const key = sortKey(items[at]!, sort.field);
    if (typeof key === 'number') {
      kind[i] = 1;
      number[i] = key;
      numbers = true;
    } else if (typeof key === 'string') {
      kind[i] = 2;
      text[i] = key;
      texts = true;
    }
  }
  const keyOf = (i: number): number | string | null =>
    kind[i] === 1 ? number[i]! : kind[i] === 2 ? text[i]! : null;
  const cmp = (a: number, b: number): number => {
    const ka = keyOf(a);
    const kb = keyOf(b);
    const oa = items[result[a]!]!.order;
    const ob = items[result[b]!]!.order;
    // results without the value go last, whatever the direction
    if (ka === null || kb === null) return ka === kb ? oa - ob : ka === null ? 1 : -1;
    if (ka < kb) return -dir;
    if (ka > kb) return dir;
    return oa - ob;
  };
  const order: number[] = [];
  for (let i = 0; i < n; i++) order.push(i);
  // A column mixing numbers and text has no consistent order (a number and a text compare as equal, so
  // feed order decides between them): only the engine's own sort gives the order it always gave, in one turn.
  const sorted = numbers && texts ? order.sort(cmp) : await sortInSlices(order, cmp, slicer);
  const out: SearchItem[] = [];
  for (let i = 0; i < n; i++) {
    if (i % (STEP * 8) === 0) await slicer.breathe();
    out.push(items[result[sorted[i]!]!]!);
  }
  return out;
}

/** Sorts every catalog can take, whatever its columns. */
const ALWAYS_SORTABLE = ['relevance', 'price', 'name'];

/**
 * Refuse a sort on a field no product of the catalog has (a typo such as `sort.prcie`): it would order
 * nothing, and the storefront would show relevance order as if it were the sort asked for.
 */
export function refuseUnknownSort(sort: Sort | null, fields: ReadonlySet<string>): void {
  if (!sort || ALWAYS_SORTABLE.includes(sort.field) || fields.has(sort.field)) return;
  const sortable = [...new Set([...ALWAYS_SORTABLE, ...fields])];
  const shown = sortable.slice(0, 20).join(', ') + (sortable.length > 20 ? ', …' : '');
  throw new InvalidParameter(
    `${clipped(`sort.${sort.field}`)}=${JSON.stringify(sort.direction)}: no product of the catalog has a field ${shownValue(sort.field)}; sort on one it has (${shown})`,
  );
}

/**
 * What the answer's `notes` say of the filters on this catalog: a filter on a field no product has (a typo such
 * as `filter.colour`), and an empty value, pass no product. Unlike a sort on such a field, they are answered
 * (what the real service answers is not documented, and no result is an answer a storefront handles): the
 * note makes the typo visible, where the empty page alone looks like a catalog without such products.
 */
export function filterNotes(
  filters: readonly Filter[],
  fields: ReadonlySet<string>,
  hasPrice: boolean,
): string[] {
  const known = [...new Set([...(hasPrice ? ['price'] : []), ...fields])];
  const notes: string[] = [];
  for (const f of filters) {
    const id = `${f.background ? 'bgfilter' : 'filter'}.${f.field}`;
    if (!known.includes(f.field)) {
      const near = nearestNames(f.field, known);
      const listed = known.slice(0, 20).join(', ') + (known.length > 20 ? ', …' : '');
      notes.push(
        `${clipped(id)}: no product of the catalog has a field ${shownValue(f.field)}${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}, so no product passes this filter; the fields it has: ${listed}`,
      );
    } else if (f.kind === 'value' && f.values.includes('')) {
      notes.push(
        `${clipped(id)}="": no product has an empty ${clipped(f.field)}, so this value selects none; leave ${clipped(id)} out not to filter on ${clipped(f.field)}`,
      );
    }
  }
  return notes;
}

function sortKey(i: SearchItem, field: string): number | string | null {
  if (field === 'price') return i.price;
  const v = fieldValue(i.base, field);
  if (v === null) return null;
  const n = Number(v);
  return v.trim() !== '' && Number.isFinite(n) ? n : v.toLowerCase();
}

/** Distinct values of `field` over results at these positions of the run, with how many results carry each. */
export async function valueCountsOf(
  run: QueryRun,
  positions: readonly number[],
  field: string,
  slicer: Slicer,
): Promise<Array<[string, number]>> {
  const fv = await valuesOfField(run.index, field, slicer);
  const counts = new Int32Array(fv.values.length);
  // in the order first met, as a Map of them would hold them
  const met: number[] = [];
  for (let i = 0; i < positions.length; i++) {
    if (i % (STEP * 4) === 0) await slicer.breathe();
    const item = run.matched[positions[i]!]!;
    for (let k = fv.start[item]!; k < fv.start[item + 1]!; k++) {
      const id = fv.ids[k]!;
      const c = counts[id]!;
      if (c === 0) met.push(id);
      counts[id] = c + 1;
    }
  }
  return met.map((id) => [fv.values[id]!, counts[id]!]);
}

/** Lowest and highest value of a numeric field over the results at these positions (price: each row's price). */
export async function numericRangeOf(
  run: QueryRun,
  positions: readonly number[],
  field: string,
  slicer: Slicer,
): Promise<[number, number] | null> {
  let low = Infinity;
  let high = -Infinity;
  for (let i = 0; i < positions.length; i++) {
    if (i % STEP === 0) await slicer.breathe();
    for (const row of run.index.items[run.matched[positions[i]!]!]!.rows) {
      const n = field === 'price' ? row.price : Number(fieldValue(row, field));
      if (n === null || !Number.isFinite(n)) continue;
      low = Math.min(low, n);
      high = Math.max(high, n);
    }
  }
  return low === Infinity ? null : [low, high];
}

/** Distinct values of `field` over a few items, with how many items carry each (counted once per item). */
export function valueCounts(items: readonly SearchItem[], field: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) {
    const seen = new Set<string>();
    for (const row of item.rows) for (const v of valuesOf(row, field)) seen.add(v);
    for (const v of seen) counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return counts;
}
