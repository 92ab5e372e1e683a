// Which events go cold together (the store keeps older events compact in blocks, cold-events.ts): the oldest
// event held as it came, with the other events of its page held as they came that follow it closely, then
// those of the next oldest event's page, until the block holds `COLD_BLOCK` or more. Pages browsed at the
// same time interleave their events, so blocks cut in seq order put a page's events in as many blocks as it
// has events, and reading one page back opened them all (a session's 33 pages: ~330 blocks inflated). Kept
// by page, one or two.
import type { RecordedEvent } from '../../shared/events';
import { COLD_BLOCK, ColdEvent } from './cold-events';
import { keysOf, type SeqList } from './event-index';
import type { Entry } from './event-snapshot';

/**
 * How far (in seqs) past the oldest event held as it came a block reaches for that event's page. A list in
 * seq order then finds the events near any point in the blocks cut from the ~`PAGE_REACH` events around it
 * (~100 blocks, within the reader's 128 kept open), so exports and lists reopen none; and the 100 pages
 * the store bench interleaves (a page's 10 events spread over ~900 seqs) each go cold in one block.
 */
const PAGE_REACH = 1_024;

/**
 * The next block to make cold from `events` (seq order), every entry before `from` being cold: its events,
 * and where the first entry held as it came now is (what `from` is next time). No events: none is held.
 */
export function nextColdBlock(
  events: SeqList<Entry>,
  from: number,
  pageEvents: (pageLoadId: string) => SeqList<Entry> | undefined,
): { events: RecordedEvent[]; from: number } {
  while (from < events.length && events.at(from) instanceof ColdEvent) from++;
  const first = events.at(from);
  if (first === undefined) return { events: [], from };
  const reach = first.seq + PAGE_REACH;
  // (a few dozen at most: a list is searched faster than a set is made)
  const hot: RecordedEvent[] = [];
  for (let i = from; hot.length < COLD_BLOCK && i < events.length; i++) {
    const e = events.at(i);
    if (!(e instanceof ColdEvent) && !hot.includes(e)) takePage(e, reach, hot, pageEvents);
  }
  return { events: hot, from };
}

/** `e`, then the events of its page (its site's, held as they came) after it with a seq below `reach`. */
function takePage(
  e: RecordedEvent,
  reach: number,
  taken: RecordedEvent[],
  pageEvents: (pageLoadId: string) => SeqList<Entry> | undefined,
): void {
  taken.push(e);
  const { pageLoadId } = keysOf(e);
  // a page of one event so far (most pages, when each beacon is a page of its own): nothing to add
  const page = pageLoadId === undefined ? undefined : pageEvents(pageLoadId);
  if (!page) return;
  const most = taken.length - 1 + COLD_BLOCK;
  for (let i = page.indexAfter(e.seq); i < page.length && taken.length < most; i++) {
    const next = page.at(i);
    if (next.seq >= reach) break;
    if (!(next instanceof ColdEvent) && next.siteId === e.siteId) taken.push(next);
  }
}
