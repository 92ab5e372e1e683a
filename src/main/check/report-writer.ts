// `check`'s reports written as pages are judged, in bounded memory. Text goes out page by page; JSON and
// JUnit open with totals, so their pages wait in a spool file (one temporary file, removed at the end)
// and follow the head when the input has ended. The bytes are those of the whole-report functions.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { PageTimelineDto, PageVerdictDto, Verdict } from '../../shared/timeline';
import {
  fails,
  JUNIT_END,
  JUNIT_SUITE_END,
  jsonReport,
  junitCase,
  JunitSuites,
  textPage,
  textSummary,
  type FailOn,
} from '../tracking/timeline/report';
import { WiderScope } from '../tracking/timeline/wider-scope';
import type { UnverifiedDto } from '../../shared/readiness';
import { JunitNames, pageIdentity, type CaseIdentity } from '../tracking/timeline/junit-names';
import { pageVerdictDto } from '../tracking/timeline/dto';
import type { Page } from '../tracking/timeline/page';

/** A report written as pages are judged; `P` is what it reads of a page (JSON: all of it; text, JUnit: its verdict). */
export interface ReportWriter<P extends PageVerdictDto> {
  /** what a judged page is handed to `page` as, when the writer says (the judge's default else) */
  pageOf?: (page: Page) => P;
  page: (p: P) => void;
  /** the input ended: the rest of the report */
  end(): void;
  /** was a page at or above --fail-on? */
  readonly failed: boolean;
  /** remove the spool (also after an error) */
  dispose(): void;
}

export interface ReportOptions {
  format: 'text' | 'json' | 'junit';
  out: (text: string) => void;
  /**
   * Bytes of the report as they are (UTF-8), when the caller can take them (stdout): the spooled pages go
   * out as read back, not decoded into strings and encoded again (a million events: ~900 MB of JSON).
   * It returns true when it is done with `bytes` (written out, not kept): the buffer is then read into again.
   */
  outBytes?: (bytes: Uint8Array) => boolean | void;
  source: string;
  now: number;
  failOn: FailOn;
  /** the rules that could not judge the input (json: `unjudged`), asked once the input has ended */
  unjudged?: () => UnverifiedDto[];
}

/** Output collected into writes of about this size: a line per write costs more than the report. */
const CHUNK = 1 << 16;

class Chunked {
  private parts: string[] = [];
  private size = 0;
  constructor(private readonly out: (text: string) => void) {}
  write(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= CHUNK) this.flush();
  }
  flush(): void {
    if (this.size === 0) return;
    this.out(this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }
}

/** Pieces of text kept in a temporary file, read back by their place (offset, length in bytes). */
class Spool {
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'search-sandbox-check-'));
  private readonly fd = openSync(path.join(this.dir, 'pages'), 'w+', 0o600);
  private at = 0;
  /** texts are encoded into this one buffer and written when it is full: no buffer made per page */
  private readonly pending = Buffer.allocUnsafe(CHUNK * 2);
  private pendingSize = 0;

  /** Append `text`; returns where it went. */
  add(text: string): { offset: number; length: number } {
    const offset = this.at;
    this.append(text);
    return { offset, length: this.at - offset };
  }

  /** Append `text` where nobody asks for its place again (the JSON report is read back whole). */
  append(text: string): void {
    this.at += this.write(text);
  }

  /** Bytes written: encoded straight into `pending` when it surely fits (UTF-8 is at most 3 bytes a UTF-16 unit). */
  private write(text: string): number {
    const room = this.pending.length - this.pendingSize;
    if (text.length * 3 > room) {
      this.flush();
      if (text.length * 3 > this.pending.length) {
        const bytes = Buffer.from(text, 'utf8');
        writeAll(this.fd, bytes);
        return bytes.length;
      }
    }
    const n = this.pending.write(text, this.pendingSize, 'utf8');
    this.pendingSize += n;
    return n;
  }

  /**
   * The `length` bytes from `offset` to `take`, in pieces of about 4 × CHUNK. `take` says whether it is done
   * with a piece when it returns: then the next is read into the same buffer, else into a new one (an
   * asynchronous write keeps what it was given). A buffer per piece of ~900 MB of report is external memory
   * that only a full collection of the heap gives back: a dozen of them at the end of a million events.
   */
  private pieces(offset: number, length: number, take: (piece: Buffer) => boolean): void {
    this.flush();
    let buf: Buffer | null = null;
    for (let done = 0; done < length;) {
      buf ??= Buffer.allocUnsafe(Math.min(CHUNK * 4, length - done));
      const n = readSync(this.fd, buf, 0, Math.min(buf.length, length - done), offset + done);
      if (n === 0) break;
      done += n;
      if (!take(n === buf.length ? buf : buf.subarray(0, n))) buf = null;
    }
  }

  /** The same pieces to `out`: as bytes when it takes them, else as text decoded across their borders. */
  copy(offset: number, length: number, o: ReportOptions): void {
    const { outBytes } = o;
    if (outBytes) {
      this.pieces(offset, length, (piece) => outBytes(piece) === true);
      return;
    }
    const decoder = new StringDecoder('utf8');
    this.pieces(offset, length, (piece) => {
      o.out(decoder.write(piece));
      return true;
    });
    const rest = decoder.end();
    if (rest) o.out(rest);
  }

  private flush(): void {
    if (this.pendingSize === 0) return;
    writeAll(this.fd, this.pending.subarray(0, this.pendingSize));
    this.pendingSize = 0;
  }

  dispose(): void {
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done);
}

