// The engine's pages by pageLoadId and by sessionId, kept as pages come, change identity and go: one page
// (GET /_sandbox/timelines/:pageLoadId, the UI's page view) or one session's pages (?sessionId=) is found
// among a hundred thousand pages without reading each. A page is in one entry of each map; most
// pageLoadIds belong to one page, so that map holds the page itself, a list only when two sites share one.
import type { Page } from './page';
import { ChunkedMap } from '../../chunked';

export class PagesById {
  private readonly byPageLoad = new ChunkedMap<string, Page | Page[]>();
  private readonly bySession = new ChunkedMap<string, Set<Page>>();

  /**
   * The page of `pageLoadId` on the site; one `make` makes when there is none, entered here (one lookup of
   * the pageLoadId either way: every new page is a lookup that misses).
   */
  pageOrNew(siteId: string, pageLoadId: string, make: () => Page): Page {
    const held = this.byPageLoad.get(pageLoadId);
    if (held !== undefined && !Array.isArray(held) && held.siteId === siteId) return held;
    const found = Array.isArray(held) ? held.find((p) => p.siteId === siteId) : undefined;
    if (found) return found;
    const page = make();
    if (held === undefined) this.byPageLoad.setNew(pageLoadId, page);
    else if (Array.isArray(held)) held.push(page);
    else this.byPageLoad.set(pageLoadId, [held, page]);
    this.enterSession(page);
    return page;
  }

  /** The page of `pageLoadId` on the site, if there is one (no key built: the event's own string). */
  page(siteId: string, pageLoadId: string): Page | undefined {
    const held = this.byPageLoad.get(pageLoadId);
    if (held === undefined) return undefined;
    if (!Array.isArray(held)) return held.siteId === siteId ? held : undefined;
    return held.find((p) => p.siteId === siteId);
  }

  /** The page's sessionId changed (its first accepted event names it). */
  sessionChanged(page: Page, from: string): void {
    this.leaveSession(page, from);
    this.enterSession(page);
  }

  /** Every page was forgotten. */
  clear(): void {
    this.byPageLoad.clear();
    this.bySession.clear();
  }

  removed(page: Page): void {
    // the page removed is mostly among the oldest (retention forgets them, `check` releases them)
    const held = this.byPageLoad.getOld(page.pageLoadId);
    if (held === page) this.byPageLoad.delete(page.pageLoadId);
    else if (Array.isArray(held)) {
      const rest = held.filter((p) => p !== page);
      if (rest.length === 0) this.byPageLoad.delete(page.pageLoadId);
      else this.byPageLoad.set(page.pageLoadId, rest.length === 1 ? rest[0]! : rest);
    }
    this.leaveSession(page, page.sessionId);
  }

  /**
   * The pages a filter by pageLoadId or sessionId can match, in page order; undefined when it names
   * neither (every page can match). The caller still applies the whole filter to each.
   */
  candidates(filter: { pageLoadId?: string; sessionId?: string }): Page[] | undefined {
    let pages: Page[];
    if (filter.pageLoadId !== undefined) {
      const held = this.byPageLoad.get(filter.pageLoadId);
      pages = held === undefined ? [] : Array.isArray(held) ? [...held] : [held];
    } else if (filter.sessionId !== undefined)
      pages = [...(this.bySession.get(filter.sessionId) ?? [])];
    else return undefined;
    return pages.sort((a, b) => a.order - b.order);
  }

  private enterSession(page: Page): void {
    let set = this.bySession.get(page.sessionId);
    if (!set) this.bySession.setNew(page.sessionId, (set = new Set()));
    set.add(page);
  }

  private leaveSession(page: Page, sessionId: string): void {
    const set = this.bySession.get(sessionId);
    if (!set?.delete(page)) return;
    if (set.size === 0) this.bySession.delete(sessionId);
  }
}
