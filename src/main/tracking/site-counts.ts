// How many of something (pages, visits) each site holds, kept as they come and go: a reset of one site
// that holds them all can empty everything at once rather than go through them one by one.

export class SiteCounts {
  private readonly bySite = new Map<string, number>();

  added(siteId: string): void {
    this.bySite.set(siteId, (this.bySite.get(siteId) ?? 0) + 1);
  }

  removed(siteId: string): void {
    const left = (this.bySite.get(siteId) ?? 1) - 1;
    if (left > 0) this.bySite.set(siteId, left);
    else this.bySite.delete(siteId);
  }

  /** Does `siteId` hold every one of the `total` there are? */
  holdsAll(siteId: string, total: number): boolean {
    return this.bySite.get(siteId) === total;
  }

  clear(): void {
    this.bySite.clear();
  }
}
