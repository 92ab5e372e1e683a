// The one writer of large JSON answers, in pieces: `{"list":[…], …rest}` exactly as JSON.stringify would
// write it (compact), an element at a time, so a list of 100,000 pages or events is never one string.
// The HTTP layer sends the pieces (http/stream-body.ts); what they are is decided here.

/** JSON texts joined as the elements of an array (without the brackets). */
export function* elements(items: Iterable<string>, separator = ','): Generator<string> {
  let first = true;
  for (const json of items) {
    yield first ? json : `${separator}${json}`;
    first = false;
  }
}

/**
 * `{"<key>":[<items>], ...rest}` in pieces: the bytes of JSON.stringify({[key]: list, ...rest}), with
 * each element already JSON (`items` is drawn from only as the pieces are written).
 */
export function* objectWithList(
  key: string,
  items: Iterable<string>,
  rest: Record<string, unknown> = {},
): Generator<string> {
  yield `{${JSON.stringify(key)}:[`;
  yield* elements(items);
  const tail = JSON.stringify(rest);
  yield tail === '{}' ? ']}' : `],${tail.slice(1)}`;
}

/** `[<items>]` in pieces. */
export function* arrayOf(items: Iterable<string>): Generator<string> {
  yield '[';
  yield* elements(items);
  yield ']';
}

/**
 * A value of a larger document written in pieces when the document is (an export's catalogs): JSON texts
 * that together are one JSON value, each made only when the writer reaches it.
 */
export class JsonPieces {
  constructor(readonly pieces: () => Iterable<string>) {}
}

/**
 * `JSON.stringify(value)` (compact) in pieces, where every `JsonPieces` inside it is written from its own
 * pieces instead of at once.
 */
export function* documentPieces(value: unknown): Generator<string> {
  const streamed: JsonPieces[] = [];
  // a mark no text of the value can hold: a string JSON.stringify writes with its U+0000 escaped
  const mark = `\u0000${Math.random().toString(36).slice(2)}${Date.now().toString(36)}:`;
  const text = JSON.stringify(value, (_key, v: unknown) =>
    v instanceof JsonPieces ? `${mark}${streamed.push(v) - 1}` : v,
  );
  if (streamed.length === 0) return yield text;
  const quoted = JSON.stringify(mark).slice(0, -1);
  let at = 0;
  for (let i = 0; i < streamed.length; i++) {
    const placeholder = `${quoted}${i}"`;
    const found = text.indexOf(placeholder, at);
    yield text.slice(at, found);
    yield* streamed[i]!.pieces();
    at = found + placeholder.length;
  }
  yield text.slice(at);
}
