// Parses a feed file as a stream: decode (raw/gzip/zip), sniff the format (CSV/TSV with header,
// ndJSON, XML), parse with csv-parse or saxes, and hand each product on; never throws, never buffers the file.
import { toUtf8, utf32Of, type Charset } from './feed-charset';
import { utf16Of } from '../base/utf16';
import { nestsDeeperThan } from '../../shared/json-depth';
import type { CsvError } from 'csv-parse';
import { csvParse } from './format-readers';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { ParseSummary } from '../../shared/indexing';
import { JSON_ROWS, type Product, type RawFields } from './feed-product';
import {
  containerOf,
  decodeFeed,
  DEFAULT_LIMITS,
  FEED_FORMATS,
  FeedFileError,
  peek,
  type DecodeLimits,
  type FeedInput,
} from './feed-file';
import { refuseHtmlPage, refuseKnownNonFeed } from './feed-magic';
import { findRecordElement, parseXml } from './feed-xml';
import { ID_CANDIDATES, RowCollector } from './feed-rows';
import { Slicer } from '../slices';
import { plural } from '../../shared/text';
import { StrayQuotes } from './csv-quotes';

const SNIFF_BYTES = 64 * 1024;

export interface ParseOptions {
  /** the configured id field; null = first of ID_CANDIDATES present */
  idField: string | null;
  limits?: DecodeLimits;
  /** filled with the products by uid (duplicate ids are checked against it); the catalog reuses it */
  index?: Map<string, Product>;
  /**
   * How the parse shares the event loop: the decoded bytes go to the format parser in pieces of at most
   * `bytes`, and the loop is given back whenever a slice has run `ms` (tests use tiny values).
   */
  slices?: { bytes?: number; ms?: number };
  /** told the decoded bytes parsed and the products so far, after every slice */
  onProgress?: (progress: { bytes: number; products: number }) => void;
}

/** The longest CSV record read (csv-parse's own limit): longer, the file is refused. */
const MAX_CSV_RECORD_BYTES = 1024 * 1024;

/** A piece of decoded bytes the format parsers take in one go: small enough to parse well within a slice (64 KiB of CSV took up to 40 ms on a slow machine). */
const PIECE_BYTES = 16 * 1024;

export type SniffedFormat =
  | { format: 'csv' | 'tsv'; delimiter: string }
  | { format: 'ndjson' }
  | { format: 'xml'; recordElement: string };

/**
 * Decide the format from the first decoded bytes (`whole`: they are the whole file); throws
 * FeedFileError with a fix when it is not a feed.
 */
export function sniffFormat(head: Buffer, whole = false): SniffedFormat {
  if (head.length === 0) throw new FeedFileError('the feed file is empty');
  if (head.subarray(0, 8192).includes(0)) {
    // UTF-16 with its byte order mark was decoded before this (feed-charset.ts); without one, a file is
    // told by its NULs but not read: the mark is what says a feed is UTF-16
    const utf16 = utf16Of(head);
    if (utf16)
      throw new FeedFileError(
        `the feed file is UTF-16 (${utf16}) without a byte order mark, which is not guessed: save it as UTF-8, or as UTF-16 with its byte order mark`,
      );
    throw new FeedFileError(
      `the feed file is binary, not text: ${FEED_FORMATS}; export the feed as text`,
    );
  }
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  const start = text.trimStart();
  if (start.startsWith('<')) {
    // the text as the full parse reads it (leading blanks kept), so its errors' lines are the file's
    const recordElement = findRecordElement(text, whole);
    return { format: 'xml', recordElement };
  }
  if (start.startsWith('{')) return { format: 'ndjson' };
  if (start.startsWith('['))
    throw new FeedFileError(
      'the feed is a JSON array; the sandbox reads ndJSON: one product object per line, no surrounding [ ]',
    );
  const header = start.split(/\r?\n/, 1)[0] ?? '';
  const counts = ['\t', ',', ';', '|'].map((d) => ({ d, n: countOutsideQuotes(header, d) }));
  const best = counts.reduce((a, b) => (b.n > a.n ? b : a));
  const delimiter = best.n > 0 ? best.d : ',';
  return delimiter === '\t' ? { format: 'tsv', delimiter } : { format: 'csv', delimiter };
}

function countOutsideQuotes(line: string, ch: string): number {
  let n = 0;
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (c === ch && !quoted) n++;
  }
  return n;
}

/** UTF-32 is told as such (read as UTF-16 or binary, it was named as what it is not) and refused with the fix. */
function refuseUtf32(head: Buffer): void {
  const utf32 = utf32Of(head);
  if (utf32)
    throw new FeedFileError(
      `the feed file is UTF-32 (${utf32.encoding}${utf32.bom ? ', by its byte order mark' : ''}), which the sandbox does not read: save it as UTF-8`,
    );
}

