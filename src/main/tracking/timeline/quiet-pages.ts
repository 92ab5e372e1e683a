// Quiet pages of the live sandbox let their events go (the store keeps them) and read them back whenever
// something reads them — its rules run again, its DTO, a free-text or event filter. A store of a million
// events then holds each once, not also as the rules' copy.
import type { RecordedEvent } from '../../../shared/events';
import type { RequestFields } from '../../store/types';
import { foldAs, readEvent } from './model';
import type { Page } from './page';

/** The store's events of one page, for pages that let theirs go (the live sandbox: the event store). */
export interface PageRecords {
  /** its events, oldest first */
  records(siteId: string, pageLoadId: string): Iterable<RecordedEvent>;
  /** how many of them pass `test`, none read back (a page is counted before it lets its events go) */
  count(siteId: string, pageLoadId: string, test: (e: RequestFields) => boolean): number;
}

export class QuietPages {
  /** pages whose let-go events are back for a read (`withEvents`): none is let go meanwhile */
  private readonly reading = new Set<Page>();

  /** `records` absent: pages always hold their events (offline input, tests) */
  constructor(private readonly records: PageRecords | undefined) {}

  /**
   * `read` with the page's events in place: a page that let them go reads them back from the store, and
   * lets them go again after (it is still judged and idle).
   */
  withEvents<T>(page: Page, read: () => T): T {
    if (this.reading.has(page)) return read();
    // held for the read either way: a page judged as finished (asFinished) lets nothing go mid-read
    if (page.eventsLetGo) this.readBack(page);
    this.reading.add(page);
    try {
      return read();
    } finally {
      this.reading.delete(page);
      if (page.eventsLetGo) page.dropEvents();
    }
  }

  /**
   * A quiet page lets its events go when the store gives back the same events: as many of them as it
   * applied, in the order it applied them.
   */
  letGo(page: Page): void {
    const records = this.records;
    if (!records || page.eventsLetGo || page.holdsEvents || this.reading.has(page)) return;
    const stored = records.count(page.siteId, page.pageLoadId, (e) => foldAs(e) !== null);
    // more stored than applied: the store is being replayed into the engine, the rest is yet to come
    if (stored > page.arrivals) return;
    if (stored < page.arrivals) page.keepEvents();
    else page.letEventsGo();
  }

  /** A late event for a page that let its events go: they are taken back for good (it is live again). */
  takeBack(page: Page): void {
    this.readBack(page);
    page.tookBack();
  }

  /** The page's events as `apply` made them, from its first `arrivals` records in the store. */
  private readBack(page: Page): void {
    page.emptyEvents();
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
      if (folded === 'response') page.putBack(ev);
    }
  }
}
