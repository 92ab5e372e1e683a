// Clicks of a uid that no impression of their responseId reported, shared by `click-not-impressed` and
// `click-not-impressed-at-exit` (every such click ended the page: the client may still have held the
// impression).
import { endpointOf } from '../../../../../shared/kinds';
import type { FindingData } from '../../../../../shared/timeline';
import { plural, quoted, duration, type RuleContext } from '../types';
import type { Response } from '../../response';

/** the provider's client impresses a tile once 70% of it has been visible for 1 s (SC IntersectionObserver) */
const VISIBLE_MS = 1000;
/** the provider's client: 1 s of visibility, then up to 300 ms in its queue */
const IMPRESSION_DELAY_MS = VISIBLE_MS + 300;
import {
  impressedElsewhere,
  impressedIds,
  impressedUnderOtherTag,
  impressedUntil,
  unimpressed,
} from './not-impressed';

const WHAT =
  '{{count}} on responseId "{{responseId}}" clicked {{items}} never reported in an impression of that response: {{clicks}}. The spec expects an impression when a tile scrolls into view, so every clicked uid was impressed first.{{late}}{{seen}}{{rejected}}';
/** the message of clicks the page went on after */
export const NOT_IMPRESSED = WHAT;
/** the message of clicks that each ended the page */
export const NOT_IMPRESSED_AT_EXIT = `${WHAT} Reported apart, as info, because the click was the last event of the page: the provider’s client impresses a tile after it has been visible for 1 s and holds impressions 300 ms more, so a click that leaves the page within about 1.3 s of the tile appearing never has its impression; nothing is wrong if the shopper clicked that fast.`;
/** the message of clicks made within 1 s of their response's render, on a page that went on */
export const NOT_IMPRESSED_QUICK = `{{count}} on responseId "{{responseId}}" clicked {{items}} not impressed before the click: {{clicks}}. Reported apart, as info, because {{each}} came within 1 s of the response’s render ({{render}}), before the tile could have been in view for the 1 s after which the provider’s client impresses it; the page went on (an SPA route to the product and back, say), and the tile was impressed later or not at all. Nothing is wrong if the shopper clicked that fast.`;
export const NOT_IMPRESSED_FIX =
  'send {{impression}} with results [{uid: {{uids}}, …}] when the tile becomes visible, using the same uid the click sends.';

/** The response's impressions the service rejected, at or before `until`, that name one of `uids`. */
function rejectedImpressions(r: Response, uids: readonly string[], until: number): string[] {
  const out: string[] = [];
  for (const e of r.events)
    if (
      !e.accepted &&
      e.event === 'impression' &&
      e.time <= until &&
      e.results.some((i) => uids.includes(i.uid))
    )
      out.push(e.id);
  return out;
}

/**
 * The clicks of a response on uids it never impressed, with the message that explains them, and whether
 * every one ended the page (which `click-not-impressed-at-exit` reports instead).
 */