/** What every format shares: the verdicts counted, failure against --fail-on, the output in chunks. */
abstract class CountingWriter<P extends PageVerdictDto> implements ReportWriter<P> {
  protected readonly verdicts: Record<Verdict, number> = { pass: 0, warn: 0, fail: 0 };
  failed = false;
  protected readonly chunks: Chunked;
  /** a finding about the whole session or site is written on its first page only */
  protected readonly widerScope = new WiderScope();
  constructor(protected readonly o: ReportOptions) {
    this.chunks = new Chunked(o.out);
  }
  page(p: P): void {
    this.verdicts[p.verdict]++;
    if (fails(p, this.o.failOn)) this.failed = true;
    this.add(p);
  }
  protected abstract add(p: P): void;
  abstract end(): void;
  dispose(): void {}
}

/**
 * What `check`'s text says where a page's (or a site's) events named no site: bare beacon bodies, whose
 * lines say nothing of the endpoint they were sent to, are the usual cause.
 */
export const NO_SITE = '(no siteId: a line names its site with a "siteId" or "path" field)';

class TextWriter extends CountingWriter<PageVerdictDto> {
  protected add(p: PageVerdictDto): void {
    const { page, elsewhere } = this.widerScope.shown(p);
    this.chunks.write(textPage(page, elsewhere, NO_SITE));
  }
  end(): void {
    this.chunks.write(textSummary(this.verdicts));
    this.chunks.flush();
  }
}

/** `JSON.stringify(jsonReport(…), null, 2)`: each page as it stands at depth 2 of that document. */
class JsonWriter extends CountingWriter<PageTimelineDto> {
  private readonly spool = new Spool();
  private pages = 0;
  protected add(p: PageTimelineDto): void {
    // the page written at depth 2 by JSON.stringify itself (its wrapping `[\n  [\n    ` and `\n  ]\n]` cut
    // off): the same text as indenting a stringified page afterwards, without a second pass over it
    this.spool.append(this.pages++ ? ',\n    ' : '    ');
    this.spool.append(JSON.stringify([[p]], null, 2).slice(10, -6));
  }
  end(): void {
    // the report's keys in their order, `pages` last and still empty: opened here, filled from the spool
    const unjudged = this.o.unjudged?.() ?? [];
    const head = {
      ...jsonReport([], this.o.source, this.o.now, unjudged),
      verdicts: this.verdicts,
    };
    const open = JSON.stringify(head, null, 2).replace(/"pages": \[\]\n\}$/, '"pages": [');
    if (this.pages === 0) {
      this.chunks.write(`${open}]\n}\n`);
    } else {
      this.chunks.write(`${open}\n`);
      this.chunks.flush();
      this.spool.copy(0, Number.MAX_SAFE_INTEGER, this.o);
      this.chunks.write('\n  ]\n}\n');
    }
    this.chunks.flush();
  }
  override dispose(): void {
    this.spool.dispose();
  }
}

/** JUnit groups test cases by site: each case goes to the spool, and each site keeps its places. */
class JunitWriter extends CountingWriter<PageVerdictDto> {
  private readonly spool = new Spool();
  private readonly suites: JunitSuites<{ offset: number; length: number }>;
  private readonly names = new JunitNames();
  /** each verdict's case names, read from its page as it was handed over (a verdict holds no events) */
  private readonly identities = new WeakMap<PageVerdictDto, CaseIdentity>();
  constructor(o: ReportOptions) {
    super(o);
    this.suites = new JunitSuites(o.failOn);
  }
  readonly pageOf = (page: Page): PageVerdictDto => {
    const dto = pageVerdictDto(page);
    this.identities.set(dto, pageIdentity(page));
    return dto;
  };
  protected add(p: PageVerdictDto): void {
    const { page, elsewhere } = this.widerScope.shown(p);
    const named = this.identities.get(p);
    const place = this.spool.add(junitCase(page, this.o.failOn, elsewhere, this.names, named));
    this.suites.add(p.siteId, page.findings, place);
  }
  end(): void {
    this.chunks.write(this.suites.head(this.o.source, this.o.now));
    for (const suite of this.suites.suites()) {
      this.chunks.write(suite.head);
      this.chunks.flush();
      // consecutive cases of one site are copied as one piece
      let from = 0;
      let length = 0;
      for (const place of suite.cases) {
        if (length > 0 && from + length === place.offset) length += place.length;
        else {
          if (length > 0) this.spool.copy(from, length, this.o);
          ({ offset: from, length } = place);
        }
      }
      if (length > 0) this.spool.copy(from, length, this.o);
      this.chunks.write(JUNIT_SUITE_END);
    }
    this.chunks.write(JUNIT_END);
    this.chunks.flush();
  }
  override dispose(): void {
    this.spool.dispose();
  }
}

/** The JSON report writes every page whole; text and JUnit write each page's verdict (no events). */
export function reportWriter(o: ReportOptions & { format: 'json' }): ReportWriter<PageTimelineDto>;
export function reportWriter(
  o: ReportOptions & { format: 'text' | 'junit' },
): ReportWriter<PageVerdictDto>;
export function reportWriter(
  o: ReportOptions,
): ReportWriter<PageTimelineDto> | ReportWriter<PageVerdictDto> {
  if (o.format === 'json') return new JsonWriter(o);
  if (o.format === 'junit') return new JunitWriter(o);
  return new TextWriter(o);
}
