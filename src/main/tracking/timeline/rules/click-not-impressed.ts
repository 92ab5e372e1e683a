// `click-not-impressed`: a clickthrough of a uid that no impression of that responseId reported.
import { endpointOf } from '../../../../shared/kinds';
import {
  finding,
  plural,
  quoted,
  seconds,
  type ResponseRule,
  type RuleContext,
  type RuleMeta,
} from './types';
import type { ResponseState } from '../model';

/** the provider's client: 1 s of visibility, then up to 300 ms in its queue */
const IMPRESSION_DELAY_MS = 1300;
import { impressedElsewhere, impressedIds, unimpressed } from './not-impressed';

const meta: RuleMeta = {
  id: 'click-not-impressed',
  title: 'Click on an item never impressed',
  description:
    'A clickthrough of a uid that no impression of that responseId reported, on a page that went on after the click (a click that ended the page is reported apart: the client may still have held its impression).',
  expects: 'An impression when the tile scrolls into view, before the shopper can click it.',
  appliesTo: ['search', 'category', 'autocomplete', 'recommendations', 'bundles'],
  guards: ['search.clickthrough'],
  explainedBy: ['click-under-other-response', 'responseid-stale', 'response-replaced'],
  defaultSeverity: 'warning',
  fix: 'Send search/impression for each tile when it becomes visible (IntersectionObserver), with the same uid the click uses.',
  listens: ['render', 'impression', 'clickthrough'],
  needs: { laterEvents: true },
};

export const clickNotImpressed: ResponseRule = {
  meta,
  judges: 'response',
  // a click stops being the page's last event when a later one arrives: it moves here from the exit rule
  check(r, ctx) {
    const found = ctx.once(unimpressedClicks);
    return found && !found.endedPage
      ? [finding(meta, r.responseId, found.message, found.ids, { responseId: r.responseId })]
      : [];
  },
};

/**
 * The clicks of a response on uids it never impressed, with the message that explains them, and whether
 * every one ended the page (which `click-not-impressed-at-exit` reports instead).
 */
export function unimpressedClicks(
  r: ResponseState,
  ctx: RuleContext,
): { message: string; ids: string[]; endedPage: boolean } | undefined {
  {
    const clicks = r.facts.clicks;
    if (clicks.length === 0) return undefined;
    // An impression counts for a click when it is timestamped no later than the tolerance after it: the
    // client's 1 s visibility timer may still fire just after a click on a page that stays (an SPA); an
    // impression timestamped later than that was not of the tile the shopper saw before clicking.
    const grace = ctx.settings.orderToleranceMs;
    const all = impressedIds(r);
    // a tile impressed under another response of the list is click-under-other-response's
    let elsewhere: Map<string, string> | undefined;
    const own = (uids: string[]) =>
      uids.length === 0
        ? uids
        : uids.filter((u) => !(elsewhere ??= impressedElsewhere(r, ctx.page)).has(u));
    const bad = clicks
      .map((e) => {
        let uids = own(unimpressed(e, all));
        if (uids.length === 0) uids = own(unimpressed(e, impressedIds(r, e.time + grace)));
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
    const endedPage = bad.every((c) => c.e.time >= ctx.page.maxTime && !c.late && !bannerSeen(c));
    const lateOnes = bad.filter((c) => c.late);
    const clickList = bad.map((c) => `${c.e.id} (uid ${quoted(c.uids, 3)})`);
    const message =
      `${plural(bad.length, 'clickthrough')} on responseId "${r.responseId}" clicked ${uids.length === 1 ? 'an item' : 'items'} never reported in an impression ` +
      `of that response: ${clickList.slice(0, 3).join(', ')}${clickList.length > 3 ? ` and ${clickList.length - 3} more` : ''}. ` +
      `The spec expects an impression when a tile scrolls into view, so every clicked uid was impressed first. ` +
      (lateOnes.length > 0
        ? `The only impression of ${lateOnes.length === bad.length ? 'it' : `${lateOnes.map((c) => c.e.id).join(', ')}`} is timestamped more than ${seconds(grace)} after the click: an impression sent because of the click, not when the tile became visible. `
        : '') +
      `Fix: send ${endpointOf(r.kind, 'impression')} with results [{uid: ${quoted(uids, 3)}, …}] when the tile becomes visible, using the same uid the click sends.` +
      (endedPage
        ? ' Reported apart, as info, because the click was the last event of the page: the provider’s client impresses a tile after it has been visible for 1 s and holds impressions 300 ms more, so a click that leaves the page within about 1.3 s of the tile appearing never has its impression; nothing is wrong if the shopper clicked that fast.'
        : '');
    return { message, ids: bad.map((c) => c.e.id), endedPage };
  }
}
