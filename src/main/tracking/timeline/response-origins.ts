// Where each responseId was first seen, per site: the first page of any kind (responseid-cross-kind) and
// the first of each kind (responseid-reused). Kept for every responseId of the traffic, so it is kept
// small: one map keyed by the responseId string the event already holds (no key built per response), its
// value the first origin, or the origins of each site and kind in arrival order when there are several.
import type { ResponseKind } from '../../../shared/kinds';
import { pageKey } from './model';
import type { ResponseOrigin } from './rules/types';
import { ChunkedMap } from '../../chunked';

/**
 * Where a responseId was first seen. Its page key is made from the site and pageLoadId when a rule reads
 * it (rarely: a responseId seen again), not kept: kept, it held a string per page after the page itself
 * was judged and gone (`check` keeps 250,000 responseIds).
 */
export class SiteOrigin implements ResponseOrigin {
  constructor(
    readonly siteId: string,
    readonly pageLoadId: string,
    readonly pageUrl: string,
    readonly sessionId: string,
    readonly eventId: string,
    readonly kind: ResponseKind,
    /** the event that carried it first (`redirect`, `render`, …) */
    readonly event: string,
    /** that event's time (its timestamp, else its receive time) */
    readonly time: number,
    /** it carried context.dev: true (the client's search cache is off in development) */
    readonly dev: boolean,
  ) {}

  get pageKey(): string {
    return pageKey(this.siteId, this.pageLoadId);
  }
}

export class ResponseOrigins {
  private readonly byId = new ChunkedMap<string, SiteOrigin | SiteOrigin[]>();

  /** Note where `responseId` was seen, unless its site already has an origin of that kind; `make` builds it. */
  note(siteId: string, responseId: string, kind: ResponseKind, make: () => SiteOrigin): void {
    const held = this.byId.get(responseId);
    if (held === undefined) {
      // none held: it goes last without asking every part for it again
      this.byId.setNew(responseId, make());
      return;
    }
    if (Array.isArray(held)) {
      if (!held.some((o) => o.siteId === siteId && o.kind === kind)) held.push(make());
    } else if (held.siteId !== siteId || held.kind !== kind)
      this.byId.set(responseId, [held, make()]);
  }

  /** The first page of `responseId` on the site among responses of `kind`. */
  ofKind(siteId: string, responseId: string, kind: ResponseKind): ResponseOrigin | undefined {
    const held = this.byId.get(responseId);
    if (held === undefined) return undefined;
    if (!Array.isArray(held))
      return held.siteId === siteId && held.kind === kind ? held : undefined;
    return held.find((o) => o.siteId === siteId && o.kind === kind);
  }

  /** The first event of any kind that carried `responseId` on the site. */
  first(siteId: string, responseId: string): ResponseOrigin | undefined {
    const held = this.byId.get(responseId);
    if (held === undefined) return undefined;
    if (!Array.isArray(held)) return held.siteId === siteId ? held : undefined;
    return held.find((o) => o.siteId === siteId);
  }

  /** Forget the oldest responseIds (by first arrival) while more than `max` are held; how many went. */
  forgetOldest(max: number): number {
    let forgotten = 0;
    for (const id of this.byId.keys()) {
      if (this.byId.size <= max) break;
      this.byId.delete(id);
      forgotten++;
    }
    return forgotten;
  }

  /** Does a site other than `siteId` have an origin here? */
  private heldByOtherThan(siteId: string): boolean {
    for (const held of this.byId.values())
      if (Array.isArray(held) ? held.some((o) => o.siteId !== siteId) : held.siteId !== siteId)
        return true;
    return false;
  }

  /** Forget every origin, or those of one site. */
  reset(siteId?: string): void {
    // one site's reset that leaves no other site's origin empties the map at once, not id by id
    if (siteId === undefined || !this.heldByOtherThan(siteId)) {
      this.byId.clear();
      return;
    }
    for (const [id, held] of this.byId) {
      if (!Array.isArray(held)) {
        if (held.siteId === siteId) this.byId.delete(id);
        continue;
      }
      const kept = held.filter((o) => o.siteId !== siteId);
      if (kept.length === 0) this.byId.delete(id);
      else this.byId.set(id, kept.length === 1 ? kept[0]! : kept);
    }
  }
}
