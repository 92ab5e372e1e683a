// The lines of a recording, in time linear in the input: each chunk is scanned once for newlines, and a
// line that spans chunks is kept as its pieces, joined once when its newline comes (joining the text so
// far on every chunk was quadratic in the length of one long line). A line over the cap is refused.
import { InputError } from './recorded';
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
  for await (const chunk of chunks) {
    const batch: string[] = [];
    let start = 0;
    const first = chunk.indexOf(10);
    if (first !== -1 && pendingBytes > 0) {
      // the line begun in earlier chunks ends here
      if (pendingBytes + first > max) throw tooLong();
      lineNo++;
      batch.push(withoutCr(Buffer.concat([...pending, chunk.subarray(0, first)]).toString('utf8')));
      pending = [];
      pendingBytes = 0;
      start = first + 1;
    }
    const last = chunk.lastIndexOf(10);
    if (last >= start) {
      // every complete line of the chunk decoded at once (a newline byte never falls inside a UTF-8
      // sequence) and cut in JavaScript: a line is then a slice of that text, not a string decoded and
      // copied of its own
      const lines = chunk.toString('utf8', start, last).split('\n');
      // a line can be over the cap only when the chunk's lines are
      const check = last - start > max;
      for (const line of lines) {
        if (check && Buffer.byteLength(line) > max) throw tooLong();
        lineNo++;
        batch.push(withoutCr(line));
      }
      start = last + 1;
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
      if (pendingBytes > max) throw tooLong();
    }
    yield batch;
  }
  if (pendingBytes > 0) {
    lineNo++;
    yield [withoutCr(Buffer.concat(pending).toString('utf8'))];
  }
}

/** A line without the CR of a CRLF ending. */
function withoutCr(line: string): string {
  return line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
}
