// Older events kept compact. A sandbox kept running all day holds a million events; as objects (the
// event, its body's objects, its own strings) each cost ~700 bytes of heap, while the store reads an old
// one only when asked for it. So past the newest few thousand, the store keeps an event as its JSON line,
// deflated with 31 others (~45 bytes an event), beside what its filters and indexes read (seq, site,
// category, event, accepted, the three ids). Reading one back parses its line: a new object each time,
// equal to the event as it was stored (the answer of the real service it was forwarded to included).
// A block holds whole pages where it can (the store cuts them so, cold-blocks.ts), so reading one page back
// opens one or two. Why 32 or a little more: a deflate call costs the same however little it compresses
// (zlib's state is made and freed each time), a beacon pays its share of it, and opening a block costs
// more the bigger it is; 32 is where a beacon's share and an old page's read balance (the figures for 16,
// 32 and 64: docs/benchmarks.md, "Old events' block size").
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { RecordedEvent, UpstreamAnswer } from '../../shared/events';
import type { EventKeys } from './event-index';

/** Events deflated together, at least (see above). */
export const COLD_BLOCK = 32;

/** Blocks whose lines are kept after a read, the last this many: a list read in page order reopens none. */
const OPEN_BLOCKS = 128;

export class ColdBlock {
  constructor(readonly data: Buffer) {}
}

/**
 * What many events have in common (site, endpoint, verdict), kept once for all of them: a compact event
 * points to it, 88 bytes an event instead of 120 (a million kept events: 32 MB less).
 */
class ColdKind {
  constructor(
    readonly siteId: string,
    readonly category: string,
    readonly event: string,
    readonly accepted: boolean,
    readonly status: number,
  ) {}
}

/** The kinds made so far, by their fields; a store sees a few dozen (sites × endpoints × statuses). */
const kinds = new Map<string, ColdKind>();
/** More distinct kinds than this (statuses and sites are the user's): it starts again. */
const MAX_KINDS = 10_000;

function kindOf(e: RecordedEvent): ColdKind {
  const key = `${e.siteId}\u0000${e.category}\u0000${e.event}\u0000${e.accepted}\u0000${e.status}`;
  let kind = kinds.get(key);
  if (!kind) {
    if (kinds.size >= MAX_KINDS) kinds.clear();
    kind = new ColdKind(e.siteId, e.category, e.event, e.accepted, e.status);
    kinds.set(key, kind);
  }
  return kind;
}

export class ColdEvent {
  /** the real service's answer, when it came after the event went cold (or before: not in the line) */
  upstream: UpstreamAnswer | undefined;

  constructor(
    readonly seq: number,
    private readonly kind: ColdKind,
    readonly responseId: string | undefined,
    readonly pageLoadId: string | undefined,
    readonly sessionId: string | undefined,
    readonly block: ColdBlock,
    /** its line in the block */
    readonly line: number,
    upstream: UpstreamAnswer | undefined,
  ) {
    this.upstream = upstream;
  }

  get siteId(): string {
    return this.kind.siteId;
  }

  get category(): string {
    return this.kind.category;
  }

  get event(): string {
    return this.kind.event;
  }

  get accepted(): boolean {
    return this.kind.accepted;
  }

  get status(): number {
    return this.kind.status;
  }
}

/** The events (in the order they are given) as one block, and what the store keeps of each. */
export function freeze(
  events: readonly RecordedEvent[],
  keysOf: (e: RecordedEvent) => EventKeys,
  line: (e: RecordedEvent) => string,
): ColdEvent[] {
  const deflated = deflateRawSync(events.map(line).join('\n'), { level: 1 });
  // copied to its own size: zlib hands back a view of its 16 KiB output chunk (ten times the block)
  const block = new ColdBlock(Buffer.from(deflated));
  return events.map((e, i) => {
    const k = keysOf(e);
    return new ColdEvent(
      e.seq,
      kindOf(e),
      k.responseId,
      k.pageLoadId,
      k.sessionId,
      block,
      i,
      e.upstream,
    );
  });
}

/**
 * The event's line: its JSON without the real service's answer (kept beside it). JSON.stringify never writes
 * a raw line break, so lines split back exactly.
 */
export function lineOf(e: RecordedEvent): string {
  if (e.upstream === undefined) return JSON.stringify(e);
  const { upstream: _kept, ...rest } = e;
  return JSON.stringify(rest);
}

/** An inflated block, and where each of its lines ends (in bytes). */
interface OpenBlock {
  data: Buffer;
  ends: number[];
}

/**
 * Reads cold events back: a page's events for its rules and its view, a report's pages in page order, a
 * list of events or an export in seq order, a journal compaction. The blocks read last (`OPEN_BLOCKS`) are
 * kept inflated, as bytes outside V8's heap, so the pages browsed together reopen none; each line is made
 * a string when it is read, and dies young. A block's text kept as a string lived as long as the next
 * 128 blocks took to read: the young collections meanwhile copied it into the old generation, where it
 * died, leaving heap pages half empty after a report (docs/benchmarks.md, "What a report leaves").
 */
export class ColdReader {
  private readonly bytes = new Map<ColdBlock, OpenBlock>();

  read(c: ColdEvent): RecordedEvent {
    const event = JSON.parse(this.line(c)) as RecordedEvent;
    if (c.upstream !== undefined) event.upstream = c.upstream;
    return event;
  }

  /** Its JSON line as `JSON.stringify` of the event read back would write it. */
  text(c: ColdEvent): string {
    const line = this.line(c);
    return c.upstream === undefined
      ? line
      : `${line.slice(0, -1)},"upstream":${JSON.stringify(c.upstream)}}`;
  }

  forget(): void {
    this.bytes.clear();
  }

  /** Its line of its block, as stored (without the real service's answer). */
  private line(c: ColdEvent): string {
    const { data, ends } = opened(this.bytes, c.block);
    return data.toString('utf8', lineStart(ends, c.line), ends[c.line]);
  }
}

const lineStart = (ends: readonly number[], line: number) => (line === 0 ? 0 : ends[line - 1]! + 1);

/** The block from `open` (now the most recently used), inflated and kept there if it was not. */
function opened(open: Map<ColdBlock, OpenBlock>, block: ColdBlock): OpenBlock {
  let entry = open.get(block);
  if (entry) {
    // the most recently read last: the first is the one to forget
    open.delete(block);
  } else {
    const data = inflateRawSync(block.data);
    // '\n' is one byte in UTF-8, and no other character's bytes hold it
    const ends: number[] = [];
    for (let at = data.indexOf('\n'); at !== -1; at = data.indexOf('\n', at + 1)) ends.push(at);
    ends.push(data.length);
    entry = { data, ends };
    if (open.size >= OPEN_BLOCKS) open.delete(open.keys().next().value!);
  }
  open.set(block, entry);
  return entry;
}
