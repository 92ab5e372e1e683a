// What the search-provenance rules may ask about a site: its search settings, the responses the companion
// search API issued, and its indexed catalog. Absent (offline `check`, unit tests) = the rules stay silent.
import { issuedKind, type IssuedResponse, type IssuedResult } from '../../../../search/responses';
import type { TimelineEvent } from '../../model';
import type { Response } from '../../response';
import { finding, plural, type RuleContext } from '../types';
import type { FindingData } from '../../../../../shared/timeline';
import type { Finding } from '../../../finding';
import type { ProvenanceCatalog } from '../../../../search/provenance';
import { listingName } from '../../../../../shared/kinds';

// What the timelines read of the companion search API is declared by search (src/main/search/provenance.ts):
// the timeline depends on search, never the other way round.
export type { ProvenanceCatalog, ProvenanceSource } from '../../../../search/provenance';

/** The issued response a timeline response is about, when the sandbox issued it. */
export function issuedFor(r: Response, ctx: RuleContext): IssuedResponse | undefined {
  if (!ctx.provenance || r.responseId === '') return undefined;
  return ctx.provenance.issued(ctx.page.siteId, r.responseId);
}

/**
 * Did the response's request ask for no results (resultsPerPage=0: counts and facets, as the provider's
 * Finder asks them)? Known from what the sandbox kept of the request (`asked`).
 */
export function countOnly(issued: IssuedResponse): boolean {
  return issued.asked !== undefined && issued.asked.split('&').includes('resultsPerPage=0');
}

/** The response's accepted events that report items or banners (impression, clickthrough, addtocart). */
export function itemEvents(r: Response): TimelineEvent[] {
  const f = r.facts;
  return [...f.impressions, ...f.clicks, ...f.carts].sort(
    (a, b) => a.time - b.time || a.seq - b.seq,
  );
}

const resultUids = new WeakMap<IssuedResponse, Set<string>>();

/** uids of the response's results and their variants (built once per response). */
export function allResultUids(issued: IssuedResponse): Set<string> {
  let ids = resultUids.get(issued);
  if (!ids) {
    ids = new Set();
    for (const res of issued.results) {
      ids.add(res.uid);
      for (const c of res.children) ids.add(c.uid);
    }
    resultUids.set(issued, ids);
  }
  return ids;
}

/**
 * The inline banner a uid names: its data-banner-id, or `ss-ib-<index>` — the id the provider's Snap store
 * gives inline banners, which its tracking sends as the uid.
 */
export function inlineBanner(
  issued: IssuedResponse,
  uid: string,
): { uid: string; index: number } | undefined {
  return issued.inline.find((b) => b.uid === uid || `ss-ib-${b.index}` === uid);
}

/**
 * Each item the response's events report as a product (not `type: "banner"`) that is neither a result nor a
 * variant of one, with the inline banner its uid names, if any: `item-not-in-response` reports those that
 * name none, `inline-banner-as-product` those that name one.
 */
export function* unreturnedItems(
  r: Response,
  issued: IssuedResponse,
): Generator<{
  e: TimelineEvent;
  uid: string;
  banner: { uid: string; index: number } | undefined;
}> {
  const uids = allResultUids(issued);
  for (const e of itemEvents(r))
    for (const item of e.results) {
      if (itemType(item) === 'banner' || uids.has(item.uid)) continue;
      yield { e, uid: item.uid, banner: inlineBanner(issued, item.uid) };
    }
}

export function slotOf(issued: IssuedResponse, uid: string): string | undefined {
  for (const [slot, uids] of Object.entries(issued.slots)) if (uids.includes(uid)) return slot;
  return undefined;
}

/**
 * `search "boots" (page 2)`, `autocomplete "jack"`, `category "Jackets"` (the category its request named),
 * `recommendations widget "similar"` — how a response is named in messages.
 */
export function describeResponse(issued: IssuedResponse): string {
  if (issued.tag !== undefined)
    return `${issued.kind ?? 'recommendations'} widget ${JSON.stringify(issued.tag)}`;
  return `${listingName({ ...issued, kind: issuedKind(issued) })}${issued.page > 1 ? ` (page ${issued.page})` : ''}`;
}

/** The query an issued response answered, as messages quote it: `"gift card"`, or `no query` (a category). */
export function quotedQuery(issued: IssuedResponse): string {
  return issued.query === '' ? 'no query' : `"${issued.query}"`;
}

/** What `finding` reads of a rule's meta. */
type FindingMeta = Parameters<typeof finding>[0];

/** How many offending uids a message names (the rest are counted). */
const SHOWN = 5;

