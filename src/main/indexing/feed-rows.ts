// Rows of a feed, as the format parsers (CSV, ndJSON, XML) hand them on: each becomes a product (its id
// checked: present, unique) or a row error; the first rows decide the id field when the config names none.
import type { RowError } from '../../shared/indexing';
import { ProductMapper, type Product, type RawFields, type RowReader } from './feed-product';

/** Fields tried, in order, when the feed config names no id field. */
export const ID_CANDIDATES = ['uid', 'id', 'product_id', 'productId', 'item_id', 'g:id', 'sku'];
const MAX_KEPT_ERRORS = 100;

/** Receives rows as the format parsers produce them; turns them into products or row errors. */
export class RowCollector {
  readonly rowErrors: RowError[] = [];
  rowErrorCount = 0;
  products = 0;
  idField: string | null;
  private readonly mapper = new ProductMapper();
  /** CSV: the id column's position in the header */
  private idIndex = -1;

  constructor(
    configuredIdField: string | null,
    private readonly sink: (p: Product) => void,
    private readonly index: Map<string, Product> = new Map(),
  ) {
    this.idField = configuredIdField;
  }

  /** Choose the id field from the first row's (or the header's) field names. */
  chooseIdField(names: string[]): string | null {
    if (this.idField === null) this.idField = ID_CANDIDATES.find((c) => names.includes(c)) ?? null;
    return this.idField;
  }

  /** One parsed row; with its `source` text and `reader`, the product keeps the text, not the row. */
  row(
    fields: RawFields,
    line: number,
    source: string | null = null,
    reader: RowReader | null = null,
  ): void {
    const idField = this.idField ?? this.chooseIdField(Object.keys(fields));
    if (idField === null) {
      this.error(
        line,
        `no id field: the product has ${Object.keys(fields).slice(0, 8).join(', ') || 'no fields'}; add one of ${ID_CANDIDATES.join(', ')} or set idField in the feed config`,
      );
      return;
    }
    const given = fields[idField];
    const uid = this.accept(
      typeof given === 'string' ? given : typeof given === 'number' ? String(given) : undefined,
      line,
    );
    if (uid !== null) this.keep(uid, this.mapper.map(uid, fields, line, source, reader));
  }

  /** CSV: the header's column names (checked by the caller); rows then come to `values`. */
  useHeader(names: string[]): void {
    this.mapper.useHeader(names);
    this.idIndex = this.idField === null ? -1 : names.indexOf(this.idField);
  }

  /** One CSV row as its values in header order: no row object is built for it. */
  values(values: string[], line: number): void {
    const uid = this.accept(values[this.idIndex], line);
    if (uid !== null) this.keep(uid, this.mapper.mapValues(uid, values, line));
  }

  /** The row's id (trimmed), or null after reporting it empty or used before. */
  private accept(raw: string | undefined, line: number): string | null {
    const uid =
      raw === undefined
        ? ''
        : raw.length && raw.charCodeAt(0) > 32 && raw.charCodeAt(raw.length - 1) > 32
          ? raw
          : raw.trim();
    if (!uid) {
      this.error(line, `empty ${this.idField}: every product needs an id`);
      return null;
    }
    const earlier = this.index.get(uid);
    if (earlier !== undefined) {
      this.error(
        line,
        `${this.idField} ${JSON.stringify(uid)} is used again (first on line ${earlier.line}); ids must be unique`,
      );
      return null;
    }
    return uid;
  }

  private keep(uid: string, product: Product): void {
    this.index.set(uid, product);
    this.products++;
    this.sink(product);
  }

  /**
   * Once the rows are read: the feed's prices that could be read two ways are settled (see PriceSurvey),
   * each a row warning (the first 100 kept, all counted). `delimiter`: the CSV's, null for ndJSON and XML.
   */
  settlePrices(delimiter: string | null): { warnings: RowError[]; count: number } {
    return this.mapper.settlePrices(delimiter);
  }

  error(line: number, message: string): void {
    this.rowErrorCount++;
    if (this.rowErrors.length < MAX_KEPT_ERRORS) this.rowErrors.push({ line, message });
  }
}
