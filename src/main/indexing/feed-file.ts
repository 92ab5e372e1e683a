// Decoding of feed files as streams: raw, gzip or zip (one entry), with a cap on the decompressed size
// and on the compression ratio, so a decompression bomb fails within megabytes and memory stays bounded.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { PassThrough, Readable, pipeline } from 'node:stream';
import zlib from 'node:zlib';
import { isZip, openZip, type ZipProblem } from '../base/zip';

/**
 * Where a feed file's bytes are: an upload or a cart source's answer held in memory (≤ 20 MB; `url`: the
 * cart source it came from, named in refusals), or a file on disk.
 */
export type FeedInput =
  { kind: 'buffer'; data: Buffer; name?: string; url?: string } | { kind: 'file'; path: string };

export interface DecodeLimits {
  /** decoded bytes allowed (after decompression) */
  maxDecodedBytes: number;
  /** decoded/compressed ratio above which, past `ratioCheckAfter` decoded bytes, the file is taken for a bomb */
  maxRatio: number;
  ratioCheckAfter: number;
}

export const DEFAULT_LIMITS: DecodeLimits = {
  maxDecodedBytes: 100 * 1024 * 1024,
  maxRatio: 200,
  ratioCheckAfter: 1024 * 1024,
};

/** What a feed may be, said in every refusal of a file that is something else. */
export const FEED_FORMATS =
  'a feed is CSV, TSV, ndJSON or XML text, sent raw or as a gzip or a zip of one such file';

/** A feed file that cannot be read; the message is what the feed's error and the e-mail show. */
export class FeedFileError extends Error {
  override name = 'FeedFileError';
}

export interface DecodedFeed {
  /** 'raw', 'gzip' or 'zip (entry products.csv)' */
  encoding: string;
  chunks: AsyncIterable<Buffer>;
}

const GZIP = [0x1f, 0x8b];

function startsWith(head: Buffer, magic: number[]): boolean {
  return magic.every((b, i) => head[i] === b);
}

/** What the file arrived as, by its first bytes: 'gzip', 'zip' or 'raw' ('raw' when it cannot be read). */
export async function containerOf(input: FeedInput): Promise<string> {
  const head = await readHead(input).catch(() => Buffer.alloc(0));
  if (startsWith(head, GZIP)) return 'gzip';
  if (isZip(head)) return 'zip';
  return 'raw';
}

async function readHead(input: FeedInput): Promise<Buffer> {
  if (input.kind === 'buffer') return input.data.subarray(0, 4);
  const fh = await open(input.path, 'r').catch((err: NodeJS.ErrnoException) => {
    throw new FeedFileError(`cannot read feed file ${input.path} (${err.code ?? err.message})`);
  });
  try {
    const buf = Buffer.alloc(4);
    const { bytesRead } = await fh.read(buf, 0, 4, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

function source(input: FeedInput, chunk = 256 * 1024): Readable {
  if (input.kind === 'file') return createReadStream(input.path, { highWaterMark: chunk });
  const data = input.data;
  return Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += chunk) yield data.subarray(i, i + chunk);
    })(),
    { objectMode: false },
  );
}

/** The gzip trailer states the decoded size (mod 4 GB): an honest bomb is refused before inflating a byte. */
async function checkGzipTrailer(input: FeedInput, limits: DecodeLimits): Promise<void> {
  let size: number;
  let isize: number;
  if (input.kind === 'buffer') {
    size = input.data.length;
    if (size < 18) return;
    isize = input.data.readUInt32LE(size - 4);
  } else {
    const fh = await open(input.path, 'r');
    try {
      size = (await fh.stat()).size;
      if (size < 18) return;
      const buf = Buffer.alloc(4);
      await fh.read(buf, 0, 4, size - 4);
      isize = buf.readUInt32LE(0);
    } finally {
      await fh.close();
    }
  }
  // deflate cannot expand more than ~1032:1: a bigger claim means a truncated or odd file, left to the stream checks
  if (isize > size * 1100) return;
  if (isize > limits.maxDecodedBytes) {
    throw new FeedFileError(
      `the gzip file decodes to ${mb(isize)}, more than the ${mb(limits.maxDecodedBytes)} the sandbox reads: split the feed`,
    );
  }
  if (isize > limits.ratioCheckAfter && isize / size > limits.maxRatio) {
    throw new FeedFileError(
      `the gzip file expands ${Math.round(isize / size)}:1 (${size} bytes to ${mb(isize)}): refused as a decompression bomb`,
    );
  }
}

/** Open a feed file and return its decoded bytes as a stream of chunks. Throws FeedFileError. */
export async function decodeFeed(
  input: FeedInput,
  limits: DecodeLimits = DEFAULT_LIMITS,
): Promise<DecodedFeed> {
  const head = await readHead(input);
  if (startsWith(head, GZIP)) {
    await checkGzipTrailer(input, limits);
    // 16 KB reads: the inflater's consumed-byte count then tracks the compressed position closely (ratio check)
    const gunzip = zlib.createGunzip({ chunkSize: 64 * 1024 });
    const out = new PassThrough({ highWaterMark: 256 * 1024 });
    pipeline(source(input, 16 * 1024), gunzip, out, () => undefined);
    return {
      encoding: 'gzip',
      chunks: capped(out, 'the gzip file', limits, () => gunzip.bytesWritten, gzipError),
    };
  }
  if (isZip(head)) return openFeedZip(input, limits);
  const raw = source(input);
  return { encoding: 'raw', chunks: capped(raw, 'the feed file', limits, null, (e) => e) };
}

function gzipError(err: Error): Error {
  if (err instanceof FeedFileError) return err;
  const code = (err as NodeJS.ErrnoException).code ?? '';
  if (code.startsWith('Z_'))
    return new FeedFileError(
      `the gzip file is corrupt or truncated (${err.message}): compress it again with gzip`,
    );
  return err;
}

