// Quotes in a CSV file that RFC 4180 does not allow, found in its bytes as they pass to the parser, and
// said as row errors that name the field and how to write it (feed-parse.ts reads the file relaxed, so that
// one bad row costs one row; these tell which rows to refuse, and why).

/** Lines whose text is kept for row errors about their stray quotes; later ones are kept by number only. */
const MAX_STRAY_LINES = 1_000;
/** The longest line kept whole for a row error (a longer one is said from around its quote). */
const MAX_STRAY_LINE = 4_096;

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/**
 * The lines of a CSV file that hold a quote RFC 4180 does not allow, found in its bytes as they pass to the
 * parser: a quote with neither the delimiter, a line break nor another quote on one side and the same on the
 * other (`"12" Tent"`, `12" Tent`). A field's own quotes are at its ends or doubled, so a quote within a
 * line's text between two other characters is always stray; and a quote before a CR in a file whose lines
 * end with LF only (a line saved with another line break). Lines are numbered as an editor shows them.
 */
export class StrayQuotes {
  private readonly delimiter: number;
  private readonly lines = new Map<number, { text: string; at: number }>();
  /** the byte before the chunk, and the file's line break (LF, or CR for a CR-only file) */
  private before = LF;
  private newline = 0;
  /** LF only: a CR is no line end of this file */
  private lfOnly = true;
  private line = 1;
  /** the current line's start, from the chunks before this one (bounded) */
  private carried = '';
  /** the line of the quote that ended the chunk before, whose next byte was not known */
  private pending: number | null = null;
  /** lines past MAX_STRAY_LINES that hold a stray quote: their rows are refused, said without their text */
  private readonly beyond = new Set<number>();

  constructor(delimiter: string) {
    this.delimiter = delimiter.charCodeAt(0);
  }

  get found(): boolean {
    return this.lines.size > 0;
  }

  async *scanning(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of chunks) {
      this.scan(chunk);
      yield chunk;
    }
  }

  /**
   * A row error for the record on lines `first` to `last` when one of them holds a stray quote: the field
   * and its fix when the record is that line alone, else the line and the text around its quote.
   */
  within(first: number, last: number): string | undefined {
    if (!this.found) return undefined;
    for (let n = first; n <= last; n++) {
      const kept = this.lines.get(n);
      if (!kept) {
        if (this.beyond.has(n))
          return `line ${n} holds a quote that is not doubled: a quote inside a quoted field must be doubled (""), and a field that holds a quote must be quoted whole`;
        continue;
      }
      // the line's fields are the record's when the record begins on it
      const whole = n === first && kept.at >= 0;
      const problem = whole
        ? quoteProblem(kept.text, String.fromCharCode(this.delimiter), this.eol)
        : null;
      return (
        problem ??
        `line ${n} holds a quote that is not doubled (${shown(kept.text)}): a quote inside a quoted field must be doubled (""), and a field that holds a quote must be quoted whole`
      );
    }
    return undefined;
  }

  private get eol(): string {
    return this.lfOnly ? '\n' : this.newline === CR ? '\r' : '\r\n';
  }

  private scan(chunk: Buffer): void {
    if (this.newline === 0) {
      const lf = chunk.indexOf(LF);
      const cr = chunk.indexOf(CR);
      if (lf !== -1 || cr !== -1) {
        this.newline = lf === -1 ? CR : LF;
        this.lfOnly = this.newline === LF && !(lf > 0 && chunk[lf - 1] === CR);
      }
    }
    const nl = this.newline || LF;
    let lineStart = 0;
    let counted = 0;
    const countTo = (to: number) => {
      for (let i = chunk.indexOf(nl, counted); i !== -1 && i < to; i = chunk.indexOf(nl, i + 1)) {
        this.line++;
        lineStart = i + 1;
        counted = i + 1;
      }
      counted = Math.max(counted, to);
    };
    if (this.pending !== null) {
      if (!this.allowedAfter(chunk[0]!)) this.keep(this.pending, chunk, -1, 0);
      this.pending = null;
    }
    // the file's byte order mark is no character of its first line
    const bom =
      this.line === 1 && this.before === LF && chunk[0] === 0xef && chunk[1] === 0xbb ? 3 : 0;
    for (let q = chunk.indexOf(QUOTE); q !== -1; q = chunk.indexOf(QUOTE, q + 1)) {
      const prev = q > bom ? chunk[q - 1]! : q === bom && bom > 0 ? LF : this.before;
      if (prev === QUOTE || prev === LF || prev === CR || prev === this.delimiter) continue;
      if (q + 1 >= chunk.length) {
        countTo(q);
        this.pending = this.line;
        continue;
      }
      if (this.allowedAfter(chunk[q + 1]!)) continue;
      countTo(q);
      this.keep(this.line, chunk, lineStart, q);
    }
    countTo(chunk.length);
    // the start of the line the next chunk goes on with, for its row error (bounded)
    const rest = chunk.subarray(lineStart).toString('utf8');
    this.carried = lineStart > 0 ? rest : (this.carried + rest).slice(-MAX_STRAY_LINE);
    this.before = chunk[chunk.length - 1]!;
  }

  private allowedAfter(byte: number): boolean {
    return (
      byte === QUOTE ||
      byte === this.delimiter ||
      byte === LF ||
      // a CR ends a line of a file whose lines end with one (CRLF, CR); in an LF file it is the line's own
      (byte === CR && !this.lfOnly)
    );
  }

  /** Keep line `n`'s text: from `lineStart` in `chunk` (-1: it began in the chunks before) to its end. */
  private keep(n: number, chunk: Buffer, lineStart: number, quote: number): void {
    if (this.lines.has(n)) return;
    if (this.lines.size >= MAX_STRAY_LINES) {
      this.beyond.add(n);
      return;
    }
    const nl = this.newline || LF;
    const end = chunk.indexOf(nl, Math.max(quote, 0));
    // with its line break, as quoteProblem reads a record (it tells a CRLF in a file of LF lines by it)
    const own = chunk
      .subarray(Math.max(lineStart, 0), end === -1 ? chunk.length : end + 1)
      .toString('utf8');
    const text = (lineStart === -1 || lineStart === 0 ? this.carried : '') + own;
    const complete = end !== -1 && text.length <= MAX_STRAY_LINE;
    this.lines.set(n, {
      text: complete ? text : text.slice(0, MAX_STRAY_LINE),
      at: complete ? 0 : -1,
    });
  }
}

