// XML feeds: find the repeated product element, then stream products out with saxes.
// saxes never expands entities declared in a DTD; a DOCTYPE that declares any is refused outright.
import type { SaxesParser } from 'saxes';
import { saxes } from './format-readers';
import { StringDecoder } from 'node:string_decoder';
import { FeedFileError } from './feed-file';
import type { RowCollector } from './feed-rows';
import type { RawFields, RowReader } from './feed-product';

function refuseEntities(doctype: string): void {
  if (/<!ENTITY/i.test(doctype)) {
    throw new FeedFileError(
      'the XML declares entities in its DOCTYPE; entity expansion is off (it is how "billion laughs" bombs work): remove the DOCTYPE',
    );
  }
}

function xmlError(err: Error): FeedFileError {
  return new FeedFileError(`the XML is not well-formed: ${err.message}`);
}

interface Open {
  name: string;
  attributes: boolean;
  /** has child elements */
  children: boolean;
  /** has a child element that has child elements */
  nested: boolean;
}

/**
 * The product element of an XML feed, from its first bytes: the element with fields (child elements or
 * attributes) that repeats at the smallest depth (products/product, rss/channel/item, …); with a single
 * product, the first element whose children are all plain fields.
 */
export function findRecordElement(head: string): string {
  const parser = new (saxes().SaxesParser)({ position: false });
  const stack: Open[] = [];
  const counts = new Map<string, { name: string; depth: number; n: number }>();
  let firstFlat: string | null = null;
  let rootSeen = false;
  parser.on('doctype', refuseEntities);
  parser.on('opentag', (tag) => {
    const parent = stack[stack.length - 1];
    if (parent) parent.children = true;
    rootSeen = true;
    stack.push({
      name: tag.name,
      attributes: Object.keys(tag.attributes).length > 0,
      children: false,
      nested: false,
    });
  });
  parser.on('closetag', () => {
    const el = stack.pop();
    if (!el) return;
    const parent = stack[stack.length - 1];
    if (parent && el.children) parent.nested = true;
    const depth = stack.length + 1;
    if (depth === 1) return;
    if (el.children || el.attributes) {
      const key = `${depth}:${el.name}`;
      const c = counts.get(key) ?? { name: el.name, depth, n: 0 };
      c.n++;
      counts.set(key, c);
    }
    if (firstFlat === null && el.children && !el.nested) firstFlat = el.name;
  });
  parser.on('error', (err) => {
    throw err;
  });
  try {
    parser.write(head);
  } catch (err) {
    if (err instanceof FeedFileError) throw err;
    // the head may end mid-element: what was seen so far decides
    if (!rootSeen) throw xmlError(err as Error);
  }
  let best: { name: string; depth: number } | null = null;
  for (const c of counts.values()) if (c.n >= 2 && (!best || c.depth < best.depth)) best = c;
  const found = best?.name ?? firstFlat;
  if (!found)
    throw new FeedFileError(
      'no product element found in the XML: put each product in its own element, e.g. <products><product><id>1</id>…</product></products>',
    );
  return found;
}

type Parser = SaxesParser<{ position: boolean }>;

/**
 * The product handlers on a saxes parser: each product element's attributes and leaf texts become one
 * row (nested fields get dotted names, repeated ones are joined with "|"). With `only` naming a field,
 * just that one is collected (the rest stays in the product's kept source text).
 */
function collectProducts(
  parser: Parser,
  isRecord: (name: string) => boolean,
  onProduct: (fields: Record<string, string>, line: number) => void,
  only: () => string | null,
  fail: (err: Error) => void,
): void {
  // names below the product element (null while outside a product); `key` is the dotted field name
  let path: string[] | null = null;
  let key = '';
  let fields: Record<string, string> = {};
  let text = '';
  /** characters of the current field's text, collected or not */
  let size = 0;
  let line = 0;
  let wanted: string | null = null;

  parser.on('opentag', (tag) => {
    if (path === null) {
      if (!isRecord(tag.name)) return;
      path = [];
      fields = {};
      line = parser.line;
      wanted = only();
      for (const k in tag.attributes) fields[k] = tag.attributes[k] as string;
      return;
    }
    path.push(tag.name);
    key = path.length === 1 ? tag.name : path.join('.');
    text = '';
    size = 0;
    // past the first product only the id field is read: other fields' attributes and texts are not
    // collected (that work, per element, is most of what the sandbox adds to the raw parser)
    if (wanted === null || wanted.includes('@'))
      for (const k in tag.attributes) fields[`${key}@${k}`] = tag.attributes[k] as string;
  });
  const onText = (t: string) => {
    if (path === null || path.length === 0) return;
    // a field's length counts whether or not it is collected
    size += t.length;
    if (size > 1024 * 1024)
      fail(
        new FeedFileError(`a field of the product starting on line ${line} is longer than 1 MB`),
      );
    if (wanted !== null && key !== wanted) return;
    text = text === '' ? t : text + t;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', (tag) => {
    if (path === null) return;
    if (path.length === 0) {
      if (isRecord(tag.name)) onProduct(fields, line);
      path = null;
      return;
    }
    if (text !== '' && (wanted === null || key === wanted)) {
      const value =
        text.charCodeAt(0) > 32 && text.charCodeAt(text.length - 1) > 32 ? text : text.trim();
      if (value !== '') fields[key] = fields[key] === undefined ? value : `${fields[key]}|${value}`;
    }
    text = '';
    size = 0;
    path.pop();
    key = path.length === 0 ? '' : path.length === 1 ? path[0]! : path.join('.');
  });
}