/** Pass chunks through, failing once the decoded size passes the cap or the ratio gives a bomb away. */
async function* capped(
  src: AsyncIterable<Buffer>,
  what: string,
  limits: DecodeLimits,
  compressedSoFar: (() => number) | null,
  mapError: (err: Error) => Error,
): AsyncGenerator<Buffer> {
  let decoded = 0;
  try {
    for await (const chunk of src) {
      decoded += chunk.length;
      if (decoded > limits.maxDecodedBytes) {
        throw new FeedFileError(
          `${what} decodes to more than ${mb(limits.maxDecodedBytes)}: the sandbox stops there (split the feed or remove unused columns)`,
        );
      }
      if (compressedSoFar && decoded > limits.ratioCheckAfter) {
        const ratio = decoded / Math.max(1, compressedSoFar());
        if (ratio > limits.maxRatio) {
          throw new FeedFileError(
            `${what} expands more than ${limits.maxRatio}:1 (${mb(decoded)} from ${compressedSoFar()} bytes so far): refused as a decompression bomb`,
          );
        }
      }
      yield chunk;
    }
  } catch (err) {
    throw mapError(err as Error);
  }
}

function mb(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

/**
 * An Office Open XML file is a zip ([Content_Types].xml with xl/, word/ or ppt/): named as the document
 * it is, since "a zip must hold one file" sent people to re-zip a spreadsheet.
 */
function officeZip(names: string[]): string | null {
  if (!names.includes('[Content_Types].xml')) return null;
  if (names.some((n) => n.startsWith('xl/')))
    return `the file is an Excel workbook (.xlsx: a zip holding [Content_Types].xml and xl/…), not a feed: ${FEED_FORMATS}. In Excel, save the sheet as "CSV UTF-8" (File › Save As) and upload that`;
  return `the file is an Office document (a zip holding [Content_Types].xml), not a feed: ${FEED_FORMATS}; export the products as CSV and upload that`;
}

/** The feed's refusals of a zip, in its own words. */
function feedZipRefusal(problem: ZipProblem): FeedFileError {
  const name = 'entry' in problem ? problem.entry.fileName : '';
  switch (problem.kind) {
    case 'unreadable':
      return new FeedFileError(`the zip file cannot be read (${problem.message}): zip it again`);
    case 'corrupt':
      return new FeedFileError(`the zip file is corrupt (${problem.message}): zip it again`);
    case 'unsafe-name':
      // named as what it is: "the zip file is corrupt" sent people to zip it again, the same way
      return new FeedFileError(
        `${problem.said}, and such names are refused: zip the feed file alone, by its own name (e.g. products.csv)`,
      );
    case 'too-big':
      return new FeedFileError(
        `the zip entry ${name} decodes to ${mb(problem.entry.uncompressedSize)}, more than the ${mb(problem.cap)} the sandbox reads`,
      );
    case 'bomb':
      return new FeedFileError(
        `the zip entry ${name} expands ${Math.round(problem.ratio)}:1: refused as a decompression bomb`,
      );
    case 'entry-unreadable':
      return new FeedFileError(`cannot read ${name} in the zip file (${problem.message})`);
    case 'entry-corrupt':
      return new FeedFileError(
        `the zip entry ${name} is corrupt (${problem.message}): zip it again`,
      );
  }
}

async function openFeedZip(input: FeedInput, limits: DecodeLimits): Promise<DecodedFeed> {
  const zip = await openZip(
    input.kind === 'buffer' ? { data: input.data } : { path: input.path },
    feedZipRefusal,
  );
  if (zip.entries.length !== 1) {
    zip.close();
    const names = zip.entries.map((e) => e.fileName);
    throw new FeedFileError(
      officeZip(names) ??
        (names.length === 0
          ? 'the zip file holds no file: put the feed (one CSV, TSV, ndJSON or XML file) in it'
          : `the zip file holds ${names.length} files (${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}): a feed zip must hold exactly one file`),
    );
  }
  const entry = zip.entries[0]!;
  const chunks = await zip.chunks(
    entry,
    {
      maxBytes: limits.maxDecodedBytes,
      maxRatio: limits.maxRatio,
      ratioAfter: limits.ratioCheckAfter,
    },
    true,
  );
  // Declared sizes can lie; the cap also counts what is really inflated.
  return {
    encoding: `zip (entry ${entry.fileName})`,
    chunks: capped(
      chunks,
      `the zip entry ${entry.fileName}`,
      limits,
      () => entry.compressedSize,
      (e) => e,
    ),
  };
}

/**
 * Read the first `n` bytes of a chunk stream without losing them: returns the head, the whole stream,
 * and whether the head is all of it (the stream ended before `n` bytes).
 */
export async function peek(
  chunks: AsyncIterable<Buffer>,
  n: number,
): Promise<{ head: Buffer; all: AsyncIterable<Buffer>; whole: boolean }> {
  const it = chunks[Symbol.asyncIterator]();
  const got: Buffer[] = [];
  let size = 0;
  let ended = false;
  while (size < n) {
    const r = await it.next();
    if (r.done) {
      ended = true;
      break;
    }
    got.push(r.value);
    size += r.value.length;
  }
  const head = Buffer.concat(got);
  async function* all(): AsyncGenerator<Buffer> {
    if (head.length) yield head;
    if (ended) return;
    try {
      for (;;) {
        const r = await it.next();
        if (r.done) return;
        yield r.value;
      }
    } finally {
      await it.return?.();
    }
  }
  return { head: head.subarray(0, Math.min(head.length, n)), all: all(), whole: ended };
}
