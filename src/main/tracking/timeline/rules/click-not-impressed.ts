// `click-not-impressed`: a clickthrough of a uid that no impression of that responseId reported.
import { endpointOf } from '../../../../shared/kinds';
import { finding, plural, quoted, type ResponseRule } from './types';
import { impressedIds, unimpressed } from './not-impressed';

export const clickNotImpressed: ResponseRule = {
  id: 'click-not-impressed',
  scope: 'response',
  check(r, ctx) {
    const clicks = r.facts.clicks;
    if (clicks.length === 0) return [];
    const impressed = impressedIds(r);
    const bad = clicks
      .map((e) => ({ e, uids: unimpressed(e, impressed) }))
      .filter((c) => c.uids.length > 0);
    if (bad.length === 0) return [];
    const uids = [...new Set(bad.flatMap((c) => c.uids))];
    // The provider's client holds impressions for 300 ms (longer while the shopper keeps scrolling) and
    // sends a click at once: a click that ends the page loses the impressions still queued. That cannot be
    // told apart from a tile never impressed, so it stays a warning, with the hint when the click was the
    // page's last event (the engine re-runs this when a later event shows up).
    const endedPage = bad.every((c) => c.e.time >= ctx.page.maxTime);
    const clickList = bad.map((c) => `${c.e.id} (uid ${quoted(c.uids, 3)})`);
    const message =
      `${plural(bad.length, 'clickthrough')} on responseId "${r.responseId}" clicked ${uids.length === 1 ? 'an item' : 'items'} never reported in an impression ` +
      `of that response: ${clickList.slice(0, 3).join(', ')}${clickList.length > 3 ? ` and ${clickList.length - 3} more` : ''}. ` +
      `The spec expects an impression when a tile scrolls into view, so every clicked uid was impressed first. ` +
      `Fix: send ${endpointOf(r.kind, 'impression')} with results [{uid: ${quoted(uids, 3)}, …}] when the tile becomes visible, using the same uid the click sends.` +
      (endedPage
        ? ' The click was the last event of the page: if it navigated away within 300 ms of the tile appearing, the provider’s client lost the impression it still held (debounce); make sure the impression is sent as soon as the tile is visible.'
        : '');
    return [
      finding(
        'click-not-impressed',
        'warning',
        r.responseId,
        message,
        bad.map((c) => c.e.id),
        { responseId: r.responseId },
      ),
    ];
  },
};
