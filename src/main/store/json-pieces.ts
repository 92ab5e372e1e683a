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
