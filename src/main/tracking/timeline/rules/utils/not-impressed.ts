// Shared by `click-not-impressed` and `cart-not-impressed`: which items of an event no impression of its
// responseId reported. Matching is by uid or parentId, so a variant added to the cart matches its parent tile.
import { isWidgetKind } from '../../../../../shared/kinds';
import type { TimelineEvent } from '../../model';
import type { Page } from '../../page';
import type { Response, ResponseFacts } from '../../response';

/**
 * The ids of each response's impressions, by its facts (made again whenever its events change, and let go
 * when its page has been judged): the rules of one run ask for them several times (click-not-impressed,
 * cart-not-impressed, click-under-other-response, and for each sibling of the list).
 */
const allImpressed = new WeakMap<ResponseFacts, ReadonlySet<string>>();
const NONE: ReadonlySet<string> = new Set();

/** ids impressed by the response's impressions timestamped no later than `until` (ms; default: all). */
export function impressedIds(r: Response, until = Infinity): ReadonlySet<string> {
  const facts = r.facts;
  const impressions = facts.impressions;
  if (impressions.length === 0) return NONE;
  // sorted by time: when the last is not after `until`, that is all of them
  if (impressions[impressions.length - 1]!.time <= until) {
    let ids = allImpressed.get(facts);
    if (!ids) allImpressed.set(facts, (ids = idsOf(impressions, Infinity)));
    return ids;
  }
  return idsOf(impressions, until);
}

function idsOf(impressions: readonly TimelineEvent[], until: number): Set<string> {
  const ids = new Set<string>();
  for (const e of impressions) {
    if (e.time > until) break; // sorted by time
    addIds(ids, e);
  }
  return ids;
}

function addIds(ids: Set<string>, e: TimelineEvent): void {
  for (const item of e.results) {
    if (item.uid) ids.add(item.uid);
    if (item.parentId) ids.add(item.parentId);
  }
  for (const b of e.banners) if (b.uid) ids.add(b.uid);
}

/**
 * `impressedIds(r, until)` for times that only grow (a response's clicks in time order): one set, grown
 * by the impressions each time reaches, not built again from the first for each click (a response of
 * thousands of clicks and impressions read them all for each). Each answer holds until the next ask.
 */
export function impressedUntil(r: Response): (until: number) => ReadonlySet<string> {
  const impressions = r.facts.impressions;
  const ids = new Set<string>();
  let next = 0;
  let last = -Infinity;
  return (until) => {
    if (until < last) return impressedIds(r, until);
    last = until;
    for (; next < impressions.length && impressions[next]!.time <= until; next++)
      addIds(ids, impressions[next]!);
    return ids;
  };
}

/** uids of `ev` (results and banners) that neither by uid nor by parentId appear in `impressed`. */
export function unimpressed(ev: TimelineEvent, impressed: ReadonlySet<string>): string[] {
  const missing: string[] = [];
  for (const item of ev.results) {
    if (!impressed.has(item.uid) && !(item.parentId && impressed.has(item.parentId)))
      missing.push(item.uid);
  }
  for (const b of ev.banners) if (!impressed.has(b.uid)) missing.push(b.uid);
  return missing;
}

/**
 * ids impressed on the page under other responses of the same kind (and tag): the tiles of another
 * page of the list, say. Built only for a response that has unimpressed clicks.
 */
export function impressedElsewhere(r: Response, page: Page): Map<string, string> {
  const where = new Map<string, string>();
  for (const o of page.responses.values()) {
    if (o === r || o.kind !== r.kind || o.tag !== r.tag || o.responseId === '') continue;
    for (const id of impressedIds(o)) if (!where.has(id)) where.set(id, o.responseId);
  }
  return where;
}

/**
 * ids a widget's responseId impressed on the page under another tag of its kind: its own tiles (one
 * controller per widget, its responseId its own) impressed with another widget's tag, which `missing-render`
 * names on those impressions. None for search and category, whose responses have no tag.
 */
export function impressedUnderOtherTag(r: Response, page: Page): ReadonlySet<string> {
  if (!isWidgetKind(r.kind) || r.responseId === '') return NONE;
  let ids: Set<string> | undefined;
  for (const o of page.responses.values()) {
    if (o === r || o.kind !== r.kind || o.responseId !== r.responseId) continue;
    for (const id of impressedIds(o)) (ids ??= new Set()).add(id);
  }
  return ids ?? NONE;
}