/** A field longer than this is not quoted whole in a message. */
const MAX_SHOWN_FIELD = 80;

/**
 * The first quote of a CSV record that RFC 4180 does not allow, as a row error: the field, the rule and
 * the field as it should be written; null when its quotes are right. `raw` is the record as read (with
 * the line breaks of empty lines before it), `eol` the file's line break.
 */
function quoteProblem(raw: string, delimiter: string, eol: string): string | null {
  let at = 0;
  while (raw[at] === '\n' || raw[at] === '\r') at++;
  // raw holds a record's line break but for the last character of a CRLF (csv-parse's raw)
  const lineEnd = (i: number): boolean =>
    i >= raw.length || raw.startsWith(eol, i) || (i === raw.length - 1 && raw[i] === eol[0]);
  const endOfField = (from: number): number => {
    for (let i = from; i < raw.length; i++) if (raw[i] === delimiter || lineEnd(i)) return i;
    return raw.length;
  };
  for (let field = 1; ; field++) {
    const start = at;
    if (raw[at] === '"') {
      for (let q = raw.indexOf('"', at + 1); q !== -1; q = raw.indexOf('"', q + 2)) {
        if (raw[q + 1] === '"') continue;
        at = q + 1;
        if (raw[at] === delimiter || lineEnd(at)) break;
        const end = endOfField(at);
        const written = raw.slice(start, end);
        const before = raw.slice(start, q);
        if (raw[at] === '\n' || raw[at] === '\r') {
          const other = raw.startsWith('\r\n', at) ? '\r\n' : raw[at]!;
          return `field ${field} (${shown(raw.slice(start, at))}) ends its line with ${JSON.stringify(other)}, where the header's line ends with ${JSON.stringify(eol)}: save the file with one kind of line break`;
        }
        // what the field was meant to hold: its quoted part, the stray quote, the rest but a closing quote
        const rest = raw.slice(at, end).replace(/"$/, '');
        const meant = `${before.slice(1).replaceAll('""', '"')}"${rest}`;
        return `field ${field} (${shown(written)}) holds a quote that is not doubled, after ${shown(before)}: a quote inside a quoted field must be doubled; ${writeAs(meant)}`;
      }
      // a quote never closed is csv-parse's to report (CSV_QUOTE_NOT_CLOSED); such a record is not given
      if (at === start) return null;
    } else {
      at = endOfField(at);
      const value = raw.slice(start, at);
      if (value.includes('"'))
        return `a quote in the middle of field ${field} (${shown(value)}), which is not quoted: a field that holds a quote must be quoted whole, with each quote inside it doubled; ${writeAs(value)}`;
    }
    if (raw[at] !== delimiter) return null;
    at++;
  }
}

/** A field's text in a message: its line breaks as \r and \n, so that the message is one line. */
function shown(value: string): string {
  const text = value.replaceAll('\r', '\\r').replaceAll('\n', '\\n');
  return text.length <= MAX_SHOWN_FIELD ? text : `${text.slice(0, MAX_SHOWN_FIELD - 1)}…`;
}

function writeAs(value: string): string {
  return value.length <= MAX_SHOWN_FIELD
    ? `write the field as ${shown(`"${value.replaceAll('"', '""')}"`)}`
    : 'quote the whole field and double every quote inside it ("")';
}
