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

type Parser = SaxesParser<{ position: boolean }>;

/** Where the parser last started or closed a tag (a runaway entity starts after it). */
interface Mark {
  position: number;
  line: number;
  /** zero-based, in characters (saxes's own) */
  column: number;
}

function startMark(): Mark {
  return { position: 0, line: 1, column: 0 };
}

function markAt(parser: Parser, mark: Mark): void {
  mark.position = parser.position;
  mark.line = parser.line;
  mark.column = parser.column;
}

/** How far past the mark a bare & is looked for (a field is at most 1 MB). */
const BARE_AMPERSAND_SCAN = 1024 * 1024 + 1024;

/**
 * An & that starts no entity reference (a name, #digits or #xhex, then ";"): saxes reads everything
 * after it as the entity's name up to the next ";", so its own error comes there or at the end of the
 * file as "unclosed tag", far from the cause. `text` starts at the mark; the & must come before any "<"
 * (a tag, comment or CDATA section after the mark would have moved it). With `whole` false the text was
 * cut: an & whose name runs to its end may still be ended by a ";" past the cut, and is not reported.
 */
function bareAmpersand(text: string, whole: boolean): number | null {
  const ref = /&[^\s<&;]*/y;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 60) return null;
    if (c !== 38) continue;
    ref.lastIndex = i;
    const end = i + ref.exec(text)![0].length;
    if (end === text.length) return whole ? i : null;
    if (text.charCodeAt(end) !== 59) return i;
    i = end;
  }
  return null;
}

/**
 * The well-formedness error to report: saxes's own, unless a bare & after the last tag explains it;
 * then that & with its line and column. `text` is what was read from the mark on.
 */
function notWellFormed(err: Error, mark: Mark, text: string, whole: boolean): FeedFileError {
  const at = bareAmpersand(text, whole);
  return at === null ? xmlError(err) : bareAmpersandError(mark, text, at);
}

function bareAmpersandError(mark: Mark, text: string, at: number): FeedFileError {
  const before = text.slice(0, at);
  const lines = before.split(/\r\n?|\n/);
  const line = mark.line + lines.length - 1;
  const last = lines[lines.length - 1]!;
  const column = (lines.length === 1 ? mark.column : 0) + [...last].length + 1;
  const rest = text.slice(at).split(/[\r\n]/, 1)[0]!;
  const shown = rest.length > 11 ? `${rest.slice(0, 11)}…` : rest;
  return new FeedFileError(
    `the XML is not well-formed: ${line}:${column}: "${shown}" is an & that starts no entity (an entity is a name ended by ";", as in &amp;): write a plain & as &amp;`,
  );
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
 * product, the first element whose children are all plain fields. `whole` says the head is the whole
 * file; otherwise it was cut, and only its end is unread: a streaming parser fails on nothing that a
 * later part could make right, so every error met in the head is the file's own.
 */
export function findRecordElement(head: string, whole: boolean): string {
  const parser = new (saxes().SaxesParser)({ position: true });
  const stack: Open[] = [];
  const counts = new Map<string, { name: string; depth: number; n: number }>();
  const mark = startMark();
  let firstFlat: string | null = null;
  parser.on('doctype', refuseEntities);
  parser.on('opentagstart', () => markAt(parser, mark));
  parser.on('opentag', (tag) => {
    const parent = stack[stack.length - 1];
    if (parent) parent.children = true;
    stack.push({
      name: tag.name,
      attributes: Object.keys(tag.attributes).length > 0,
      children: false,
      nested: false,
    });
  });
  parser.on('closetag', () => {
    markAt(parser, mark);
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
    // the end of a cut head is no end of the file: the full parse closes it
    if (whole) parser.close();
  } catch (err) {
    if (err instanceof FeedFileError) throw err;
    throw notWellFormed(err as Error, mark, head.slice(mark.position, parser.position), true);
  }
  let best: { name: string; depth: number } | null = null;
  for (const c of counts.values()) if (c.n >= 2 && (!best || c.depth < best.depth)) best = c;
  const found = best?.name ?? firstFlat;
  if (found) return found;
  // an & that starts no entity takes the rest of the head for its name: no product ever closes
  const bare = bareAmpersand(head.slice(mark.position), whole);
  if (bare !== null) throw bareAmpersandError(mark, head.slice(mark.position), bare);
  throw new FeedFileError(
    'no product element found in the XML: put each product in its own element, e.g. <products><product><id>1</id>…</product></products>',
  );
}

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
  onCloseTag: () => void = () => undefined,
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
    onCloseTag();
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
  const mark = startMark();

  parser.on('doctype', (d) => {
    try {
      refuseEntities(d);
    } catch (err) {
      fatal = err as Error;
    }
  });
  // position is one character past the name here: back to the "<"
  parser.on('opentagstart', (tag) => {
    markAt(parser, mark);
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
    () => markAt(parser, mark),
  );
  parser.on('error', (err) => {
    if (fatal) return;
    // the first error, told from what was read since the last tag (saxes reads on past it)
    const end = Math.min(parser.position, mark.position + BARE_AMPERSAND_SCAN);
    const read = end > mark.position ? kept.slice(mark.position, end) : '';
    fatal = notWellFormed(err, mark, read, end === parser.position);
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
