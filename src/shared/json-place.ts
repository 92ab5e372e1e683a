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
  /** the text ends before the JSON does (V8 says "end of JSON input", or stops past its last character) */
  cutOff: boolean;
  /**
   * V8 stopped at a closing } or ] right after a comma (whitespace between): a comma after the last entry,
   * with the comma's own line and column (JSON allows none, JavaScript does)
   */
  trailingComma?: { line: number; column: number };
}

/** Where in `text` the JSON.parse `message` points. */
export function jsonPlace(text: string, message: string): JsonPlace {
  const why = message.replace(
    / in JSON at position \d+.*$|, (?:\.\.\.)?".*" is not valid JSON$/s,
    '',
  );
  const at = /at position (\d+)/.exec(message);
  const ended = /end of JSON input/.test(message);
  if (!at) {
    // V8 quotes a stretch of the text instead of a position for some errors: a comma after a last entry is
    // found by reading the text
    const comma = ended ? undefined : firstTrailingComma(text);
    return {
      why,
      cutOff: ended,
      ...(comma !== undefined && { trailingComma: lineAndColumn(text, comma) }),
    };
  }
  const position = Number(at[1]);
  const comma = trailingCommaBefore(text, position);
  return {
    why,
    cutOff: ended || position >= text.trimEnd().length,
    position,
    ...lineAndColumn(text, position),
    ...(comma !== undefined && { trailingComma: lineAndColumn(text, comma) }),
  };
}

/** 1-based line and column of a character position. */
function lineAndColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, position);
  return { line: before.split('\n').length, column: position - before.lastIndexOf('\n') };
}

/** The position of the first comma outside a string that only whitespace parts from a } or ], if any. */
function firstTrailingComma(text: string): number | undefined {
  let inString = false;
  let comma = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === ',') comma = i;
    else if ((c === '}' || c === ']') && comma >= 0) return comma;
    else if (!/\s/.test(c)) comma = -1;
  }
  return undefined;
}

/** The position of the comma before a closing } or ] at `position` (only whitespace between), if any. */
function trailingCommaBefore(text: string, position: number): number | undefined {
  const close = text[position];
  if (close !== '}' && close !== ']') return undefined;
  let i = position - 1;
  while (i >= 0 && /\s/.test(text[i]!)) i--;
  return text[i] === ',' ? i : undefined;
}
