// Shared by `click-not-impressed` and `cart-not-impressed`: which items of an event no impression of its
// responseId reported. Matching is by uid or parentId, so a variant added to the cart matches its parent tile.
import type { ResponseState, TimelineEvent } from '../model';

/** ids impressed by the response's impressions timestamped no later than `until` (ms; default: all). */
export function impressedIds(r: ResponseState, until = Infinity): Set<string> {
  const ids = new Set<string>();
  for (const e of r.facts.impressions) {
    if (e.time > until) break; // sorted by time
    for (const item of e.results) {
      if (item.uid) ids.add(item.uid);
      if (item.parentId) ids.add(item.parentId);
    }
    for (const b of e.banners) if (b.uid) ids.add(b.uid);
  }
  return ids;
}

/** uids of `ev` (results and banners) that neither by uid nor by parentId appear in `impressed`. */
export function unimpressed(ev: TimelineEvent, impressed: Set<string>): string[] {
  const missing: string[] = [];
  for (const item of ev.results) {
    if (!impressed.has(item.uid) && !(item.parentId && impressed.has(item.parentId)))
      missing.push(item.uid);
  }
  for (const b of ev.banners) if (!impressed.has(b.uid)) missing.push(b.uid);
  return missing;
}
