// `JSON.stringify(value, null, 2)`'s bytes made from `JSON.stringify(value)`'s: V8 stringifies without
// indentation several times faster, and the indentation is then one pass over bytes that can run on another
// thread. Compact JSON has no whitespace outside its strings, so every byte outside a string says what
// comes next: after `{`/`[` (unless the pair is empty) and `,` a new line at the depth, before `}`/`]` a new
// line one level up, after `:` a space. UTF-8 bytes of other characters are all ≥ 0x80 and never taken for
// one of these.

const NEWLINE = 0x0a;
const SPACE = 0x20;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** Bytes written in pieces of about this size. */
const PIECE = 1 << 18;

/** Writes compact JSON indented by two spaces a level, into pieces of bytes handed to `sink` when full. */
export class JsonIndenter {
  private buf = Buffer.allocUnsafe(PIECE);
  private pos = 0;

  /** `sink` writes each full piece before it returns (the buffer is then filled again). */
  constructor(private readonly sink: (bytes: Buffer) => void) {}

  /** Text that is written as it is (ASCII only: separators, indentation). */
  raw(text: string): void {
    this.room(text.length);
    this.pos += this.buf.write(text, this.pos, 'latin1');
  }

  /** The bytes of `src` from `from` to `to`, compact JSON (`JSON.stringify(v)`), as `JSON.stringify(v, null, 2)` writes v at `depth` levels in. */
  bytes(src: Uint8Array, from: number, to: number, depth: number): void {
    let buf = this.buf;
    let pos = this.pos;
    let inString = false;
    for (let i = from; i < to; i++) {
      // room for the widest thing one byte becomes: a newline and the indentation of its depth, and itself
      if (pos + 2 * depth + 4 > buf.length) {
        this.pos = pos;
        this.room(2 * depth + 4);
        buf = this.buf;
        pos = this.pos;
      }
      const c = src[i]!;
      if (inString) {
        buf[pos++] = c;
        if (c === BACKSLASH) buf[pos++] = src[++i]!;
        else if (c === QUOTE) inString = false;
        continue;
      }
      switch (c) {
        case QUOTE:
          inString = true;
          buf[pos++] = c;
          break;
        case OPEN_OBJECT:
        case OPEN_ARRAY:
          buf[pos++] = c;
          if (src[i + 1] === c + 2) {
            // `{}` and `[]` stay on their line
            buf[pos++] = src[++i]!;
            break;
          }
          depth++;
          buf[pos++] = NEWLINE;
          for (let s = 2 * depth; s > 0; s--) buf[pos++] = SPACE;
          break;
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          depth--;
          buf[pos++] = NEWLINE;
          for (let s = 2 * depth; s > 0; s--) buf[pos++] = SPACE;
          buf[pos++] = c;
          break;
        case COMMA:
          buf[pos++] = c;
          buf[pos++] = NEWLINE;
          for (let s = 2 * depth; s > 0; s--) buf[pos++] = SPACE;
          break;
        case COLON:
          buf[pos++] = c;
          buf[pos++] = SPACE;
          break;
        default:
          buf[pos++] = c;
      }
    }
    this.pos = pos;
  }

  /** Hand over what is written so far. */
  flush(): void {
    if (this.pos === 0) return;
    this.sink(this.buf.subarray(0, this.pos));
    this.pos = 0;
  }

  private room(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    this.flush();
    if (bytes > this.buf.length) this.buf = Buffer.allocUnsafe(bytes);
  }
}