/** Parse one feed file; each product goes to `sink`. The summary carries the whole-file error, if any. */
export async function parseFeed(
  input: FeedInput,
  options: ParseOptions,
  sink: (p: Product) => void,
): Promise<ParseSummary> {
  const rows = new RowCollector(options.idField, sink, options.index);
  // a file that never decodes still says what it arrived as (a broken zip is not "raw")
  const summary = emptySummary(await containerOf(input));
  const fed = { bytes: 0 };
  // the bytes looked at before the parse: a file refused by them (an HTML page, an image) was read too
  let peeked = 0;
  let text: ReturnType<typeof toUtf8> | null = null;
  try {
    const decoded = await decodeFeed(input, options.limits ?? DEFAULT_LIMITS);
    summary.encoding = decoded.encoding;
    // the raw first bytes: once decoded as text a gzip's magic is no longer what it was
    const raw = await peek(decoded.chunks, 16);
    peeked = raw.head.length;
    const url = input.kind === 'buffer' ? input.url : undefined;
    refuseKnownNonFeed(raw.head, decoded.encoding, url);
    refuseUtf32(raw.head);
    text = toUtf8(raw.all);
    const { head, all, whole } = await peek(text.chunks, SNIFF_BYTES);
    peeked = head.length;
    refuseHtmlPage(head, decoded.encoding, url);
    const pieces = inSlices(all, options, fed, rows);
    const sniffed = sniffFormat(head, whole);
    summary.format = sniffed.format;
    if (sniffed.format === 'ndjson') await parseNdjson(pieces, rows);
    else if (sniffed.format === 'xml') await parseXml(pieces, sniffed.recordElement, rows);
    else await parseCsv(pieces, sniffed.delimiter, rows);
    const prices = rows.settlePrices('delimiter' in sniffed ? sniffed.delimiter : null);
    if (prices.count > 0) {
      summary.rowWarnings = prices.warnings;
      summary.rowWarningCount = prices.count;
    }
  } catch (err) {
    summary.error =
      err instanceof FeedFileError
        ? err.message
        : `the feed file could not be read: ${(err as Error).message}`;
  }
  summary.bytes = Math.max(fed.bytes, peeked);
  return summarise(summary, rows, text?.charset());
}

function emptySummary(encoding: ParseSummary['encoding']): ParseSummary {
  return {
    format: null,
    encoding,
    products: 0,
    idField: null,
    rowErrors: [],
    rowErrorCount: 0,
    error: null,
    bytes: 0,
  };
}

/**
 * The decoded bytes in pieces of at most `options.slices.bytes`, counted into `fed`. Every byte reaches
 * the parser through here, so here the parse gives the event loop back: the parsers run synchronously
 * on each piece, and the time since the last pause includes their work.
 */
function inSlices(
  all: AsyncIterable<Buffer>,
  options: ParseOptions,
  fed: { bytes: number },
  rows: RowCollector,
): AsyncIterable<Buffer> {
  const slicer = new Slicer(options.slices?.ms);
  const piece = options.slices?.bytes ?? PIECE_BYTES;
  return (async function* () {
    for await (const chunk of all) {
      for (let at = 0; at < chunk.length; at += piece) {
        // the pause comes before a further piece, never after the last: a small feed is parsed in
        // one go, so a clock advance that starts it sees it finished (whole chains fire in order)
        if (fed.bytes > 0 && slicer.due) {
          options.onProgress?.({ bytes: fed.bytes, products: rows.products });
          await slicer.pause();
        }
        const part = chunk.length <= piece ? chunk : chunk.subarray(at, at + piece);
        fed.bytes += part.length;
        yield part;
      }
    }
  })();
}

/** The rows' counts into the summary; a file read whole without a product says why it has none. */
function summarise(
  summary: ParseSummary,
  rows: RowCollector,
  charset: Charset | undefined,
): ParseSummary {
  // said of a file that was read; a file refused whole (an image, a bomb) has its error to say
  if (charset && charset.name !== 'utf-8' && summary.error === null) {
    summary.charset = charset.name;
    summary.charsetNote = charset.note;
  }
  summary.products = rows.products;
  summary.idField = rows.idField;
  summary.rowErrors = rows.rowErrors;
  summary.rowErrorCount = rows.rowErrorCount;
  if (!summary.error && rows.products === 0) {
    const firstError = rows.rowErrors[0];
    summary.error = firstError
      ? `all ${rows.rowErrorCount} rows are broken; first: line ${firstError.line}: ${firstError.message}`
      : 'the feed holds no products';
  }
  return summary;
}

