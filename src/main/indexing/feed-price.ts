// Prices as a feed writes them: "12.99", "12,99 €", "$1,299.00", "1.299,00". A price's decimal mark is
// read from the price itself when it tells (a mark followed by 1–2 digits, or the last of `,` and `.`);
// "1,500" and "1.500" do not tell (one and a half, or fifteen hundred), so they are read as the feed's
// other prices write theirs, else as its delimiter suggests, and each is named in a row warning.
import type { RowError } from '../../shared/indexing';

export type DecimalMark = ',' | '.';

/** What one price's text says about the feed's decimal mark. */
type Shape =
  /** the number, when it does not depend on the decimal mark (none, or settled by the text) */
  | { kind: 'read'; value: number; mark: DecimalMark | null }
  /** one `,` or `.` followed by exactly three digits: a decimal mark or a thousands separator */
  | { kind: 'ambiguous'; mark: DecimalMark }
  | { kind: 'none' };

const NUMBER = /-?\d[\d,.]*/;

/** Thousands grouping never starts with 0 nor with more than three digits: "0,125" is a fraction. */
function couldGroup(whole: string): boolean {
  const digits = whole.startsWith('-') ? whole.slice(1) : whole;
  return digits.length >= 1 && digits.length <= 3 && digits[0] !== '0';
}

function shapeOf(v: string): Shape {
  // the common case, a plain decimal, without a regular expression
  const direct = Number(v);
  if (v !== '' && Number.isFinite(direct) && v.indexOf(',') === -1) {
    const dot = v.indexOf('.');
    if (dot === -1) return { kind: 'read', value: direct, mark: null };
    if (!(v.length - dot === 4 && /^-?\d+\.\d{3}$/.test(v) && couldGroup(v.slice(0, dot))))
      return { kind: 'read', value: direct, mark: '.' };
  }
  const m = NUMBER.exec(v);
  if (!m) return { kind: 'none' };
  // "12,- €", "12.": a mark with nothing after it is punctuation, not part of the number
  const t = m[0].replace(/[.,]+$/, '');
  const comma = t.lastIndexOf(',');
  const dot = t.lastIndexOf('.');
  if (comma === -1 && dot === -1) return { kind: 'read', value: Number(t), mark: null };
  // both: the last one is the decimal mark, the other groups thousands
  if (comma !== -1 && dot !== -1) return decimalAt(t, comma > dot ? ',' : '.');
  const mark: DecimalMark = comma !== -1 ? ',' : '.';
  const at = Math.max(comma, dot);
  // the mark more than once: it groups thousands ("1,234,567"), so the other mark is the decimal one
  if (t.indexOf(mark) !== at)
    return { kind: 'read', value: Number(t.split(mark).join('')), mark: other(mark) };
  const fraction = t.length - at - 1;
  if (fraction === 3 && couldGroup(t.slice(0, at))) return { kind: 'ambiguous', mark };
  return decimalAt(t, mark);
}

function other(mark: DecimalMark): DecimalMark {
  return mark === ',' ? '.' : ',';
}

/** `t` read with its last `mark` as the decimal mark, every other `,` and `.` as grouping. */
function decimalAt(t: string, mark: DecimalMark): Shape {
  const at = t.lastIndexOf(mark);
  const whole = t.slice(0, at).replace(/[.,]/g, '');
  const value = Number(`${whole}.${t.slice(at + 1)}`);
  return Number.isFinite(value) ? { kind: 'read', value, mark } : { kind: 'none' };
}

/**
 * The price `v` holds, its decimal mark read as above; an ambiguous one ("1,500") is read with
 * `decimal` as the decimal mark. Anything else (no digits) is null.
 */
export function parsePrice(v: string | null, decimal: DecimalMark = '.'): number | null {
  if (v === null) return null;
  const shape = shapeOf(v);
  if (shape.kind === 'none') return null;
  if (shape.kind === 'read') return shape.value;
  return ambiguousValue(v, shape.mark, decimal);
}

function ambiguousValue(v: string, mark: DecimalMark, decimal: DecimalMark): number {
  const t = NUMBER.exec(v)![0].replace(/[.,]+$/, '');
  return Number(mark === decimal ? t.replace(mark, '.') : t.replace(mark, ''));
}

const MAX_KEPT_WARNINGS = 100;

/**
 * The prices of one feed as they are read: which decimal mark those that tell use, and where the ones
 * that do not tell are. `settle` then decides the feed's mark and words a warning for each of those.
 */
export class PriceSurvey {
  private readonly seen = { ',': 0, '.': 0 };
  /** the first price that showed each mark, for the warnings to point at */
  private readonly example: Partial<Record<DecimalMark, { line: number; text: string }>> = {};
  private readonly ambiguous: Array<{ line: number; text: string; mark: DecimalMark }> = [];
  ambiguousCount = 0;

  /**
   * One product's price text (null: it has none); `number`: it was a JSON number, which always writes
   * its fraction after a "." and never groups thousands.
   */
  note(text: string | null, line: number, number = false): void {
    if (text === null) return;
    const shape: Shape = number
      ? { kind: 'read', value: Number(text), mark: text.includes('.') ? '.' : null }
      : shapeOf(text);
    if (shape.kind === 'read' && shape.mark !== null) {
      this.seen[shape.mark]++;
      this.example[shape.mark] ??= { line, text };
    } else if (shape.kind === 'ambiguous') {
      this.ambiguousCount++;
      if (this.ambiguous.length < MAX_KEPT_WARNINGS)
        this.ambiguous.push({ line, text, mark: shape.mark });
    }
  }

  /**
   * The feed's decimal mark: the one most of its telling prices use; with none (or as many of each),
   * `,` for a `;` or tab delimited file (the decimal-comma locales' spreadsheet exports), else `.`.
   */
  settle(delimiter: string | null, field: string): { decimal: DecimalMark; warnings: RowError[] } {
    const byFile = this.seen[','] !== this.seen['.'];
    const decimal: DecimalMark = byFile
      ? this.seen[','] > this.seen['.']
        ? ','
        : '.'
      : delimiter === ';' || delimiter === '\t'
        ? ','
        : '.';
    const why = byFile ? this.likeOthers(decimal) : byDelimiter(delimiter, this.seen[','] > 0);
    const warnings = this.ambiguous.map(({ line, text, mark }) => {
      const asDecimal = ambiguousValue(text, mark, mark);
      const asGrouped = ambiguousValue(text, mark, other(mark));
      const read = mark === decimal ? asDecimal : asGrouped;
      const role = mark === decimal ? 'the decimal mark' : 'a thousands separator';
      return {
        line,
        message: `${field} ${JSON.stringify(text)} could be ${asDecimal} or ${asGrouped}: read as ${read}, its "${mark}" taken as ${role} ${why}; write ${asDecimal} or ${asGrouped} (a "." decimal point, no thousands separator) to say which`,
      };
    });
    return { decimal, warnings };
  }

  private likeOthers(decimal: DecimalMark): string {
    const { line, text } = this.example[decimal]!;
    return `like most of the feed's prices that tell (line ${line}: ${JSON.stringify(text)})`;
  }
}

/** Why an ambiguous price was read as its file's delimiter suggests. */
function byDelimiter(delimiter: string | null, both: boolean): string {
  const file =
    delimiter === null
      ? 'a feed that is not ;- or tab-delimited'
      : `a ${delimiter === '\t' ? 'tab' : delimiter}-delimited file`;
  const others = both
    ? "the feed's other prices use both marks as often"
    : 'no other price in the feed tells';
  return `as ${delimiter === null ? 'usual for' : 'usual in'} ${file} (${others})`;
}
