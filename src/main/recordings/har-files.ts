// The HARs Playwright's recordHar saves with their bodies apart, read with those bodies: content 'attach'
// (each body a file beside the HAR, which names it in `postData._file`) and a path ending in .zip (the HAR
// as har.har in a zip, the body files beside it). Only the beacon requests' bodies and the companion search's
// answers are read, not the pages' scripts and images; a side file is looked for in the HAR's folder or the zip, never outside it, and
// every read is capped as a recording read whole is.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { openZip, type ZipEntry, type ZipProblem } from '../base/zip';
import { plural } from '../../shared/text';
import { InputError } from './recorded';
import { beaconSideFiles } from './har';
import { answerSideFiles } from './har-issued';
import { isObject } from '../../shared/values';
import { mb, type RecordingCaps } from './source';

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
  const answers = answerSideFiles(harEntriesOf(whole));
  if (wanted.length === 0 && answers.length === 0) return undefined;
  for (const { entry, name } of wanted)
    if (leavesFolder(name))
      throw new InputError(
        `${file}: entry ${entry}'s request.postData._file is ${JSON.stringify(name)}: a side file is named relative to the HAR's folder, without ".." or a leading /; refused (Playwright names its side files by their hash, e.g. 84ff4b….txt: record the HAR again)`,
      );
  if (files === null && wanted.length > 0)
    throw new InputError(
      `${file}: its beacon requests keep their bodies in side files beside the HAR (request.postData._file ${JSON.stringify(wanted[0]!.name)}: Playwright's recordHar with content 'attach'), which are read from the HAR's folder: give the HAR file by its path (one sent on standard input or uploaded comes without them), or record it with content 'embed'`,
    );
  const bodies = new Map<string, string>();
  if (files === null) return bodies;
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
  await readAnswers(answers, files, caps, bodies);
  return bodies;
}

/**
 * The companion search's answers kept in side files, into `bodies`: one that is missing, outside the HAR's
 * folder or too big is left out (the HAR's reader says how many answers it could not read), not refused:
 * the beacons are judged without it.
 */
async function readAnswers(
  answers: ReadonlyArray<{ name: string }>,
  files: SideFiles,
  caps: RecordingCaps,
  bodies: Map<string, string>,
): Promise<void> {
  let total = 0;
  for (const { name } of answers) {
    if (bodies.has(name) || leavesFolder(name)) continue;
    const bytes = await files.read(name, caps.lineBytes).catch((err: unknown) => {
      if (err instanceof InputError) return null;
      throw err;
    });
    if (bytes === null || (total += bytes.length) > caps.documentBytes) continue;
    bodies.set(name, bytes.toString('utf8'));
  }
}

/** A HAR's entries, or none when it has no entry list (its reader says what is wrong with it). */
function harEntriesOf(har: unknown): readonly unknown[] {
  return isObject(har) && isObject(har.log) && Array.isArray(har.log.entries)
    ? har.log.entries
    : [];
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

/** Past this many bytes inflated, an entry inflating more than BOMB_RATIO times is taken for a bomb. */
const RATIO_AFTER = 1024 * 1024;
const BOMB_RATIO = 200;

/** A HAR zip's refusals, in the words of a recording read: by the file's name, and what to do. */
function harZipRefusal(file: string) {
  return (problem: ZipProblem): InputError => {
    const what =
      'entry' in problem ? `${file}: the zip entry ${JSON.stringify(problem.entry.fileName)}` : '';
    switch (problem.kind) {
      case 'unreadable':
      case 'corrupt':
        return new InputError(
          `${file}: the zip file cannot be read (${problem.message}): record the HAR again, or zip it again`,
        );
      case 'unsafe-name':
        return new InputError(
          `${file}: ${problem.said}, and such names are refused: a HAR zip holds har.har and its body files, by their own names`,
        );
      case 'too-big':
        return new InputError(
          `${what} holds ${mb(problem.entry.uncompressedSize)}, more than the ${mb(problem.cap)} it may: record fewer requests`,
        );
      case 'bomb':
        return new InputError(
          `${what} expands ${Math.round(problem.ratio)}:1: refused as a decompression bomb`,
        );
      case 'entry-unreadable':
        return new InputError(`${what} cannot be read (${problem.message})`);
      case 'entry-corrupt':
        return new InputError(`${what} is corrupt (${problem.message}): record the HAR again`);
    }
  };
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
  const zip = await openZip({ data }, harZipRefusal(file));
  const entries = zip.entries;
  const read = (entry: ZipEntry, cap: number) =>
    zip.bytes(entry, { maxBytes: cap, maxRatio: BOMB_RATIO, ratioAfter: RATIO_AFTER });
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
    const text = (await read(har, caps.documentBytes)).toString('utf8');
    return {
      text,
      files: {
        async read(name, cap) {
          const entry = byName.get(name);
          return entry === undefined ? null : read(entry, cap);
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
