// A feed's products as an index run keeps them (packed, unpacked on first read) and the mapper that
// decides once per feed which fields hold sku, parent id, name and price, and how its prices are written.
import { parsePrice, PriceSurvey, type DecimalMark } from './feed-price';
import type { RowError } from '../../shared/indexing';

export { parsePrice };
export interface Product {
  /** the value of the feed's id field: what beacons send as `uid` */
  readonly uid: string;
  readonly sku: string | null;
  /** the parent (variant group) id, when the feed has one */
  readonly parentId: string | null;
  readonly name: string | null;
  readonly price: number | null;
  /** every field of the row as given (uid, sku, … included) */
  readonly fields: Record<string, string>;
  /** line of the feed file the product starts on */
  readonly line: number;
}

const SKU_FIELDS = ['sku', 'SKU', 'product_sku', 'g:mpn', 'mpn'];
const PARENT_FIELDS = [
  'parent_id',
  'parentId',
  'parent_uid',
  'parentUid',
  'item_group_id',
  'g:item_group_id',
  'parent_sku',
];
const NAME_FIELDS = ['name', 'title', 'product_name', 'productName', 'g:title', 'Name', 'Title'];
const PRICE_FIELDS = ['price', 'sale_price', 'g:price', 'Price', 'final_price'];

/** A row as parsed: CSV and XML give strings; ndJSON values keep their JSON type until read. */
export type RawFields = Record<string, unknown>;

function text(v: unknown): string {
  return typeof v === 'string'
    ? v
    : v === null || v === undefined
      ? ''
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v);
}

function first(fields: RawFields, names: string[]): string | null {
  for (const n of names) {
    const v = fields[n];
    if (v !== undefined && v !== '' && v !== null) return text(v);
  }
  return null;
}

/**
 * Which fields of a feed hold sku, parent id, name and price: decided once, from its first row; and the
 * decimal mark of its prices that do not tell theirs ("1,500"), decided once all were read.
 */
interface FieldNames {
  sku: string | null;
  parentId: string | null;
  name: string | null;
  price: string | null;
  decimal: DecimalMark;
}

function pick(fields: RawFields, mapped: string | null, all: string[]): string | null {
  const v = mapped === null ? undefined : fields[mapped];
  // a row without the feed's usual field (ndJSON/XML rows may differ) falls back to the full search
  if (v === undefined) return first(fields, all);
  return v === '' || v === null ? null : text(v);
}

/** The field names shared by the rows of a feed, in order, for products kept packed. */
interface Shape {
  keys: string[];
  pos: Map<string, number>;
}

/** Parses a product's kept source text (its ndJSON line, its XML element) back into its row. */
export interface RowReader {
  readRow(source: string): RawFields;
}

export const JSON_ROWS: RowReader = { readRow: (source) => JSON.parse(source) as RawFields };

// Unit separator: joins a row's values into one string. Rows holding it in a value are kept unpacked.
const SEP = '\u001f';

function segment(packed: string, n: number): string {
  let start = 0;
  for (let i = 0; i < n; i++) start = packed.indexOf(SEP, start) + 1;
  const end = packed.indexOf(SEP, start);
  return end === -1 ? packed.slice(start) : packed.slice(start, end);
}

/**
 * A product as an index run keeps it: its id and line, and its row as one string (the values packed, or
 * its ndJSON line / XML element): one object for the garbage collector instead of a dozen small strings,
 * so the catalog stays small and the parse fast. Its fields are unpacked when first asked for, then
 * kept (searching a catalog reads them again and again).
 */
class FeedProduct implements Product {
  constructor(
    readonly uid: string,
    readonly line: number,
    private readonly names: FieldNames,
    /** the packed values (with a Shape), the row's source text (with its RowReader), or the fields */
    private data: string | Record<string, string>,
    private shape: Shape | RowReader | null,
  ) {}

  private value(mapped: string | null, all: string[]): string | null {
    // packed and not yet unpacked: cut the one value out, no need to unpack the row
    if (typeof this.data === 'string' && this.shape && 'keys' in this.shape) {
      const i = mapped === null ? undefined : this.shape.pos.get(mapped);
      if (i !== undefined) {
        const v = segment(this.data, i);
        return v === '' ? null : v;
      }
    }
    return pick(this.fields, mapped, all);
  }

  /** Every field as text (ndJSON numbers, booleans and objects are written out). */
  get fields(): Record<string, string> {
    if (typeof this.data === 'string') {
      this.data = unpack(this.data, this.shape!);
      this.shape = null;
    }
    return this.data;
  }

  get sku(): string | null {
    return this.value(this.names.sku, SKU_FIELDS);
  }

  get parentId(): string | null {
    return this.value(this.names.parentId, PARENT_FIELDS);
  }

  get name(): string | null {
    return this.value(this.names.name, NAME_FIELDS);
  }

  get price(): number | null {
    return parsePrice(this.value(this.names.price, PRICE_FIELDS), this.names.decimal);
  }