/** The header's problem, or null when its names are usable (the id column chosen on the way). */
function headerProblem(names: string[], rows: RowCollector): string | null {
  const dup = names.find((n, i) => n !== '' && names.indexOf(n) !== i);
  if (dup !== undefined)
    return `the header names column ${JSON.stringify(dup)} twice: give each column its own name`;
  if (names.includes('')) return `column ${names.indexOf('') + 1} of the header has no name`;
  if (rows.chooseIdField(names) === null)
    return /^[A-Za-z_][\w.-]*:(\s|$)/.test(names[0] ?? '')
      ? `the file looks like YAML (its first line is ${JSON.stringify(names.join(','))}), not a feed: ${FEED_FORMATS}; export the products as CSV and upload that`
      : `no id column: the header has ${names.slice(0, 10).join(', ')}; add one of ${ID_CANDIDATES.join(', ')} or set idField in the feed config`;
  if (!names.includes(rows.idField!))
    return `the configured id field ${JSON.stringify(rows.idField)} is not in the header (${names.slice(0, 10).join(', ')})`;
  return null;
}

/**
 * Line numbers of CSV records as an editor shows them. csv-parse counts a CRLF inside a quoted field as
 * two lines, and tells a record's last line: each record is placed on its first line, from the breaks its
 * fields hold (looked for only when the record spans more than one line of csv-parse's count).
 */
class CsvLines {
  /** CRLFs inside the fields of the records so far: what csv-parse counted twice */
  private extra = 0;
  private lastCounted = 0;
  private lastEnd = 0;

  /** The first line of the record csv-parse gave with `counted` (its info.lines) as its last. */
  record(record: string[], counted: number): number {
    let first = counted - this.extra;
    if (counted - this.lastCounted > 1) {
      let breaks = 0;
      for (const field of record)
        for (let i = 0; i < field.length; i++) {
          const c = field.charCodeAt(i);
          if (c !== 10 && c !== 13) continue;
          breaks++;
          if (c === 13 && field.charCodeAt(i + 1) === 10) {
            this.extra++;
            i++;
          }
        }
      first = counted - this.extra - breaks;
    }
    this.lastCounted = counted;
    this.lastEnd = counted - this.extra;
    return first;
  }

  /** The last line of the last record given (record) or refused (skipped) */
  get last(): number {
    return this.lastEnd;
  }

  /** A record csv-parse refused, ending on `line`: the next one starts after it. */
  skipped(line: number): void {
    this.lastEnd = Math.max(this.lastEnd, line);
  }

  /** The line of a record csv-parse refused: where it starts when it may span lines, else its line. */
  refused(err: CsvError): number {
    return err.code === 'CSV_QUOTE_NOT_CLOSED' || err.code === 'CSV_MAX_RECORD_SIZE'
      ? this.lastEnd + 1
      : Number(err.lines ?? 0) - this.extra;
  }
}