/** Reads a product back from its kept XML element. */
export const XML_ROWS: RowReader = {
  readRow(source: string): RawFields {
    const parser = new (saxes().SaxesParser)({ position: false });
    let out: RawFields = {};
    let root: string | null = null;
    parser.on('opentagstart', (tag) => (root ??= tag.name));
    collectProducts(
      parser,
      (name) => name === root,
      (fields) => (out = fields),
      () => null,
      () => undefined,
    );
    parser.on('error', () => undefined);
    parser.write(source).close();
    return out;
  },
};

/** The decoded text of a feed, kept in its chunks, to cut each product's element out of. */
class ChunkedText {
  private readonly chunks: string[] = [];
  private readonly starts: number[] = [];
  private length = 0;
  private cursor = 0;

  push(chunk: string): void {
    if (!chunk) return;
    this.chunks.push(chunk);
    this.starts.push(this.length);
    this.length += chunk.length;
  }

  /** Characters [start, end): a view of one chunk, or the pieces joined when it spans chunks. */
  slice(start: number, end: number): string {
    // products come in order: move the cursor forward (back only if asked for an earlier one)
    while (this.cursor > 0 && this.starts[this.cursor]! > start) this.cursor--;
    while (this.cursor + 1 < this.chunks.length && this.starts[this.cursor + 1]! <= start)
      this.cursor++;
    let i = this.cursor;
    const first = this.chunks[i]!;
    const from = start - this.starts[i]!;
    if (end - this.starts[i]! <= first.length) return first.slice(from, end - this.starts[i]!);
    let out = first.slice(from);
    while (++i < this.chunks.length && this.starts[i]! < end)
      out += this.chunks[i]!.slice(0, end - this.starts[i]!);
    return out;
  }
}

/**
 * Stream products out of an XML feed. The first product is read in full (it decides the id field and
 * where name, price… are); later ones only for their id: each product keeps its element's text.
 */
export async function parseXml(
  chunks: AsyncIterable<Buffer>,
  recordElement: string,
  rows: RowCollector,
): Promise<void> {
  const parser = new (saxes().SaxesParser)({ position: true });
  const decoder = new StringDecoder('utf8');
  const kept = new ChunkedText();
  let fatal = null as Error | null;
  let start = 0;
  let seen = 0;

  parser.on('doctype', (d) => {
    try {
      refuseEntities(d);
    } catch (err) {
      fatal = err as Error;
    }
  });
  // position is one character past the name here: back to the "<"
  parser.on('opentagstart', (tag) => {
    if (tag.name === recordElement) start = parser.position - tag.name.length - 2;
  });
  collectProducts(
    parser,
    (name) => name === recordElement,
    (fields, line) => {
      seen++;
      rows.row(fields, line, kept.slice(start, parser.position), XML_ROWS);
    },
    () => (seen === 0 ? null : rows.idField),
    (err) => (fatal ??= err),
  );
  parser.on('error', (err) => {
    fatal ??= err;
  });

  let first = true;
  const feed = (text: string) => {
    if (first && text) {
      // saxes counts a BOM as a character: drop it so positions match the kept text
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    kept.push(text);
    parser.write(text);
  };
  for await (const chunk of chunks) {
    feed(decoder.write(chunk));
    if (fatal) throw fatal instanceof FeedFileError ? fatal : xmlError(fatal);
  }
  feed(decoder.end());
  parser.close();
  if (fatal) throw fatal instanceof FeedFileError ? fatal : xmlError(fatal);
}