/** How a rule words its finding about offenders, beside what every such finding says (`Offenders.finding`). */
export interface OffendersReport {
  messageId: string;
  /** what one offender is called in the count: `item`, `inline banner` */
  noun: string;
  /** the data's name for the count, when the message calls it other than `count` */
  countAs?: string;
  /** the rule's own data, after the count and the responseId and before the offenders, in this order */
  words?: FindingData;
  /** the rule's data after the offenders */
  after?: FindingData;
  /** the finding's key, when the rule reports more than one finding per response */
  key?: string;
  /** the behaviour it is about, when not its rule's first */
  behaviour?: string;
}

/** Accumulates `uid → events` for one kind of problem, and lists them readably. */
export class Offenders {
  private readonly byUid = new Map<string, { note: string; events: Set<string> }>();

  /** `note` may be a function: it is worked out only for the uids a message will name. */
  add(uid: string, eventId: string, note: string | (() => string) = ''): void {
    let o = this.byUid.get(uid);
    if (!o) {
      const text = this.byUid.size < SHOWN ? (typeof note === 'function' ? note() : note) : '';
      this.byUid.set(uid, (o = { note: text, events: new Set() }));
    }
    o.events.add(eventId);
  }

  get size(): number {
    return this.byUid.size;
  }

  uids(): string[] {
    return [...this.byUid.keys()];
  }

  eventIds(): string[] {
    const ids = new Set<string>();
    for (const o of this.byUid.values()) for (const id of o.events) ids.add(id);
    return [...ids];
  }

  /** `uid "1" in ev_1, ev_2 (note); uid "2" in ev_3` — at most SHOWN uids. */
  describe(): string {
    const parts = [...this.byUid].slice(0, SHOWN).map(([uid, o]) => {
      const events = [...o.events];
      const evs =
        events.length > 3
          ? `${events.slice(0, 3).join(', ')} and ${events.length - 3} more`
          : events.join(', ');
      return `uid "${uid}" in ${evs}${o.note ? ` (${o.note})` : ''}`;
    });
    const rest = this.byUid.size - parts.length;
    return `${parts.join('; ')}${rest > 0 ? `; and ${rest} more uid${rest === 1 ? '' : 's'}` : ''}`;
  }

  /**
   * The finding about these offenders in the response `responseId`: its data says how many (`count`), the
   * responseId, the rule's words and the offenders named (`describe`), in that order; its events are all of
   * theirs.
   */
  finding(meta: FindingMeta, responseId: string, report: OffendersReport): Finding {
    const data = {
      [report.countAs ?? 'count']: plural(this.size, report.noun),
      responseId,
      ...report.words,
      offenders: this.describe(),
      ...report.after,
    };
    return finding(
      meta,
      report.key ?? responseId,
      { messageId: report.messageId, data },
      this.eventIds(),
      { responseId, ...(report.behaviour !== undefined && { behaviour: report.behaviour }) },
    );
  }
}

/** The result of an issued response that served `uid`: the product itself, or its product and that variant. */
export function servedResult(
  issued: IssuedResponse,
  uid: string,
): { result: IssuedResult; child?: IssuedResult['children'][number] } | undefined {
  for (const result of issued.results) {
    if (result.uid === uid) return { result };
    const child = result.children.find((c) => c.uid === uid);
    if (child) return { result, child };
  }
  return undefined;
}

/** `type` of a results item as sent (`product`, `banner`), '' when absent. Accepted bodies keep their fields. */
export function itemType(item: object): string {
  const t = (item as { type?: unknown }).type;
  return typeof t === 'string' ? t : '';
}

export function itemSku(item: object): string {
  const s = (item as { sku?: unknown }).sku;
  return typeof s === 'string' ? s : '';
}

/** The uid of a data.banners entry, whether the model keeps the entry or just its uid. */
export function bannerUid(b: string | { readonly uid: string }): string {
  return typeof b === 'string' ? b : b.uid;
}

/**
 * The catalog a response's items are checked against: the site's indexed catalog, on a site that checks
 * it (`catalogCheck`) and does not use the companion search (whose responses are the better reference).
 */
export function catalogToCheck(ctx: RuleContext): ProvenanceCatalog | undefined {
  const p = ctx.catalog;
  const site = p?.site(ctx.page.siteId);
  if (!p || !site || site.companion || !site.catalogCheck) return undefined;
  return p.catalog(ctx.page.siteId);
}

/** The products (not banners) each impression, click and add of the response reports, with its event. */
export function* productItems(
  r: Response,
): Generator<{ item: TimelineEvent['results'][number]; event: TimelineEvent }> {
  for (const event of itemEvents(r))
    for (const item of event.results) if (itemType(item) !== 'banner') yield { item, event };
}
