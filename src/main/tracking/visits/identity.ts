// Who the shopper is and where they came from, as every accepted event of a visit says it (search-side
// events too, not only product, cart, order and login): the provider's client takes context.shopperId and
// context.attribution from what it stored (B getContext, getShopperId, getAttribution), so once a visit's
// event carried one, every event the client creates after it carries it as well. Kept compact: per visit
// the earliest event that carried each, per page the latest event that carried none.
import { isObject } from '../../../shared/values';
import type { RecordedEvent } from '../../../shared/events';
import { str } from '../values';

/** What an event's context says of the shopper and of the link the session landed from. */
export interface EventIdentity {
  shopperId: string;
  /** context.attribution as `type:id` entries, joined with `, ` ('' when it has none) */
  attribution: string;
}

/** An event of the visit, by id, page and time (its timestamp, else its receive time). */
export interface IdentityMark {
  eventId: string;
  pageKey: string;
  time: number;
}

/** What a visit's events said of its identity (`Visit.identity`). */
export interface VisitIdentity {
  /** the earliest-created event of the visit that carried a shopperId */
  firstShopper?: IdentityMark & { shopperId: string };
  /** the earliest-created event of the visit that carried context.attribution */
  firstAttributed?: IdentityMark & { attribution: string };
}

/** An event of a page (its page is the one whose entry holds it). */
export interface PageMark {
  eventId: string;
  time: number;
}

/** What a page of the visit adds to it: its latest events without a shopperId and without attribution. */
export interface PageIdentity {
  anonymous?: PageMark;
  unattributed?: PageMark;
  /** the shopperId its latest noted response event carried (`undefined`: none noted yet) */
  shopper?: string;
}

const NO_IDENTITY: EventIdentity = Object.freeze({ shopperId: '', attribution: '' });

export function readIdentity(rec: RecordedEvent): EventIdentity {
  const body = isObject(rec.body) ? rec.body : undefined;
  const ctx = body && isObject(body.context) ? body.context : undefined;
  if (!ctx) return NO_IDENTITY;
  let attribution = '';
  if (Array.isArray(ctx.attribution))
    for (const a of ctx.attribution.slice(0, 10))
      if (isObject(a) && (str(a.type) || str(a.id)))
        attribution += `${attribution ? ', ' : ''}${str(a.type)}:${str(a.id)}`;
  return { shopperId: str(ctx.shopperId), attribution };
}

/** An accepted event: the visit's earliest carriers and the page's latest events that carried none. */
export function noteIdentity(
  visit: { identity?: VisitIdentity },
  page: PageIdentity,
  pageKey: string,
  eventId: string,
  time: number,
  id: EventIdentity,
): void {
  const v = (visit.identity ??= {});
  // one mark for both when the event carried neither (most events): a page holds at most two
  let mark: PageMark | undefined;
  if (id.shopperId) {
    if (!v.firstShopper || time < v.firstShopper.time)
      v.firstShopper = { eventId, pageKey, time, shopperId: id.shopperId };
  } else if (!page.anonymous || time >= page.anonymous.time)
    page.anonymous = mark ??= { eventId, time };
  if (id.attribution) {
    if (!v.firstAttributed || time < v.firstAttributed.time)
      v.firstAttributed = { eventId, pageKey, time, attribution: id.attribution };
  } else if (!page.unattributed || time >= page.unattributed.time)
    page.unattributed = mark ??= { eventId, time };
}
