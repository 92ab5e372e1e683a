// The one reader of zip files, for both zips the sandbox reads: a feed sent as a zip of one file, and the
// HAR zip Playwright's recordHar writes. yauzl reads them (loaded with the first zip: most runs read none).
// It checks every entry's name (absolute, or with a `..` part) before handing the entry over; the entries
// are listed one at a time, and an entry's declared sizes are checked before a byte of it is inflated (a
// cap, and a ratio that gives a decompression bomb away), then against what really inflates
// (validateEntrySizes). What a refusal says is the caller's: it is handed the problem and words it.
import type { Readable } from 'node:stream';
import type { Entry, ZipFile } from 'yauzl';
import { lazily } from '../lazy-require';
import { shown } from '../../shared/text';

const yauzl = lazily<typeof import('yauzl')>('yauzl');

/** A file in a zip: its name (`fileName`) and declared sizes, read when asked. */
export type ZipEntry = Entry;

/** A local file header: the first bytes of a zip that holds a file. */
const LOCAL_HEADER = [0x50, 0x4b, 0x03, 0x04];
/** An end record alone: the whole of a zip that holds no file. */
const END_RECORD = [0x50, 0x4b, 0x05, 0x06];

/** Do these first bytes start a zip file (one holding files, or an empty one)? */
export function isZip(head: Uint8Array): boolean {
  const starts = (magic: number[]) => magic.every((b, i) => head[i] === b);
  return starts(LOCAL_HEADER) || starts(END_RECORD);
}

/** Why a zip, or an entry of it, is not read; the caller says it in its own words. */
export type ZipProblem =
  /** the archive cannot be opened (no end record, a central directory out of bounds, a file that cannot be read) */
  | { kind: 'unreadable'; message: string }
  /** an entry's record in the central directory is broken */
  | { kind: 'corrupt'; message: string }
  /** `said`: `the zip entry "…" has a name that leaves the archive's folder (…)` */
  | { kind: 'unsafe-name'; said: string }
  | { kind: 'too-big'; entry: Entry; cap: number }
  | { kind: 'bomb'; entry: Entry; ratio: number }
  /** the entry's data cannot be reached (its local header) */
  | { kind: 'entry-unreadable'; entry: Entry; message: string }
  /** the entry's data does not inflate, or not to the size declared */
  | { kind: 'entry-corrupt'; entry: Entry; message: string };

export interface EntryLimits {
  /** inflated bytes an entry may hold */
  maxBytes: number;
  /** inflated/compressed ratio above which, past `ratioAfter` inflated bytes, an entry is taken for a bomb */
  maxRatio: number;
  ratioAfter: number;
}

/** An open zip: its files, each read when asked. */
export interface Zip {
  /** the files it holds, in the archive's order: folders and the metadata macOS adds are left out */
  readonly entries: readonly Entry[];
  /** An entry's inflated bytes as they come; `closeAfter`: the zip closes when they end or fail. */
  chunks(entry: Entry, limits: EntryLimits, closeAfter?: boolean): Promise<AsyncIterable<Buffer>>;
  /** An entry's inflated bytes, whole. */
  bytes(entry: Entry, limits: EntryLimits): Promise<Buffer>;
  close(): void;
}

/** Folders and the metadata macOS adds to the zips it makes are no files of the zip. */
function isNoise(name: string): boolean {
  return name.endsWith('/') || name.startsWith('__MACOSX/') || /(^|\/)\.DS_Store$/.test(name);
}

/**
 * The words for yauzl's refusal of an entry by its name (absolute, or with a `..` part): `the zip entry
 * "…" has a name that leaves the archive's folder (…)`; null for any other error. yauzl reads every name,
 * its \ read as /, before handing the entry over: nothing of it is read, and the sandbox never writes an
 * entry anywhere.
 */
export function unsafeEntryName(message: string): string | null {
  const refused = /^(absolute path|invalid relative path): (.*)$/s.exec(message);
  if (!refused) return null;
  const [, kind, name] = refused;
  const why = kind === 'absolute path' ? 'an absolute path' : 'a ".." part';
  return `the zip entry ${shown(name)} has a name that leaves the archive's folder (${why})`;
}

/** A zip held in memory or on disk, opened and its entries listed; every failure is `refuse`'s error. */
export async function openZip(
  source: { data: Buffer } | { path: string },
  refuse: (problem: ZipProblem) => Error,
): Promise<Zip> {
  // autoClose off: an entry is read after the listing's 'end', so the file stays open until closed
  const options = { lazyEntries: true, validateEntrySizes: true, autoClose: false } as const;
  const zip = await new Promise<ZipFile>((resolve, reject) => {
    const done = (err: Error | null, z?: ZipFile) =>
      err || !z
        ? reject(refuse({ kind: 'unreadable', message: err?.message ?? 'unknown error' }))
        : resolve(z);
    if ('data' in source) yauzl().fromBuffer(source.data, options, done);
    else yauzl().open(source.path, options, done);
  });
  const entries = await listed(zip, refuse);
  const chunks = async (entry: Entry, limits: EntryLimits, closeAfter = false) => {
    try {
      checkSizes(entry, limits, refuse);
      return inflated(await readStream(zip, entry, refuse), entry, refuse, closeAfter ? zip : null);
    } catch (err) {
      if (closeAfter) zip.close();
      throw err;
    }
  };
  return {
    entries,
    chunks,
    async bytes(entry, limits) {
      const parts: Buffer[] = [];
      for await (const chunk of await chunks(entry, limits)) parts.push(chunk);
      return Buffer.concat(parts);
    },
    close: () => zip.close(),
  };
}

/** The zip's files, one entry record at a time; the zip is closed when one cannot be read. */
function listed(zip: ZipFile, refuse: (problem: ZipProblem) => Error): Promise<Entry[]> {
  const entries: Entry[] = [];
  return new Promise((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      if (!isNoise(entry.fileName)) entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', (err: Error) => {
      // with autoClose off yauzl leaves a file it opened open after an error
      zip.close();
      const said = unsafeEntryName(err.message);
      reject(
        refuse(said ? { kind: 'unsafe-name', said } : { kind: 'corrupt', message: err.message }),
      );
    });
    zip.readEntry();
  });
}

/** An entry's declared sizes, refused before a byte of it is inflated. */
function checkSizes(entry: Entry, limits: EntryLimits, refuse: (p: ZipProblem) => Error): void {
  if (entry.uncompressedSize > limits.maxBytes)
    throw refuse({ kind: 'too-big', entry, cap: limits.maxBytes });
  // no compressed byte gives nothing to inflate: such an entry fails as corrupt, not as a bomb
  if (entry.compressedSize === 0) return;
  const ratio = entry.uncompressedSize / entry.compressedSize;
  if (entry.uncompressedSize > limits.ratioAfter && ratio > limits.maxRatio)
    throw refuse({ kind: 'bomb', entry, ratio });
}

function readStream(
  zip: ZipFile,
  entry: Entry,
  refuse: (problem: ZipProblem) => Error,
): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) =>
      err || !stream
        ? reject(refuse({ kind: 'entry-unreadable', entry, message: err?.message ?? 'no data' }))
        : resolve(stream),
    ),
  );
}

/** The stream's chunks; a failure to inflate (or to inflate to the declared size) is refused. */
async function* inflated(
  stream: Readable,
  entry: Entry,
  refuse: (problem: ZipProblem) => Error,
  closing: ZipFile | null,
): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch (err) {
    throw refuse({ kind: 'entry-corrupt', entry, message: (err as Error).message });
  } finally {
    closing?.close();
  }
}