async function parseCsv(
  chunks: AsyncIterable<Buffer>,
  delimiter: string,
  rows: RowCollector,
): Promise<void> {
  let header: string[] | null = null;
  let headerError: string | null = null;
  let brokenHeader: string | null = null;
  // A record of more than 1 MB: csv-parse cannot find where it ends once it gave up on it (every later
  // piece of the file was refused as the same record, and the good rows after it were lost without a
  // word), so the file is refused whole, naming the line, as ndJSON and XML refuse a line that long.
  let tooLong: string | null = null;
  const lines = new CsvLines();
  // Records come as arrays (no `columns` option): csv-parse would build each row object with
  // Object.defineProperty per field, which cost more than the rest of the product. The first record is
  // the header; csv-parse holds every later record to its length, as it did to the columns' count.
  // A stray quote: strict, csv-parse stayed inside a quoted field that had a stray quote (`"12" Tent"`)
  // until some later quote happened to close it, so the broken record swallowed the good rows after it
  // and was blamed on a later, valid line. Relaxed, a quoted field ends at its first quote not doubled and
  // the rest of it up to the delimiter or the line's end is read as is (Python's csv reads such a row so):
  // the bad field ends where its author meant its row to end, and the next line is read as the row it is.
  // The relaxed record is then refused with a row error here, so one bad row costs one row. Which records
  // to refuse: those on a line the bytes show a stray quote on (StrayQuotes, as they pass to the parser),
  // not each record's raw text, which csv-parse builds character by character (a tenth of its time).
  const strays = new StrayQuotes(delimiter);
  const parser = csvParse().parse({
    delimiter,
    bom: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    relax_quotes: true,
    // a field without end (e.g. an unclosed quote) must not grow without bound
    max_record_size: MAX_CSV_RECORD_BYTES,
    on_skip: (err: CsvError | undefined) => {
      if (!err || tooLong !== null) return undefined;
      const line = lines.refused(err);
      if (err.code === 'CSV_MAX_RECORD_SIZE') {
        tooLong = `line ${line} starts a record longer than 1 MB, and the file cannot be read past it: a field that long is most often a quote opened and never closed (quote fields that contain quotes and double inner quotes "")`;
        parser.destroy();
        return undefined;
      }
      // a stray quote is most often why a row has too many or too few fields: that is what to fix
      const message =
        (err.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH'
          ? strays.within(lines.last + 1, line)
          : undefined) ?? csvMessage(err, line);
      lines.skipped(line);
      rows.error(line, message);
      // csv-parse drops a broken record: were it the header, the next row would be taken for it
      if (header === null)
        brokenHeader ??= `the header (line ${line}) is not valid CSV: ${message}`;
      return undefined;
    },
  });
  const source = Readable.from(strays.scanning(chunks));
  await new Promise<void>((resolve, reject) => {
    source.on('error', reject);
    parser.on('error', reject);
    parser.on('end', resolve);
    parser.on('close', () => {
      if (tooLong === null) return;
      source.destroy();
      resolve();
    });
    // 'data' fires while the parser pushes the record, so its live info.lines is the record's last line
    // (cheaper than on_record, which builds a context object per record)
    parser.on('data', (record: string[]) => {
      const first = lines.record(record, parser.info.lines);
      const stray = strays.found ? strays.within(first, lines.last) : undefined;
      if (header === null) {
        header = record.map((h) => h.trim());
        if (stray) {
          rows.error(first, stray);
          brokenHeader ??= `the header (line ${first}) is not valid CSV: ${stray}`;
        }
        headerError = brokenHeader ?? headerProblem(header, rows);
        if (!headerError) rows.useHeader(header);
      } else if (stray) rows.error(first, stray);
      else if (!headerError) rows.values(record, first);
    });
    source.pipe(parser);
  });
  if (tooLong) throw new FeedFileError(tooLong);
  if (headerError) throw new FeedFileError(headerError);
}

/** csv-parse's refusal in the sandbox's words: what is wrong on `line`, and what to fix. */
function csvMessage(err: CsvError, line: number): string {
  // "expect N, got M": without the columns option csv-parse counts the header's fields
  const m = /(?:columns length is|expect) (\d+), got (\d+)/.exec(err.message);
  if (m)
    return `${plural(Number(m[2]), 'field')}, but the header has ${m[1]}: check for unquoted delimiters or missing values`;
  const fix = 'quote the whole field and double every quote inside it ("")';
  if (err.code === 'CSV_QUOTE_NOT_CLOSED')
    return `a quote opened on line ${line} is never closed, so the rest of the file was read as part of that field: close the quote, or ${fix}`;
  return err.message;
}

/** Deeper than this, an ndJSON product is refused (real products nest two or three levels). */
export const MAX_PRODUCT_DEPTH = 32;

async function parseNdjson(chunks: AsyncIterable<Buffer>, rows: RowCollector): Promise<void> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let line = 0;
  const handle = (text: string) => {
    line++;
    if (text.length === 0 || (text.length < 3 && !text.trim())) return;
    // a product nested this deep could not be stored (writing the catalog recursed out of the stack and
    // the feed went done with no catalog): it is refused here, with the reason, like any bad row
    if (nestsDeeperThan(text, MAX_PRODUCT_DEPTH)) {
      rows.error(
        line,
        `nested deeper than ${MAX_PRODUCT_DEPTH} levels: a product's fields hold values (text, numbers, lists of them), not deep structures; flatten it`,
      );
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      if (!text.trim()) return;
      rows.error(line, `not JSON (${(err as Error).message})`);
      return;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      rows.error(line, 'not a JSON object: each line must hold one product object');
      return;
    }
    // the product keeps the line itself (already one string) and parses it again when its fields are read
    rows.row(value as RawFields, line, text, JSON_ROWS);
  };
  for await (const chunk of chunks) {
    let text = rest + decoder.write(chunk);
    // a BOM before the first line (Windows tools write one) is not part of the first product
    if (line === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      handle(text.slice(start, text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl));
      start = nl + 1;
    }
    rest = text.slice(start);
    if (rest.length > 1024 * 1024)
      throw new FeedFileError(
        `line ${line + 1} is longer than 1 MB: ndJSON needs one product per line`,
      );
  }
  rest += decoder.end();
  if (rest) handle(rest);
}
