// A recording read from a file for `diff`: a baseline file as written, else what `check` reads (NDJSON,
// a sandbox export, a HAR) through check's own streaming reader.
import { open, readFile } from 'node:fs/promises';
import { readInput } from '../check/read';
import { InputError } from '../check/inputs';
import { looksLikeBaseline, parseBaseline } from './baseline-file';
import { RecordingBuilder, type Recording } from './recording';
import type { IgnorePath } from './normalize';

async function head(file: string): Promise<string> {
  if (file === '-') return '';
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    throw new InputError(
      `${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  try {
    const buffer = Buffer.alloc(256);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The recording in a file; InputError (file and line) when it cannot be read. */
export async function readRecording(
  file: string,
  ignore: readonly IgnorePath[],
  note: (text: string) => void,
  texts?: Map<string, string>,
): Promise<Recording> {
  if (looksLikeBaseline(await head(file))) {
    const parsed = parseBaseline(await readFile(file, 'utf8'), file, ignore);
    if (typeof parsed === 'string') throw new InputError(parsed);
    return parsed;
  }
  const builder = new RecordingBuilder(ignore, texts);
  let events = 0;
  for await (const items of readInput(file, '', { seq: 0 }))
    for (const item of items) {
      if ('event' in item) {
        events++;
        builder.add(item.event);
      } else if ('note' in item) note(item.note);
    }
  if (events === 0) note(`${file}: no beacon v2 events found`);
  return builder.end();
}
