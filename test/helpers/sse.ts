// Reading `GET /_sandbox/stream` in tests: the raw text up to a condition, and the frames as envelopes.
import type { StreamMessage } from '../../src/shared/stream';

/** Read an SSE body until `until` matches the text so far. */
export async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  until: (text: string) => boolean,
): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  while (!until(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

/** The `{type, data}` envelopes of the complete frames in `text`. */
export function envelopes(text: string): StreamMessage[] {
  return text
    .split('\n\n')
    .map((frame) => /^data: (.*)$/m.exec(frame)?.[1])
    .filter((data): data is string => data !== undefined)
    .map((data) => JSON.parse(data) as StreamMessage);
}
