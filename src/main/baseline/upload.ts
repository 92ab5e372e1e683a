// A recording sent to the sandbox (POST /_sandbox/diff) compared with its recorded traffic. The upload is
// bounded (the router caps it); the recorded events are read in slices, giving the loop back between them.
import type { RecordedEvent } from '../../shared/events';
import type { DiffResult } from '../../shared/baseline';
import { InputError } from '../recordings/recorded';
import { compareRecordings } from './compare';
import { RecordingBuilder, withoutPages, type Recording } from './recording';
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

/** Why an upload was not compared: unreadable, or it or the recorded traffic holds no page to compare. */
export interface DiffRefusal {
  refused: 'InvalidRecording' | 'NothingToCompare';
  message: string;
}

/**
 * The upload (BASE) against the recorded events (CURRENT, read once BASE is), or why not: as `diff`
 * refuses two recordings one of which has no page, so that a Compare of broken tracking against broken
 * tracking never reads "same".
 */
export async function diffUpload(
  data: Buffer,
  recorded: () => Iterable<RecordedEvent>,
  current = "the sandbox's recorded traffic",
): Promise<DiffResult | DiffRefusal> {
  const base = await readUpload(data);
  if (typeof base === 'string') return { refused: 'InvalidRecording', message: base };
  const builder = new RecordingBuilder();
  let n = 0;
  for (const event of recorded()) {
    builder.add(event);
    if (++n % SLICE === 0) await turn();
  }
  const now = builder.end();
  const empty = withoutPages({ BASE: ['the uploaded recording', base], CURRENT: [current, now] });
  if (empty) return { refused: 'NothingToCompare', message: empty };
  return compareRecordings(base, now, turn);
}

/** What the sandbox's Compare asks: an upload against the recorded events a query keeps. */
export interface BaselinesService {
  /** the upload (BASE) against the recorded events `query` keeps, or why they were not compared */
  diff(upload: Buffer, query: EventQuery): Promise<DiffResult | DiffRefusal>;
}
