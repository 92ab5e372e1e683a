// The HARs Playwright's recordHar saves with their bodies apart, read with those bodies: content 'attach'
// (each body a file beside the HAR, which names it in `postData._file`) and a path ending in .zip (the HAR
// as har.har in a zip, the body files beside it). Only the beacon requests' bodies are read, not the pages'
// scripts and images; a side file is looked for in the HAR's folder or the zip, never outside it, and
// every read is capped as a recording read whole is.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Entry, ZipFile } from 'yauzl';
import { yauzl } from '../indexing/format-readers';
import { unsafeEntryName } from '../indexing/feed-file';
import { plural } from '../../shared/text';
import { InputError } from './recorded';
import { beaconSideFiles } from './har';
import { mb, type RecordingCaps } from './source';

/** The first bytes of a zip file (a local file header). */
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** Do these first bytes start a zip file? */
export function isZip(head: Buffer): boolean {
  return head.length >= 4 && head.subarray(0, 4).equals(ZIP_MAGIC);
}

/** Where a HAR's side files are: the folder it was read from, or the zip it came in. */
export interface SideFiles {
  /** the file's bytes, or null when there is none by that name */
  read(name: string, cap: number): Promise<Buffer | null>;
  /** where a missing one was looked for, after "which is": `not there: looked for …`, `not in the zip` */
  absent(name: string): string;
  /** what to do about a missing one */
  fix: string;
}

/** Why a side file's name would reach outside the HAR's folder (absolute, or a `..` part), or null. */
function leavesFolder(name: string): boolean {
  return (
    name === '' ||
    path.posix.isAbsolute(name) ||
    path.win32.isAbsolute(name) ||
    name.split(/[\\/]/).includes('..')
  );
}

/**
 * The bodies a HAR's beacon requests keep in side files, by name; undefined when `text` is no HAR or keeps
 * its bodies inline. `files` null: the HAR was not read from a file (standard input, an upload).
 */
export async function sideBodies(
  text: string,
  file: string,
  files: SideFiles | null,
  caps: RecordingCaps,
): Promise<Map<string, string> | undefined> {
  // a HAR that keeps its bodies inline is not parsed twice
  if (!text.includes('"_file"')) return undefined;
  let whole: unknown;
  try {
    whole = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined; // the reader says what is wrong with it
  }
  const wanted = beaconSideFiles(whole);
  if (wanted.length === 0) return undefined;
  for (const { entry, name } of wanted)
    if (leavesFolder(name))
      throw new InputError(
        `${file}: entry ${entry}'s request.postData._file is ${JSON.stringify(name)}: a side file is named relative to the HAR's folder, without ".." or a leading /; refused (Playwright names its side files by their hash, e.g. 84ff4b….txt: record the HAR again)`,
      );
  if (files === null)
    throw new InputError(
      `${file}: its beacon requests keep their bodies in side files beside the HAR (request.postData._file ${JSON.stringify(wanted[0]!.name)}: Playwright's recordHar with content 'attach'), which are read from the HAR's folder: give the HAR file by its path (one sent on standard input or uploaded comes without them), or record it with content 'embed'`,
    );
  const bodies = new Map<string, string>();
  let total = 0;
  for (const { entry, name } of wanted) {
    if (bodies.has(name)) continue;
    const bytes = await files.read(name, caps.lineBytes);
    if (bytes === null)
      throw new InputError(
        `${file}: entry ${entry}'s request body is in the side file ${JSON.stringify(name)} (request.postData._file), which is ${files.absent(name)}; ${files.fix}`,
      );
    total += bytes.length;
    if (total > caps.documentBytes)
      throw new InputError(
        `${file}: the beacon bodies in its side files come to more than ${mb(caps.documentBytes)}, the most a recording read whole may hold: record fewer requests`,
      );
    bodies.set(name, bytes.toString('utf8'));
  }
  return bodies;
}

/** The side files beside a HAR read from `folder`. */
export function folderFiles(folder: string): SideFiles {
  const where = (name: string) => path.join(folder, name);
  return {
    async read(name, cap) {
      const at = where(name);
      try {
        const stats = await stat(at);
        if (!stats.isFile()) return null;
        if (stats.size > cap)
          throw new InputError(
            `${at}: a side file of a HAR's request body holds more than ${mb(cap)}, more than one request's body may: not a beacon's body`,
          );
        return await readFile(at);
      } catch (err) {
        if (err instanceof InputError) throw err;
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return null;
        throw new InputError(`${at}: cannot read this side file of a HAR (${code ?? String(err)})`);
      }
    },
    absent: (name) => `not there: looked for ${where(name)}`,
    fix: "Playwright writes the side files into the HAR's folder: copy the HAR with the files beside it, or record it with content 'embed'",
  };
}

