// `click-not-impressed`: a clickthrough of a uid that no impression of that responseId reported.
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
    // sends a click at once; when the click ends the page, the queued impressions are lost with it. So a
    // missing impression is only info when the click is the page's last event and impressions of this
    // response did arrive; the engine re-runs this when a later event shows up.
    const lostOnUnload = (e: { time: number }) => impressed.size > 0 && e.time >= ctx.page.maxTime;
    const severity = bad.every((c) => lostOnUnload(c.e)) ? 'info' : 'warning';
    const clickList = bad.map((c) => `${c.e.id} (uid ${quoted(c.uids, 3)})`);
    const message =
      `${plural(bad.length, 'clickthrough')} on responseId "${r.responseId}" clicked ${uids.length === 1 ? 'an item' : 'items'} never reported in an impression ` +
      `of that response: ${clickList.slice(0, 3).join(', ')}${clickList.length > 3 ? ` and ${clickList.length - 3} more` : ''}. ` +
      `The spec expects an impression when a tile scrolls into view, so every clicked uid was impressed first. ` +
      `Fix: send search/impression with results [{uid: ${quoted(uids, 3)}, …}] when the tile becomes visible, using the same uid the click sends.` +
      (severity === 'info'
        ? ' Info only: the click was the last event of the page, and the provider’s client loses impressions still queued (300 ms debounce) when a click navigates away.'
        : '');
    return [
      finding(
        'click-not-impressed',
        severity,
        r.responseId,
        message,
        bad.map((c) => c.e.id),
        { responseId: r.responseId },
      ),
    ];
  },
};
