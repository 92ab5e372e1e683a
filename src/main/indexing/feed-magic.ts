// Files that are certainly no feed, told by their first bytes (after the one level of gzip or zip the
// sandbox opens): another compressed file inside it, a PDF, an image, an Office or SQLite file, an HTML
// page. Without this they were read as CSV ("no id column: the header has %PDF-1.4"), as XML that is not
// well-formed (a login page), or refused as "binary", although the fix differs for each.
import { shown } from '../../shared/text';
import { FEED_FORMATS, FeedFileError } from './feed-file';

interface Magic {
  bytes: number[];
  what: string;
  fix: string;
}

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const EXPORT = 'export the products as CSV (or TSV, ndJSON, XML) and upload that';

const NESTED: Magic[] = [
  { bytes: [0x1f, 0x8b], what: 'gzip', fix: '' },
  { bytes: ascii('PK\x03\x04'), what: 'zip', fix: '' },
  { bytes: ascii('PK\x05\x06'), what: 'zip', fix: '' },
];

const OTHERS: Magic[] = [
  { bytes: ascii('%PDF-'), what: 'a PDF document', fix: EXPORT },
  { bytes: [0x89, ...ascii('PNG')], what: 'a PNG image', fix: EXPORT },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image', fix: EXPORT },
  { bytes: ascii('GIF8'), what: 'a GIF image', fix: EXPORT },
  {
    bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
    what: 'a legacy Office file (.xls or .doc)',
    fix: 'in Excel, save the sheet as "CSV UTF-8" and upload that',
  },
  { bytes: ascii('SQLite format 3\0'), what: 'an SQLite database', fix: EXPORT },
  { bytes: ascii('Rar!\x1a\x07'), what: 'a RAR archive', fix: 'use gzip or zip instead' },
  {
    bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c],
    what: 'a 7-Zip archive',
    fix: 'use gzip or zip instead',
  },
  { bytes: [0xfd, ...ascii('7zXZ'), 0], what: 'an xz file', fix: 'use gzip or zip instead' },
  { bytes: [0x28, 0xb5, 0x2f, 0xfd], what: 'a zstd file', fix: 'use gzip or zip instead' },
];

const starts = (head: Buffer, bytes: number[]) => bytes.every((b, i) => head[i] === b);

/**
 * How the refusal names the file: the upload (or the answer of the cart source `url`), or what the
 * container held.
 */
function named(container: string, url?: string): string {
  if (container === 'raw') return url ? `the answer of the cart source ${url}` : 'the feed file';
  if (container === 'gzip') return 'the file inside the gzip';
  const entry = /^zip \(entry (.*)\)$/.exec(container)?.[1];
  return entry ? `the zip entry ${entry}` : 'the file inside the zip';
}

/** Throws FeedFileError when the decoded file's first bytes show it is certainly no feed. */
export function refuseKnownNonFeed(head: Buffer, container: string, url?: string): void {
  const nested = NESTED.find((m) => starts(head, m.bytes));
  if (nested) {
    const outer = container === 'gzip' ? 'gzip' : 'zip';
    throw new FeedFileError(
      `${named(container, url)} is itself a ${nested.what} file (a ${nested.what} inside a ${outer}): the sandbox opens one level of compression; ${FEED_FORMATS}. Unpack the inner ${nested.what} and upload it, or compress the feed file once`,
    );
  }
  if (/^(%YAML|---[ \t]*\r?\n)/.test(head.subarray(0, 16).toString('latin1')))
    throw new FeedFileError(
      `${named(container, url)} is a YAML document (it starts with ${head[0] === 0x25 ? '%YAML' : '---'}), not a feed: ${FEED_FORMATS}; ${EXPORT}`,
    );
  const other = OTHERS.find((m) => starts(head, m.bytes));
  if (other)
    throw new FeedFileError(
      `${named(container, url)} is ${other.what}, not a feed: ${FEED_FORMATS}; ${other.fix}`,
    );
}

/**
 * How an HTML page starts: `<!DOCTYPE html` or `<html`, after blanks and at most an XML declaration and
 * comments (XHTML, a server's banner comment); null for anything else, an XML feed included.
 */
function htmlStart(text: string): string | null {
  let i = 0;
  const blanks = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  blanks();
  if (text.startsWith('<?xml', i)) {
    const end = text.indexOf('?>', i);
    if (end < 0) return null;
    i = end + 2;
    blanks();
  }
  while (text.startsWith('<!--', i)) {
    const end = text.indexOf('-->', i + 4);
    if (end < 0) return null;
    i = end + 3;
    blanks();
  }
  return /^(<!doctype\s+html(?=[\s>])|<html(?=[\s/>]))/i.exec(text.slice(i, i + 32))?.[1] ?? null;
}

/**
 * Throws FeedFileError when the decoded text (its first bytes, UTF-8) is an HTML page: a login or error
 * page saved or served in place of the feed, which the XML parser would refuse for its HTML syntax.
 */
export function refuseHtmlPage(head: Buffer, container: string, url?: string): void {
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  const start = htmlStart(text);
  if (!start) return;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.replace(/\s+/g, ' ').trim();
  const titled = title ? ` titled ${shown(title)}` : '';
  const fix = url
    ? `the URL answered with a web page (a login or error page?) instead of the feed: make ${url} serve the feed file itself`
    : `a login or error page saved in place of the feed? ${EXPORT}`;
  throw new FeedFileError(
    `${named(container, url)} is an HTML page${titled} (it starts with ${start}), not a feed: ${FEED_FORMATS}; ${fix}`,
  );
}
