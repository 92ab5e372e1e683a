// The pages an engine holds, in the order they were created: by key, by pageLoadId and session (one page,
// one session's pages), counted per site, in the verdict index while they are held. A page is made for the
// first event of its pageLoadId on its site and forgotten by the trim, a reset, a store's retention or
// `check`'s release.
import { ChunkedMap } from '../../chunked';
import { SiteCounts } from '../site-counts';
import { pageKey, type TimelineEvent } from './model';
import { Page } from './page';
import { PagesById } from './pages-by-id';
import type { VerdictIndex } from './verdict-index';

export class HeldPages {
  /**
   * in the order they were made, by that order (`Page.order`): a number, not the page's key, which is a
   * string built for each page and hashed by the Map as it goes in
   */
  private readonly pages = new ChunkedMap<number, Page>();
  /** pages per siteId: a reset of the one site that holds every page empties everything at once */
  private readonly sites = new SiteCounts();
  /** pages by pageLoadId and by sessionId */
  readonly byId = new PagesById();
  /** pages created so far (a new page's place in page order) */
  private created = 0;
  /** the events on the pages held (the trim's measure) */
  private events = 0;

  constructor(private readonly index: VerdictIndex | undefined) {}

  get size(): number {
    return this.pages.size;
  }

  /** how many events the pages held got */
  get eventCount(): number {
    return this.events;
  }

  /** The page of a key (`pageKey`): siteId and pageLoadId, split where the key is the page's. */
  get(key: string): Page | undefined {
    for (let at = key.indexOf('\u0000'); at >= 0; at = key.indexOf('\u0000', at + 1)) {
      const page = this.byId.page(key.slice(0, at), key.slice(at + 1));
      if (page?.key === key) return page;
    }
    return undefined;
  }

  /** Is this page (not another of its key made since) still held? */
  holds(page: Page): boolean {
    return this.pages.get(page.order) === page;
  }

  values(): IterableIterator<Page> {
    return this.pages.values();
  }

  /** The newest `n` pages, oldest first. */
  lastValues(n: number): Page[] {
    return this.pages.lastValues(n);
  }

  /** The oldest page held. */
  oldest(): Page | undefined {
    return this.pages.oldest()?.[1];
  }

  /**
   * The page of the event, made when it is its pageLoadId's first on the site (it has no arrivals yet),
   * with its identity taken from its first accepted event. The event is counted among the held ones.
   */
  pageOf(siteId: string, ev: TimelineEvent): Page {
    // found by the event's own pageLoadId: a page key is built only for a new page
    const page = this.byId.pageOrNew(siteId, ev.pageLoadId, () => {
      const key = pageKey(siteId, ev.pageLoadId);
      const made = new Page(key, siteId, ev, this.created++);
      // none of the key: the lookup, kept with the pages, has none of its pageLoadId on the site
      this.pages.setNew(made.order, made);
      this.sites.added(siteId);
      return made;
    });
    const was = page.adoptIdentity(ev);
    if (was !== undefined) this.byId.sessionChanged(page, was);
    this.events++;
    return page;
  }

  /** A later part of a page `check` let go of takes the sessionId of its earlier part (`Page.rejoin`). */
  rejoined(page: Page, sessionId: string): void {
    const was = page.rejoin(sessionId);
    if (was !== sessionId) this.byId.sessionChanged(page, was);
  }

  /** The page goes, from the index too. */
  forget(page: Page): void {
    this.pages.delete(page.order);
    this.sites.removed(page.siteId);
    this.index?.removed(page);
    this.byId.removed(page);
    this.events -= page.arrivals;
  }

  /** Every page goes, or those of one site. */
  clear(siteId?: string): void {
    if (siteId === undefined || this.sites.holdsAll(siteId, this.pages.size)) {
      // every page goes: the collections are emptied at once, not page by page (a million events hold
      // ~100,000 pages: forgetting them one at a time held the event loop ~0.7 s)
      this.pages.clear();
      this.sites.clear();
      this.index?.clear();
      this.byId.clear();
      this.events = 0;
      return;
    }
    for (const page of this.pages.values()) if (page.siteId === siteId) this.forget(page);
  }
}
