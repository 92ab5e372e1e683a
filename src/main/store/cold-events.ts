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

/** Blocks kept after a list in seq order read them, the last this many: such a list reopens none. */
const SEQ_BLOCKS = 128;
/**
 * Blocks kept after a page's events were read back, the last this many: a page's events are mostly in one
 * block, which holds the pages that came with it, so pages read in their order reopen few. Kept longer,
 * what keeps them (each block's entry and line ends) outlived two young collections and was promoted.
 */
const PAGE_BLOCKS = 16;

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
  block: ColdBlock;
  data: Buffer;
  ends: number[];
}

/**
 * Reads cold events back: a page's events for its rules and its view, a report's pages in page order, a
 * list of events or an export in seq order, a journal compaction. The blocks read last are kept inflated,
 * as bytes outside V8's heap, so what is read together reopens few (PAGE_BLOCKS, SEQ_BLOCKS); each line
 * is made a string when it is read, and dies young. A block's text kept as a string lived as long as the
 * next 128 blocks took to read: the young collections meanwhile copied it into the old generation, where
 * it died, leaving heap pages half empty after a report (docs/benchmarks.md, "What a report leaves").
 */
export class ColdReader {
  /** the blocks pages were read back from last */
  private readonly pageBlocks = new OpenBlocks(PAGE_BLOCKS);
  /** the blocks lists and exports in seq order read last */
  private readonly seqBlocks = new OpenBlocks(SEQ_BLOCKS);

  /** The event, for a page's events read back (its rules, its view, a report). */
  read(c: ColdEvent): RecordedEvent {
    const event = JSON.parse(line(this.pageBlocks.of(c.block), c)) as RecordedEvent;
    if (c.upstream !== undefined) event.upstream = c.upstream;
    return event;
  }

  /** Its JSON line as `JSON.stringify` of the event read back would write it (lists, exports). */
  text(c: ColdEvent): string {
    const text = line(this.seqBlocks.of(c.block), c);
    return c.upstream === undefined
      ? text
      : `${text.slice(0, -1)},"upstream":${JSON.stringify(c.upstream)}}`;
  }

  forget(): void {
    this.pageBlocks.clear();
    this.seqBlocks.clear();
  }
}

/** The event's line of its open block, as stored (without the real service's answer). */
function line({ data, ends }: OpenBlock, c: ColdEvent): string {
  return data.toString('utf8', lineStart(ends, c.line), ends[c.line]);
}

const lineStart = (ends: readonly number[], line: number) => (line === 0 ? 0 : ends[line - 1]! + 1);

/**
 * The blocks read last, inflated, the most recent last, at most `keep`: a list searched from its end (what
 * is read together opens the same few), not a Map, whose deletes and sets build its table again now and
 * then (those tables outlived young collections and were promoted).
 */
class OpenBlocks {
  private readonly list: OpenBlock[] = [];

  constructor(private readonly keep: number) {}

  /** The block inflated, now the most recently used: kept if it was, inflated if not. */
  of(block: ColdBlock): OpenBlock {
    const list = this.list;
    for (let i = list.length - 1; i >= 0; i--) {
      const open = list[i]!;
      if (open.block !== block) continue;
      if (i !== list.length - 1) list.push(list.splice(i, 1)[0]!);
      return open;
    }
    const data = inflateRawSync(block.data);
    // '\n' is one byte in UTF-8, and no other character's bytes hold it
    const ends: number[] = [];
    for (let at = data.indexOf('\n'); at !== -1; at = data.indexOf('\n', at + 1)) ends.push(at);
    ends.push(data.length);
    if (list.length >= this.keep) list.shift();
    const open = { block, data, ends };
    list.push(open);
    return open;
  }

  clear(): void {
    this.list.length = 0;
  }
}