export function unimpressedClicks(
  r: Response,
  ctx: RuleContext,
): { data: FindingData; ids: string[]; exempt: 'endedPage' | 'quick' | undefined } | undefined {
  {
    const clicks = r.facts.clicks;
    if (clicks.length === 0) return undefined;
    // An impression counts for a click when it is timestamped no later than the tolerance after it: the
    // client's 1 s visibility timer may still fire just after a click on a page that stays (an SPA); an
    // impression timestamped later than that was not of the tile the shopper saw before clicking.
    const grace = ctx.settings.orderToleranceMs;
    const all = impressedIds(r);
    // a tile impressed under another response of the list is click-under-other-response's; one a widget
    // impressed with this responseId under another tag was impressed (missing-render names the tag)
    let elsewhere: Map<string, string> | undefined;
    let otherTag: ReadonlySet<string> | undefined;
    const own = (uids: string[]) =>
      uids.length === 0
        ? uids
        : uids.filter(
            (u) =>
              !(elsewhere ??= impressedElsewhere(r, ctx.page)).has(u) &&
              !(otherTag ??= impressedUnderOtherTag(r, ctx.page)).has(u),
          );
    // the clicks come in time order: what was impressed by each one's time grows
    const impressedBy = impressedUntil(r);
    const bad = clicks
      .map((e) => {
        let uids = own(unimpressed(e, all));
        if (uids.length === 0) uids = own(unimpressed(e, impressedBy(e.time + grace)));
        return { e, uids, late: uids.length > 0 && own(unimpressed(e, all)).length === 0 };
      })
      .filter((c) => c.uids.length > 0);
    if (bad.length === 0) return undefined;
    const uids = [...new Set(bad.flatMap((c) => c.uids))];
    // The provider's client impresses a tile after 1 s of visibility, holds impressions 300 ms more
    // (longer while the shopper keeps scrolling) and sends a click at once: a click that navigates away
    // within about 1.3 s of a tile appearing reaches the service without that tile's impression, which is
    // never sent. Exempted (reported apart, as info, with the reason): every unimpressed click was the page's last event, as
    // such a click is. A click followed by more events on the page stays a warning; a storefront that never
    // impresses anything is `no-impression`'s. The engine re-runs this when a later event shows up.
    // A banner is on screen from its render on: a banner click more than the client's 1.3 s after the
    // render had all that time to be impressed, whether or not it ended the page.
    const render = r.facts.renders[0];
    const bannerSeen = (c: (typeof bad)[number]) =>
      render !== undefined &&
      c.e.banners.some((b) => c.uids.includes(b.uid)) &&
      c.e.time - render.time > IMPRESSION_DELAY_MS + grace;
    // the response's latest render at or before the click
    const renderBefore = (c: (typeof bad)[number]) => {
      let latest: (typeof r.facts.renders)[number] | undefined;
      for (const x of r.facts.renders)
        if (x.time <= c.e.time && (!latest || x.time > latest.time)) latest = x;
      return latest;
    };
    // A dropdown shows the tiles of its response together, at its render (ACC renders the response's
    // results at once; they are impressed once in view for 1 s like any tile): a click more than the
    // client's 1.3 s after that render, of an autocomplete response none of whose tiles was ever impressed,
    // came after the tiles had been on screen long enough. A dropdown that impressed some tiles but not the
    // clicked one may have been scrolled to it: that click keeps its exemption.
    const dropdownSeen = (c: (typeof bad)[number]) => {
      if (r.kind !== 'autocomplete' || r.facts.impressions.length > 0) return false;
      const x = renderBefore(c);
      return x !== undefined && c.e.time - x.time > IMPRESSION_DELAY_MS + grace;
    };
    const ended = (c: (typeof bad)[number]) =>
      c.e.time >= ctx.page.maxTime && !c.late && !bannerSeen(c) && !dropdownSeen(c);
    const endedPage = bad.every(ended);
    // A click within 1 s of its response's latest render before it came before its tile could have been
    // impressed, whatever follows: on a page that goes on (an SPA route away and back) the client impresses
    // the tile later, once it is in view for 1 s again, or never if it is not shown again. Exempted (reported
    // apart, as info): every unimpressed click was that quick or ended the page. A click 1 s or more after
    // the render had its tile in view long enough, and stays a warning.
    const quick = (c: (typeof bad)[number]) => {
      const x = renderBefore(c);
      return x !== undefined && c.e.time - x.time < VISIBLE_MS;
    };
    const exempt = endedPage
      ? ('endedPage' as const)
      : bad.every((c) => quick(c) || ended(c))
        ? ('quick' as const)
        : undefined;
    const quickOnes = exempt === 'quick' ? bad.filter(quick) : [];
    const lateOnes = exempt === 'quick' ? [] : bad.filter((c) => c.late);
    const clickList = bad.map((c) => `${c.e.id} (uid ${quoted(c.uids, 3)})`);
    const data = {
      count: plural(bad.length, 'clickthrough'),
      responseId: r.responseId,
      items: uids.length === 1 ? 'an item' : 'items',
      clicks: `${clickList.slice(0, 3).join(', ')}${clickList.length > 3 ? ` and ${clickList.length - 3} more` : ''}`,
      late:
        lateOnes.length > 0
          ? ` The only impression of ${lateOnes.length === bad.length ? 'it' : `${lateOnes.map((c) => c.e.id).join(', ')}`} is timestamped more than ${duration(grace)} after the click: an impression sent because of the click, not when the tile became visible.`
          : '',
      impression: endpointOf(r.kind, 'impression'),
      uids: quoted(uids, 3),
      seen: bad.some(dropdownSeen)
        ? ` The dropdown showed the response's tiles from its render on, more than the client's 1.3 s before the click, and none of them was impressed: the dropdown's tiles are never impressed.`
        : '',
      rejected: '',
      each: quickOnes.length === 1 ? 'the click' : 'each click',
      render: quickOnes.length > 0 ? (renderBefore(quickOnes[0]!)?.id ?? '') : '',
    };
    // an impression of a clicked uid the service rejected before the click: it was sent, and lost; its
    // `schema` finding names the cause (it shares that event), and the click's finding follows from it
    const lost = rejectedImpressions(r, uids, Math.max(...bad.map((c) => c.e.time)));
    if (lost.length > 0)
      data.rejected = ` An impression naming ${lost.length === 1 ? 'it' : 'them'} was sent (${lost.join(', ')}) but rejected by the service: the tile was impressed, and the impression lost with the rejection.`;
    return { data, ids: [...bad.map((c) => c.e.id), ...lost], exempt };
  }
}
