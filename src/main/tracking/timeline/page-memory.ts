// Page memory: a quiet page of the live sandbox lets its events go (the store keeps them) and reads them
// back whenever something reads them — its rules run again, its DTO, a free-text or event filter. A store
// of a million events then holds each once, not also as the rules' copy.
import type { RecordedEvent } from '../../../shared/events';
import type { RequestFields } from '../../store/types';
import { isTimelineEndpoint } from '../../../shared/kinds';
import {
  insertSorted,
  isRefusal,
  readEvent,
  responseKey,
  type PageState,
  type TimelineEvent,
} from './model';
import { keepLetGoSummary } from './page-state';
import { isVisitEndpoint } from '../visits/events';

/** The store's events of one page, for pages that let theirs go (the live sandbox: the event store). */
export interface PageRecords {
  /** its events, oldest first */
  records(siteId: string, pageLoadId: string): Iterable<RecordedEvent>;
  /** how many of them pass `test`, none read back (a page is counted before it lets its events go) */
  count(siteId: string, pageLoadId: string, test: (e: RequestFields) => boolean): number;
}

/**
 * What the engine makes of a request on its page: a visit event, an event of one of its responses, a
 * refused request (404, 405, 413, 415: counted on its page even when its path names no endpoint), or
 * nothing. Every one of the three counts among the page's arrivals.
 */
export function foldAs(rec: RequestFields): 'visit' | 'response' | 'refused' | null {
  if (isVisitEndpoint(rec.category, rec.event)) return 'visit';
  if (isTimelineEndpoint(rec.category, rec.event)) return 'response';
  return isRefusal(rec) ? 'refused' : null;
}

export class PageMemory {
  /** released pages whose events are back for a read (`withEvents`): none is let go meanwhile */
  private readonly reading = new Set<PageState>();

  /** `records` absent: pages always hold their events (offline input, tests) */
  constructor(private readonly records: PageRecords | undefined) {}

  /**
   * `read` with the page's events in place: a page that let them go reads them back from the store, and
   * lets them go again after (it is still judged and idle).
   */
  withEvents<T>(page: PageState, read: () => T): T {
    if (this.reading.has(page)) return read();
    // held for the read either way: a page judged as finished (asFinished) lets nothing go mid-read
    if (page.released) this.readBack(page);
    this.reading.add(page);
    try {
      return read();
    } finally {
      this.reading.delete(page);
      if (page.released) dropEvents(page);
    }
  }

  /**
   * A quiet page lets its events go when the store gives back the same events: as many of them as it
   * applied, in the order it applied them.
   */
  letGo(page: PageState): void {
    const records = this.records;
    if (!records || page.released || page.holdsEvents || this.reading.has(page)) return;
    const stored = records.count(page.siteId, page.pageLoadId, (e) => foldAs(e) !== null);
    // more stored than applied: the store is being replayed into the engine, the rest is yet to come
    if (stored > page.arrivals) return;
    if (stored < page.arrivals) {
      page.holdsEvents = true;
      return;
    }
    keepLetGoSummary(page);
    dropEvents(page);
    page.released = true;
  }

  /** The page's events as `apply` made them, from its first `arrivals` records in the store. */
  readBack(page: PageState): void {
    for (const r of page.responses.values()) r.events = [];
    page.autocompleteRenders = [];
    let arrivals = 0;
    let maxTime = -Infinity;
    for (const rec of this.records!.records(page.siteId, page.pageLoadId)) {
      if (arrivals === page.arrivals) break;
      const folded = foldAs(rec);
      if (folded === null) continue;
      const ev = readEvent(rec);
      ev.arrival = ++arrivals;
      ev.arrivedLate = ev.time < maxTime;
      if (ev.time > maxTime) maxTime = ev.time;
      if (folded !== 'response') continue;
      const r = page.responses.get(responseKey(ev.kind, ev.tag, ev.responseId));
      if (!r) continue;
      insertSorted(r.events, ev);
      if (ev.accepted && ev.event === 'render' && ev.kind === 'autocomplete')
        insertSorted(page.autocompleteRenders, ev);
    }
  }
}

/** Let a page's events go (they are read back from the store when read): shared empty lists. */
function dropEvents(page: PageState): void {
  for (const r of page.responses.values()) {
    r.events = LET_GO;
    r.dropFacts();
  }
  page.autocompleteRenders = LET_GO;
}

/** The lists of a page that let its events go: frozen, so a write that forgot to read them back throws. */
const LET_GO = Object.freeze([]) as unknown as TimelineEvent[];
