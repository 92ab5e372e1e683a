// Older events kept compact. A sandbox kept running all day holds a million events; as objects (the
// event, its body's objects, its own strings) each cost ~700 bytes of heap, while the store reads an old
// one only when asked for it. So past the newest few thousand, the store keeps an event as its JSON line,
// deflated with 15 others (~80 bytes an event), beside what its filters and indexes read (seq, site,
// category, event, accepted, the three ids). Reading one back parses its line: a new object each time,
// equal to the event as it was stored (the answer of the real service it was forwarded to included).
// Why 16: a page's events are spread over the blocks of the pages browsed at the same time, so reading one
// page back opens about as many blocks as it has events. Measured on bench events (830-byte lines): 16 to
// a block, 81 bytes an event and ~25 µs to open one; 128, 58 bytes but ~200 µs (a session's 33 pages read
// back took 100 ms).
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { RecordedEvent, UpstreamAnswer } from '../../shared/events';
import type { EventKeys } from './event-index';

/** Events deflated together (see above). */
export const COLD_BLOCK = 16;

/** Blocks whose lines are kept after a read, the last this many: a list read in page order reopens none. */
const OPEN_BLOCKS = 128;

export class ColdBlock {
  constructor(readonly data: Buffer) {}
}

export class ColdEvent {
  /** the real service's answer, when it came after the event went cold (or before: not in the line) */
  upstream: UpstreamAnswer | undefined;

  constructor(
    readonly seq: number,
    readonly siteId: string,
    readonly category: string,
    readonly event: string,
    readonly accepted: boolean,
    readonly status: number,
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
}

/** The events (in seq order) as one block, and what the store keeps of each. */
export function freeze(
  events: readonly RecordedEvent[],
  keysOf: (e: RecordedEvent) => EventKeys,
): ColdEvent[] {
  const deflated = deflateRawSync(events.map(lineOf).join('\n'), { level: 1 });
  // copied to its own size: zlib hands back a view of its 16 KiB output chunk (ten times the block)
  const block = new ColdBlock(Buffer.from(deflated));
  return events.map((e, i) => {
    const k = keysOf(e);
    return new ColdEvent(
      e.seq,
      e.siteId,
      e.category,
      e.event,
      e.accepted,
      e.status,
      k.responseId,
      k.pageLoadId,
      k.sessionId,
      block,
      i,
      e.upstream,
    );
  });
}

/** JSON.stringify never writes a raw line break, so lines split back exactly. */
function lineOf(e: RecordedEvent): string {
  if (e.upstream === undefined) return JSON.stringify(e);
  const { upstream: _kept, ...rest } = e;
  return JSON.stringify(rest);
}

/** A block inflated: its bytes (outside V8's heap) and where each line ends. */
interface OpenBlock {
  bytes: Buffer;
  ends: number[];
}

/**
 * Reads cold events back, keeping the blocks it read last inflated. Kept as bytes, each line made a string
 * only when it is read: a list of 100,000 old events read in order used to keep the split lines of the
 * last 128 blocks, which lived long enough to be copied by every young-generation collection and promoted
 * (a 20 ms pause every 40 ms while the list was written); a string per read dies young.
 */
export class ColdReader {
  private readonly open = new Map<ColdBlock, OpenBlock>();

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
    this.open.clear();
  }

  private line(c: ColdEvent): string {
    const { bytes, ends } = this.block(c.block);
    return bytes.toString('utf8', c.line === 0 ? 0 : ends[c.line - 1]! + 1, ends[c.line]);
  }

  private block(block: ColdBlock): OpenBlock {
    let open = this.open.get(block);
    if (open) {
      // the most recently read last: the first is the one to forget
      this.open.delete(block);
    } else {
      const bytes = inflateRawSync(block.data);
      const ends: number[] = [];
      for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) ends.push(at);
      ends.push(bytes.length);
      open = { bytes, ends };
      if (this.open.size >= OPEN_BLOCKS) this.open.delete(this.open.keys().next().value!);
    }
    this.open.set(block, open);
    return open;
  }
}