/** Past this many bytes inflated, an entry inflating more than MAX_RATIO times is taken for a bomb. */
const RATIO_AFTER = 1024 * 1024;
const MAX_RATIO = 200;

/** The entries of a zip, read one by one when asked; refused by name when a name leaves the archive. */
async function zipEntries(data: Buffer, file: string): Promise<{ zip: ZipFile; entries: Entry[] }> {
  const cannot = (err: Error) =>
    new InputError(
      unsafeEntryName(err.message)
        ? `${file}: ${unsafeEntryName(err.message)}, and such names are refused: a HAR zip holds har.har and its body files, by their own names`
        : `${file}: the zip file cannot be read (${err.message}): record the HAR again, or zip it again`,
    );
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    yauzl().fromBuffer(
      data,
      { lazyEntries: true, validateEntrySizes: true, autoClose: false },
      (err, z) => (err || !z ? reject(cannot(err ?? new Error('no zip'))) : resolve(z)),
    ),
  );
  const entries: Entry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      if (!entry.fileName.endsWith('/') && !entry.fileName.startsWith('__MACOSX/'))
        entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', (err: Error) => {
      zip.close();
      reject(cannot(err));
    });
    zip.readEntry();
  });
  return { zip, entries };
}

/** One entry's bytes, within `cap` (and no decompression bomb). */
async function entryBytes(zip: ZipFile, entry: Entry, file: string, cap: number): Promise<Buffer> {
  const what = `${file}: the zip entry ${JSON.stringify(entry.fileName)}`;
  if (entry.uncompressedSize > cap)
    throw new InputError(
      `${what} holds ${mb(entry.uncompressedSize)}, more than the ${mb(cap)} it may: record fewer requests`,
    );
  if (
    entry.uncompressedSize > RATIO_AFTER &&
    entry.uncompressedSize / Math.max(1, entry.compressedSize) > MAX_RATIO
  )
    throw new InputError(
      `${what} expands ${Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize))}:1: refused as a decompression bomb`,
    );
  const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
    zip.openReadStream(entry, (err, s) =>
      err || !s ? reject(new InputError(`${what} cannot be read (${err?.message})`)) : resolve(s),
    ),
  );
  const chunks: Buffer[] = [];
  try {
    // the declared size is checked against what inflates (validateEntrySizes)
    for await (const chunk of stream) chunks.push(chunk as Buffer);
  } catch (err) {
    throw new InputError(`${what} is corrupt (${(err as Error).message}): record the HAR again`);
  }
  return Buffer.concat(chunks);
}

/**
 * A HAR zip as Playwright's recordHar writes it to a path ending in .zip: the HAR (har.har, or the one
 * .har entry) as text, and its entries as the side files its bodies are in.
 */
export async function readHarZip(
  data: Buffer,
  file: string,
  caps: RecordingCaps,
): Promise<{ text: string; files: SideFiles; close: () => void }> {
  const { zip, entries } = await zipEntries(data, file);
  const byName = new Map(entries.map((e) => [e.fileName, e]));
  const hars = entries.filter((e) => e.fileName.toLowerCase().endsWith('.har'));
  const har = byName.get('har.har') ?? (hars.length === 1 ? hars[0] : undefined);
  if (har === undefined) {
    zip.close();
    const names = entries.map((e) => e.fileName);
    const held =
      names.length === 0
        ? 'it holds no file'
        : hars.length > 1
          ? `it holds ${plural(hars.length, 'HAR')}: ${hars.map((e) => e.fileName).join(', ')}`
          : `it holds ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}`;
    throw new InputError(
      `${file}: a zip without har.har (${held}): a HAR zip is what Playwright's recordHar writes to a path ending in .zip; give the HAR itself, or such a zip`,
    );
  }
  try {
    const text = (await entryBytes(zip, har, file, caps.documentBytes)).toString('utf8');
    return {
      text,
      files: {
        async read(name, cap) {
          const entry = byName.get(name);
          return entry === undefined ? null : entryBytes(zip, entry, file, cap);
        },
        absent: () => `not in the zip`,
        fix: 'the zip is incomplete: record the HAR again',
      },
      close: () => zip.close(),
    };
  } catch (err) {
    zip.close();
    throw err;
  }
}
