// A recording sent to the sandbox (POST /_sandbox/diff) compared with its recorded traffic. The upload is
// bounded (the router caps it); the recorded events are read in slices, giving the loop back between them.
import type { RecordedEvent } from '../../shared/events';
import type { DiffResult } from '../../shared/baseline';
import { InputError } from '../recordings/recorded';
import { compareRecordings } from './compare';
import { RecordingBuilder, type Recording } from './recording';
import { readRecording } from './read';
import { recordingFrom } from '../recordings/source';
import type { EventQuery } from '../store/types';

const SLICE = 2000;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The uploaded recording, read by the recordings reader `check` and `diff` use (line and depth caps); a
 * string says why it cannot be read (line or field).
 */
export async function readUpload(
  data: Buffer | string,
  name = 'the uploaded recording',
): Promise<Recording | string> {
  try {
    return await readRecording(recordingFrom(data, name), [], () => undefined);
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

/** The upload (BASE) against the recorded events (CURRENT, read once BASE is); a string: BASE is unreadable. */
export async function diffUpload(
  data: Buffer,
  recorded: () => Iterable<RecordedEvent>,
): Promise<DiffResult | string> {
  const base = await readUpload(data);
  return typeof base === 'string' ? base : diffWithRecorded(base, recorded());
}

/** What the sandbox's Compare asks: an upload against the recorded events a query keeps. */
export interface BaselinesService {
  /** the upload (BASE) against the recorded events `query` keeps; a string says why BASE is unreadable */
  diff(upload: Buffer, query: EventQuery): Promise<DiffResult | string>;
}
