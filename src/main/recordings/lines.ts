// The lines of a recording, in time linear in the input: each chunk is scanned once for newlines, and a
// line that spans chunks is kept as its pieces, joined once when its newline comes (joining the text so
// far on every chunk was quadratic in the length of one long line). A line over the cap is refused.
import { InputError } from './inputs';
import { mb, type RecordingSource } from './source';

/** Batches of complete lines (one batch per chunk read), without their newline or a CR before it. */
export async function* linesOf(
  source: RecordingSource,
  chunks: AsyncIterable<Buffer> = source.chunks(),
): AsyncGenerator<string[]> {
  const max = source.caps.lineBytes;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNo = 0;
  const tooLong = () =>
    new InputError(
      `${source.name}:${lineNo + 1}: a line longer than ${mb(max)}: one recorded event is a few kilobytes; is this a recording?`,
    );
  const text = (buf: Buffer) => {
    lineNo++;
    const end = buf.length > 0 && buf[buf.length - 1] === 13 ? buf.length - 1 : buf.length;
    return buf.toString('utf8', 0, end);
  };
  for await (const chunk of chunks) {
    const batch: string[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      const tail = chunk.subarray(start, nl);
      if (pendingBytes + tail.length > max) throw tooLong();
      batch.push(text(pending.length ? Buffer.concat([...pending, tail]) : tail));
      pending = [];
      pendingBytes = 0;
      start = nl + 1;
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
      if (pendingBytes > max) throw tooLong();
    }
    yield batch;
  }
  if (pendingBytes > 0) yield [text(Buffer.concat(pending))];
}
