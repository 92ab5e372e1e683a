// Where JSON.parse stopped, as an editor shows it: V8 names a character position ("… in JSON at position
// 123 (line 5 column 9)" in newer versions, the position alone in Node 20), and a person looks for a line.

export interface JsonPlace {
  /** V8's reason without its position or its quote of a short input ("Unexpected token }") */
  why: string;
  /** 1-based, when V8 named a position */
  line?: number;
  column?: number;
  /** the position V8 named */
  position?: number;
  /** the text ends before the JSON does (V8 says "end of JSON input", or stops at its last character) */
  cutOff: boolean;
}

/** Where in `text` the JSON.parse `message` points. */
export function jsonPlace(text: string, message: string): JsonPlace {
  const why = message.replace(
    / in JSON at position \d+.*$|, (?:\.\.\.)?".*" is not valid JSON$/s,
    '',
  );
  const at = /at position (\d+)/.exec(message);
  const ended = /end of JSON input/.test(message);
  if (!at) return { why, cutOff: ended };
  const position = Number(at[1]);
  const before = text.slice(0, position);
  return {
    why,
    cutOff: ended || position >= text.trimEnd().length - 1,
    position,
    line: before.split('\n').length,
    column: position - before.lastIndexOf('\n'),
  };
}
