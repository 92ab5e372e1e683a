// The pages of `check --format json`, as `JSON.stringify(jsonReport(…), null, 2)` writes them at depth 2 of
// that document: each page stringified compact where it is judged and encoded into a batch of bytes, then
// indented (json-indent.ts) in a worker thread when there are enough of them to pay for one, else on the
// event loop at the end.
import type { JsonIndenter } from './json-indent';

/** Pages in a row as compact UTF-8, and whether pages were written before them (then each opens with a comma). */
export interface IndentBatch {
  bytes: Uint8Array;
  /** where each page's bytes end */
  ends: number[];
  continues: boolean;
}

/** The indenting thread's start: the spool file and the place its bytes begin. */
export interface IndentData {
  file: string;
  offset: number;
}

/** A page is an element of `pages`, itself a value of the report: two levels in. */
const PAGE_DEPTH = 2;

export function indentPages(indenter: JsonIndenter, { bytes, ends, continues }: IndentBatch): void {
  let from = 0;
  for (let i = 0; i < ends.length; i++) {
    indenter.raw(continues || i > 0 ? ',\n    ' : '    ');
    indenter.bytes(bytes, from, ends[i]!, PAGE_DEPTH);
    from = ends[i]!;
  }
}

/**
 * Compact pages encoded one after the other into one buffer, grown as needed. Its memory is shared with the
 * indenting thread (a message copies nothing, and leaves no copy behind for that thread to collect) and is
 * filled again once the batch was written.
 */
export class PageBatch {
  private bytes: Buffer;
  private ends: number[] = [];
  private size = 0;

  constructor(private readonly capacity: number) {
    this.bytes = sharedBuffer(capacity);
  }

  /** bytes held */
  get length(): number {
    return this.size;
  }

  add(text: string): void {
    // UTF-8 is at most 3 bytes a UTF-16 unit
    if (this.size + text.length * 3 > this.bytes.length) {
      const grown = sharedBuffer(Math.max(this.bytes.length * 2, this.size + text.length * 3));
      this.bytes.copy(grown, 0, 0, this.size);
      this.bytes = grown;
    }
    this.size += this.bytes.write(text, this.size, 'utf8');
    this.ends.push(this.size);
  }

  /** The pages so far, handed over; the batch starts again on `memory` when given (a written batch's). */
  take(continues: boolean, memory?: Buffer): IndentBatch {
    const batch: IndentBatch = {
      bytes: this.bytes.subarray(0, this.size),
      ends: this.ends,
      continues,
    };
    this.bytes = memory ?? sharedBuffer(this.capacity);
    this.ends = [];
    this.size = 0;
    return batch;
  }

  get pages(): number {
    return this.ends.length;
  }

  /** The memory of a batch taken from here, once written: filled again by a later batch. */
  static memoryOf(batch: IndentBatch): Buffer {
    const { bytes } = batch;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.buffer.byteLength - bytes.byteOffset);
  }
}

function sharedBuffer(bytes: number): Buffer {
  return Buffer.from(new SharedArrayBuffer(bytes));
}
