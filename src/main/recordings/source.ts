// Where a recording comes from, for `check`, `diff` and uploads alike: a file, `-` (standard input), a FIFO
// or a process substitution (`<(zcat day.ndjson.gz)`), read as a stream; or a body already in memory.
// Directories and devices are refused with one line before anything is read, and every input is capped
// (per line and in all), so an endless device on standard input ends with a clear error, not an OOM. Text
// saved as UTF-16 (PowerShell's `>`) is read as the UTF-8 it holds (base/utf16.ts).
import { createReadStream, fstatSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { isatty } from 'node:tty';
import { InputError } from './recorded';
import { utf8Chunks } from '../base/utf16';

/** Limits on what a recording reader takes. */
export interface RecordingCaps {
  /** bytes in one NDJSON line */
  lineBytes: number;
  /** bytes of a recording read whole (an export, a HAR, a baseline file) */
  documentBytes: number;
  /** bytes of one input in all (NDJSON is streamed, so this may be large) */
  inputBytes: number;
}

const RECORDING_CAPS: RecordingCaps = {
  lineBytes: 64 * 1024 * 1024,
  documentBytes: 512 * 1024 * 1024,
  inputBytes: 16 * 1024 * 1024 * 1024,
};

/** bytes a file recording is read in at a time */
const READ_AHEAD = 1 << 16;

/** A recording as chunks of bytes, named for messages. */
export interface RecordingSource {
  readonly name: string;
  readonly caps: RecordingCaps;
  /** the folder of a recording read from a file on disk, where a HAR's side files are (none for a pipe) */
  readonly folder?: string;
  /** the chunks, each read when reached; throws InputError when the input is over `caps.inputBytes` */
  chunks(): AsyncIterable<Buffer>;
}

export const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** What a recording's path should name. */
const EXPECTED =
  'give a recording file (NDJSON of events, a sandbox export, a HAR or a baseline file), or - for standard input';

/**
 * Why `stats` is not something to read a recording from, or null when it is. Standard input may also be a
 * socket (what a parent process often hands its child) or a terminal (lines typed or pasted).
 */
function refusal(name: string, stats: Stats, stdin: boolean): string | null {
  if (stats.isDirectory()) return `${name} is a directory: ${EXPECTED}`;
  if (stdin && (stats.isSocket() || isatty(0))) return null;
  if (stats.isCharacterDevice() || stats.isBlockDevice())
    return `${name} is a device, not a recording: give a recording file, a pipe, or - for standard input`;
  if (stats.isSocket())
    return `${name} is a socket, not a recording: give a recording file, a pipe, or - for standard input`;
  return null;
}

/** Why a file cannot be read, in words, with the system's code for a search. */
function unreadable(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  const words =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EACCES' || code === 'EPERM'
        ? 'cannot read it: permission denied'
        : code === 'ENOTDIR'
          ? 'no such file (a part of its path is not a folder)'
          : 'cannot read it';
  return `${words} (${code ?? (err as Error).message})`;
}

/**
 * The recording at `file` (`-` is standard input), checked before it is read: a regular file or a pipe,
 * nothing else. Throws InputError with one line otherwise.
 */
export function openRecording(file: string, caps: RecordingCaps = RECORDING_CAPS): RecordingSource {
  const name = file === '-' ? 'standard input' : file;
  let stats: Stats;
  try {
    stats = file === '-' ? fstatSync(0) : statSync(file);
  } catch (err) {
    // a path that names nothing is most often a typo or a step that did not run (no export written yet)
    const missing = ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '');
    throw new InputError(`${name}: ${unreadable(err)}${missing ? `: ${EXPECTED}` : ''}`);
  }
  const refused = refusal(name, stats, file === '-');
  if (refused) throw new InputError(refused);
  return {
    name: file,
    caps,
    ...(file !== '-' && stats.isFile() && { folder: path.dirname(file) }),
    chunks: () =>
      utf8Chunks(
        capped(
          file,
          caps,
          // 64 KiB at a time: each piece's lines are decoded as one string, and a string over 128 KiB would
          // be a large object, which only a full collection frees (a million events: ~10 MB more held)
          file === '-' ? process.stdin : createReadStream(file, { highWaterMark: READ_AHEAD }),
          (err) => {
            throw new InputError(`${file}: ${unreadable(err)}`);
          },
        ),
      ),
  };
}

/** A recording already in memory (an uploaded body). */
export function recordingFrom(
  data: Buffer | string,
  name: string,
  caps: RecordingCaps = RECORDING_CAPS,
): RecordingSource {
  const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  return {
    name,
    caps,
    chunks: () =>
      utf8Chunks(
        capped(
          name,
          caps,
          (async function* () {
            yield buffer;
          })(),
          (err) => {
            throw err;
          },
        ),
      ),
  };
}

async function* capped(
  name: string,
  caps: RecordingCaps,
  stream: AsyncIterable<unknown>,
  failed: (err: unknown) => never,
): AsyncGenerator<Buffer> {
  let total = 0;
  const iterator = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<unknown>;
      try {
        next = await iterator.next();
      } catch (err) {
        failed(err);
      }
      if (next.done) return;
      const chunk = next.value as Buffer;
      total += chunk.length;
      if (total > caps.inputBytes)
        throw new InputError(
          `${name}: more than ${mb(caps.inputBytes)} (the most one input may hold): split the recording, or check it in parts`,
        );
      yield chunk;
    }
  } finally {
    // stop reading (an endless input left behind would keep the process alive)
    await iterator.return?.();
  }
}
