// A recording sent to the sandbox (POST /_sandbox/diff) compared with its recorded traffic. The upload is
// bounded (the router caps it); the recorded events are read in slices, giving the loop back between them.
import type { RecordedEvent } from '../../shared/events';
import type { DiffResult } from '../../shared/baseline';
import { InputError, parseInput } from '../check/inputs';
import { looksLikeBaseline, parseBaseline } from './baseline-file';
import { compareRecordings } from './compare';
import { RecordingBuilder, type Recording } from './recording';

const SLICE = 2000;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The uploaded recording; a string says why it cannot be read (line or field). */
export function readUpload(text: string, name = 'the uploaded recording'): Recording | string {
  if (looksLikeBaseline(text.slice(0, 256))) return parseBaseline(text, name);
  try {
    const builder = new RecordingBuilder();
    for (const event of parseInput(text, name).events) builder.add(event);
    return builder.end();
  } catch (err) {
    if (err instanceof InputError) return err.message;
    throw err;
  }
}

/** BASE (the upload) against the recorded events. */
export async function diffWithRecorded(
  base: Recording,
  recorded: Iterable<RecordedEvent>,
): Promise<DiffResult> {
  const builder = new RecordingBuilder();
  let n = 0;
  for (const event of recorded) {
    builder.add(event);
    if (++n % SLICE === 0) await turn();
  }
  return compareRecordings(base, builder.end(), turn);
}
