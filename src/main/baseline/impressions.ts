// Impressions compared as the items each response impressed, not as the requests that carried them. The
// provider's client impresses a tile after a second in view and sends what its queue gathered 300 ms later,
// so how a response's tiles fall into requests (four in one, or two and two) depends on layout, images and
// scrolling: two runs of one journey batch them alike only by chance, and a baseline compared request by
// request fails one run in a few. So a page's impressions of one response (one endpoint, so one kind, and
// the same responseId, tag, context and answer) are one event, at the place of the first, whose results and
// banners hold every item the requests carried, in a fixed order (by uid): an item impressed in one run and
// not the other, or impressed twice, still differs; how the requests split them, and in what order the tiles
// came into view, does not.
import { isObject } from '../../shared/values';
import type { RecEvent } from './recording';
import { isImpression } from '../../shared/baseline';

/** The lists of an impression's items. */
const ITEM_LISTS = ['results', 'banners'] as const;

function uidOf(item: unknown): string {
  return isObject(item) && typeof item.uid === 'string' ? item.uid : '';
}

/** Items in their compared order: by uid, then by what else they hold (two alike stay side by side). */
function sortItems(items: unknown[]): void {
  const keyed = items.map((item) => ({ item, uid: uidOf(item), text: JSON.stringify(item) ?? '' }));
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  keyed.sort((a, b) => order(a.uid, b.uid) || order(a.text, b.text));
  keyed.forEach((k, i) => (items[i] = k.item));
}

/** An impression's compared fields (keys sorted) with its results and banners in their compared order, in place. */
export function sortImpressed(fields: Record<string, unknown>): void {
  const data = fields.data;
  if (!isObject(data)) return;
  for (const name of ITEM_LISTS) {
    const items = data[name];
    if (Array.isArray(items) && items.length > 1) sortItems(items);
  }
}

/** The impressions of one response on a page: the first's fields without its items, and all their items. */
interface Merged {
  fields: Record<string, unknown>;
  data: Record<string, unknown>;
  lists: Partial<Record<(typeof ITEM_LISTS)[number], unknown[]>>;
  count: number;
  /** the first one's place among the page's events */
  at: number;
}

/** The fields of an impression with its item lists taken out (`lists`); null when it has none to merge. */
function withoutItems(text: string): Omit<Merged, 'count' | 'at'> | null {
  const fields = JSON.parse(text) as unknown;
  if (!isObject(fields) || !isObject(fields.data)) return null;
  const data = fields.data;
  const lists: Merged['lists'] = {};
  for (const name of ITEM_LISTS)
    if (Array.isArray(data[name])) {
      lists[name] = data[name];
      delete data[name];
    }
  return Object.keys(lists).length > 0 ? { fields, data, lists } : null;
}

/** A merged impression's text: its items back in its data, keys sorted as every compared object's are. */
function mergedText({ fields, data, lists }: Merged): string {
  const all: Record<string, unknown> = { ...data, ...lists };
  for (const items of Object.values(lists)) sortItems(items);
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(all).sort()) sorted[key] = all[key];
  fields.data = sorted;
  return JSON.stringify(fields);
}

/** The impression endpoints a page sent more than once (none on most pages: they are passed over). */
function splitEndpoints(events: readonly RecEvent[]): Set<string> {
  const seen = new Set<string>();
  const again = new Set<string>();
  for (const { event } of events)
    if (isImpression(event)) (seen.has(event) ? again : seen).add(event);
  return again;
}

function addItems(group: Merged, lists: Merged['lists']): void {
  group.count++;
  for (const name of ITEM_LISTS) {
    const items = lists[name];
    if (items) group.lists[name] = [...(group.lists[name] ?? []), ...items];
  }
}

/**
 * A page's events (texts whose impressions are sorted: sortImpressed) with the impressions of each response
 * as one event, at the place of the first; `share` holds each text once. The same array when no endpoint
 * sent two impressions on the page: only the impressions of an endpoint that did are read.
 */
export function mergedImpressions(
  events: RecEvent[],
  share: (text: string) => string = (text) => text,
): RecEvent[] {
  const split = splitEndpoints(events);
  if (split.size === 0) return events;
  const groups = new Map<string, Merged>();
  const kept: RecEvent[] = [];
  for (const e of events) {
    const parts = split.has(e.event) ? withoutItems(e.text) : null;
    const key = parts && `${e.event} ${JSON.stringify(parts.fields)}`;
    const group = key === null ? undefined : groups.get(key);
    if (group) addItems(group, parts!.lists);
    else {
      if (parts) groups.set(key!, { ...parts, count: 1, at: kept.length });
      kept.push(e);
    }
  }
  for (const group of groups.values())
    if (group.count > 1)
      kept[group.at] = { event: kept[group.at]!.event, text: share(mergedText(group)) };
  return kept;
}
