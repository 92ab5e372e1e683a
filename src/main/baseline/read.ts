// A recording for `diff` and for an upload to compare (POST /_sandbox/diff): a baseline file as written,
// else what `check` reads (NDJSON, a sandbox export, a HAR), through the one streaming reader.
import { InputError } from '../recordings/recorded';
import { looksLikeBaseline, parseBaseline } from './baseline-file';
import { RecordingBuilder, type Recording } from './recording';
import type { IgnorePath } from './normalize';
import type { IgnoreUse } from './ignore-use';
import { peek, readInput, readWhole } from '../recordings/read';
import type { RecordingSource } from '../recordings/source';

/** The recording in a source; InputError (name and line) when it cannot be read. */
export async function readRecording(
  input: RecordingSource,
  ignore: readonly IgnorePath[],
  note: (text: string) => void,
  texts?: Map<string, string>,
  use?: IgnoreUse,
): Promise<Recording> {
  // a baseline file says so in its first bytes; the peeked bytes are read again (a pipe reads once)
  const { head, source } = await peek(input, 256);
  if (looksLikeBaseline(head.toString('utf8'))) {
    const parsed = parseBaseline(await readWhole(source), source.name, ignore, use);
    if (typeof parsed === 'string') throw new InputError(parsed);
    return parsed;
  }
  const builder = new RecordingBuilder(ignore, texts, use);
  // a recording without a page is the caller's to refuse (`diff` says which of BASE and CURRENT it is)
  for await (const items of readInput(source, '', { seq: 0 }))
    for (const item of items) {
      if ('event' in item) builder.add(item.event);
      else if ('note' in item) note(item.note);
    }
  return builder.end();
}