  /** For saving the catalog: unpacks without keeping the result, so a save does not grow memory. */
  toJSON(): Product {
    const fields = typeof this.data === 'string' ? unpack(this.data, this.shape!) : this.data;
    return {
      uid: this.uid,
      sku: pick(fields, this.names.sku, SKU_FIELDS),
      parentId: pick(fields, this.names.parentId, PARENT_FIELDS),
      name: pick(fields, this.names.name, NAME_FIELDS),
      price: parsePrice(pick(fields, this.names.price, PRICE_FIELDS), this.names.decimal),
      fields,
      line: this.line,
    };
  }
}

function unpack(data: string, shape: Shape | RowReader): Record<string, string> {
  if ('keys' in shape) {
    const values = data.split(SEP);
    const out: Record<string, string> = {};
    shape.keys.forEach((k, i) => (out[k] = values[i] ?? ''));
    return out;
  }
  return asText(shape.readRow(data));
}

function asText(raw: RawFields): Record<string, string> {
  for (const k in raw) {
    if (typeof raw[k] !== 'string') {
      const out: Record<string, string> = {};
      for (const key in raw) out[key] = text(raw[key]);
      return out;
    }
  }
  return raw as Record<string, string>;
}

/** Products of one feed: which field holds what is decided from the first row; rows sharing its field names are packed. */
export class ProductMapper {
  private names: FieldNames | null = null;
  private shape: Shape | null = null;
  private readonly values: string[] = [];
  private readonly prices = new PriceSurvey();

  /**
   * With `source` (the row's ndJSON line or XML element, one string already) and its `reader`, the
   * product keeps that instead of the parsed row.
   */
  map(
    uid: string,
    fields: RawFields,
    line: number,
    source: string | null = null,
    reader: RowReader | null = null,
  ): Product {
    this.names ??= {
      sku: SKU_FIELDS.find((c) => fields[c] !== undefined) ?? null,
      parentId: PARENT_FIELDS.find((c) => fields[c] !== undefined) ?? null,
      name: NAME_FIELDS.find((c) => fields[c] !== undefined) ?? null,
      price: PRICE_FIELDS.find((c) => fields[c] !== undefined) ?? null,
      decimal: '.',
    };
    this.notePrice(fields, line);
    if (source !== null && reader) return new FeedProduct(uid, line, this.names, source, reader);
    if (!this.shape) {
      const keys = Object.keys(fields);
      this.shape = { keys, pos: new Map(keys.map((k, i) => [k, i])) };
    }
    const packed = this.pack(fields, this.shape.keys);
    return packed === null
      ? new FeedProduct(uid, line, this.names, asText(fields), null)
      : new FeedProduct(uid, line, this.names, packed, this.shape);
  }

  /**
   * CSV: the header names the fields once, so which field holds what is decided from it (every row
   * has every column) and rows come as arrays of values in its order (see `mapValues`).
   */
  useHeader(keys: string[]): void {
    const has = new Set(keys);
    const find = (all: string[]) => all.find((c) => has.has(c)) ?? null;
    this.names = {
      sku: find(SKU_FIELDS),
      parentId: find(PARENT_FIELDS),
      name: find(NAME_FIELDS),
      price: find(PRICE_FIELDS),
      decimal: '.',
    };
    this.shape = { keys, pos: new Map(keys.map((k, i) => [k, i])) };
  }

  /** A CSV row's values in header order (after `useHeader`): packed without building a row object. */
  mapValues(uid: string, values: string[], line: number): Product {
    const names = this.names!;
    const shape = this.shape!;
    const price = names.price === null ? undefined : values[shape.pos.get(names.price)!];
    if (price) this.prices.note(price, line);
    for (let i = 0; i < values.length; i++) {
      if (values[i]!.indexOf(SEP) !== -1) {
        // fromEntries defines each name as its own field, as csv-parse did (a column may be "__proto__")
        const fields = Object.fromEntries(shape.keys.map((k, j) => [k, values[j] ?? '']));
        return new FeedProduct(uid, line, names, fields, null);
      }
    }
    return new FeedProduct(uid, line, names, values.join(SEP), shape);
  }

  private notePrice(fields: RawFields, line: number): void {
    const mapped = this.names!.price;
    const raw = mapped === null ? undefined : fields[mapped];
    if (typeof raw === 'number') this.prices.note(String(raw), line, true);
    else this.prices.note(pick(fields, mapped, PRICE_FIELDS), line);
  }

  /**
   * Once every row was mapped: the feed's decimal mark for the prices that do not tell theirs (see
   * PriceSurvey; `delimiter` is the CSV's, null for ndJSON and XML), and a warning for each such price.
   */
  settlePrices(delimiter: string | null): { warnings: RowError[]; count: number } {
    const { decimal, warnings } = this.prices.settle(delimiter, this.names?.price ?? 'price');
    if (this.names) this.names.decimal = decimal;
    return { warnings, count: this.prices.ambiguousCount };
  }

  /** The row's values joined, when its field names are the shape's (same order) and no value holds SEP. */
  private pack(fields: RawFields, keys: string[]): string | null {
    const values = this.values;
    let i = 0;
    for (const k in fields) {
      if (keys[i] !== k) return null;
      const v = fields[k];
      const t = typeof v === 'string' ? v : text(v);
      if (t.indexOf(SEP) !== -1) return null;
      values[i++] = t;
    }
    if (i !== keys.length) return null;
    return values.join(SEP);
  }
}
