// The pages `check` judged and let go while its input streamed in, so that a later event for one is noted
// (the page is then judged in parts). Kept by the pageLoadId string the page already held — its responseIds'
// origins hold the same string — with its site, not by a page key built for it: a string less per page,
// and `check` remembers up to 250,000 of them. Two sites' pages with one pageLoadId share an entry.

export class ReleasedPages {
  private readonly sites = new Map<string, string | string[]>();
  private count = 0;

  /** how many pages are remembered */
  get size(): number {
    return this.count;
  }

  add(siteId: string, pageLoadId: string): void {
    const held = this.sites.get(pageLoadId);
    if (held === undefined) this.sites.set(pageLoadId, siteId);
    else if (held === siteId || (Array.isArray(held) && held.includes(siteId))) return;
    else this.sites.set(pageLoadId, Array.isArray(held) ? [...held, siteId] : [held, siteId]);
    this.count++;
  }

  has(siteId: string, pageLoadId: string): boolean {
    const held = this.sites.get(pageLoadId);
    return held === siteId || (Array.isArray(held) && held.includes(siteId));
  }

  /** Forget the first released (with the other sites' pages of their pageLoadId) while more than `max` are kept; how many went. */
  forgetOldest(max: number): number {
    let forgotten = 0;
    for (const [pageLoadId, held] of this.sites) {
      if (this.count <= max) break;
      const n = Array.isArray(held) ? held.length : 1;
      this.sites.delete(pageLoadId);
      this.count -= n;
      forgotten += n;
    }
    return forgotten;
  }
}
