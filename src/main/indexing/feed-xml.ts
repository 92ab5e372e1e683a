// XML feeds: find the repeated product element, then stream products out with saxes.
// saxes never expands entities declared in a DTD; a DOCTYPE that declares any is refused outright.
import { SaxesParser } from 'saxes';
import { StringDecoder } from 'node:string_decoder';
import { FeedFileError } from './feed-file';
import type { RowCollector } from './feed-parse';

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
  const parser = new SaxesParser({ position: false });
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

/** Stream products out of an XML feed: each `recordElement` becomes one row; nested fields get dotted names. */
export async function parseXml(
  chunks: AsyncIterable<Buffer>,
  recordElement: string,
  rows: RowCollector,
): Promise<void> {
  const parser = new SaxesParser({ position: true });
  const decoder = new StringDecoder('utf8');
  let fatal = null as Error | null;
  // names below the product element (null while outside a product); `key` is the dotted field name
  let path: string[] | null = null;
  let key = '';
  let fields: Record<string, string> = {};
  let text = '';
  let line = 0;

  parser.on('doctype', (d) => {
    try {
      refuseEntities(d);
    } catch (err) {
      fatal = err as Error;
    }
  });
  parser.on('opentag', (tag) => {
    if (path === null) {
      if (tag.name !== recordElement) return;
      path = [];
      fields = {};
      line = parser.line;
      for (const k in tag.attributes) fields[k] = tag.attributes[k] as string;
      return;
    }
    path.push(tag.name);
    key = path.length === 1 ? tag.name : path.join('.');
    text = '';
    for (const k in tag.attributes) fields[`${key}@${k}`] = tag.attributes[k] as string;
  });
  const onText = (t: string) => {
    if (path === null || path.length === 0) return;
    text = text === '' ? t : text + t;
    if (text.length > 1024 * 1024)
      fatal ??= new FeedFileError(
        `a field of the product starting on line ${line} is longer than 1 MB`,
      );
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', (tag) => {
    if (path === null) return;
    if (path.length === 0) {
      if (tag.name === recordElement) rows.row(fields, line);
      path = null;
      return;
    }
    if (text !== '') {
      const value =
        text.charCodeAt(0) > 32 && text.charCodeAt(text.length - 1) > 32 ? text : text.trim();
      if (value !== '') fields[key] = fields[key] === undefined ? value : `${fields[key]}|${value}`;
      text = '';
    }
    path.pop();
    key = path.length === 0 ? '' : path.length === 1 ? path[0]! : path.join('.');
  });
  parser.on('error', (err) => {
    fatal ??= err;
  });

  for await (const chunk of chunks) {
    parser.write(decoder.write(chunk));
    if (fatal) throw fatal instanceof FeedFileError ? fatal : xmlError(fatal);
  }
  parser.write(decoder.end());
  parser.close();
  if (fatal) throw fatal instanceof FeedFileError ? fatal : xmlError(fatal);
}
