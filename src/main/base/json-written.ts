// What JSON.parse lets through silently in a hand-written file: a key given twice (the last one wins) and a
// number too large to be one (it reads as Infinity). Found in text JSON.parse already accepted, so the
// scan may trust its syntax; each is named by its path (`accounts[0].secretKey`) with the values as written.

export type WrittenProblem =
  | { kind: 'duplicate'; path: string; first: string; second: string }
  | { kind: 'not-finite'; path: string; literal: string; reads: number };

const WS = /[ \t\n\r]/;

/** The first key given twice or number that is not finite in `text` (valid JSON), or null. */
export function writtenProblem(text: string): WrittenProblem | null {
  let i = 0;
  const skip = () => {
    while (i < text.length && WS.test(text[i]!)) i++;
  };
  const string = (): string => {
    const start = i;
    i++; // the opening quote
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  /** Scan one value starting at i; returns its text as written, or a problem found inside it. */
  const value = (path: string): string | WrittenProblem => {
    skip();
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      const seen = new Map<string, string>();
      skip();
      if (text[i] === '}') i++;
      else
        for (;;) {
          skip();
          const key = string();
          skip();
          i++; // the colon
          const at = path === '' ? key : `${path}.${key}`;
          const written = value(at);
          if (typeof written !== 'string') return written;
          const first = seen.get(key);
          if (first !== undefined) return { kind: 'duplicate', path: at, first, second: written };
          seen.set(key, written);
          skip();
          if (text[i++] === '}') break;
        }
    } else if (c === '[') {
      i++;
      skip();
      if (text[i] === ']') i++;
      else
        for (let n = 0; ; n++) {
          const written = value(`${path}[${n}]`);
          if (typeof written !== 'string') return written;
          skip();
          if (text[i++] === ']') break;
        }
    } else if (c === '"') string();
    else {
      while (i < text.length && /[-+0-9.eEa-z]/.test(text[i]!)) i++;
      const literal = text.slice(start, i);
      const reads = Number(literal);
      if (/^-?[0-9]/.test(literal) && !Number.isFinite(reads))
        return { kind: 'not-finite', path, literal, reads };
    }
    return text.slice(start, i);
  };
  const found = value('');
  return typeof found === 'string' ? null : found;
}

/** A value as written, shortened to one readable piece for a one-line message. */
export function shownAsWritten(written: string): string {
  const one = written.replace(/\s+/g, ' ');
  return one.length > 60 ? `${one.slice(0, 60)}…` : one;
}
