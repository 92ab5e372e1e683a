// `click-not-impressed`: a clickthrough of a uid that no impression of that responseId reported.
import { endpointOf } from '../../../../shared/kinds';
import { finding, plural, quoted, seconds, type ResponseRule } from './types';

/** the provider's client: 1 s of visibility, then up to 300 ms in its queue */
const IMPRESSION_DELAY_MS = 1300;
import { impressedIds, unimpressed } from './not-impressed';

export const clickNotImpressed: ResponseRule = {
  id: 'click-not-impressed',
  scope: 'response',
  // a click stops being the page's last event when a later one arrives: info becomes warning
  needs: { laterEvents: true },
  check(r, ctx) {
    const clicks = r.facts.clicks;
    if (clicks.length === 0) return [];
    // An impression counts for a click when it is timestamped no later than the tolerance after it: the
    // client's 1 s visibility timer may still fire just after a click on a page that stays (an SPA); an
    // impression timestamped later than that was not of the tile the shopper saw before clicking.
    const grace = ctx.settings.orderToleranceMs;
    const all = impressedIds(r);
    const bad = clicks
      .map((e) => {
        let uids = unimpressed(e, all);
        if (uids.length === 0) uids = unimpressed(e, impressedIds(r, e.time + grace));
        return { e, uids, late: uids.length > 0 && unimpressed(e, all).length === 0 };
      })
      .filter((c) => c.uids.length > 0);
    if (bad.length === 0) return [];
    const uids = [...new Set(bad.flatMap((c) => c.uids))];
    // The provider's client impresses a tile after 1 s of visibility, holds impressions 300 ms more
    // (longer while the shopper keeps scrolling) and sends a click at once: a click that navigates away
    // within about 1.3 s of a tile appearing reaches the service without that tile's impression, which is
    // never sent. Exempted (info, with the reason): every unimpressed click was the page's last event, as
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
        ? ' Reported as info because the click was the last event of the page: the provider’s client impresses a tile after it has been visible for 1 s and holds impressions 300 ms more, so a click that leaves the page within about 1.3 s of the tile appearing never has its impression; nothing is wrong if the shopper clicked that fast.'
        : '');
    return [
      finding(
        'click-not-impressed',
        endedPage ? 'info' : 'warning',
        r.responseId,
        message,
        bad.map((c) => c.e.id),
        { responseId: r.responseId },
      ),
    ];
  },
};
