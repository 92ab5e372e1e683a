// `click-not-impressed`: a clickthrough of a uid that no impression of that responseId reported.
import { finding, plural, quoted, type ResponseRule } from './types';
import { impressedIds, unimpressed } from './not-impressed';

export const clickNotImpressed: ResponseRule = {
  id: 'click-not-impressed',
  scope: 'response',
  check(r) {
    const clicks = r.facts.clicks;
    if (clicks.length === 0) return [];
    const impressed = impressedIds(r);
    const bad = clicks
      .map((e) => ({ e, uids: unimpressed(e, impressed) }))
      .filter((c) => c.uids.length > 0);
    if (bad.length === 0) return [];
    const uids = [...new Set(bad.flatMap((c) => c.uids))];
    const clickList = bad.map((c) => `${c.e.id} (uid ${quoted(c.uids, 3)})`);
    const message =
      `${plural(bad.length, 'clickthrough')} on responseId "${r.responseId}" clicked ${uids.length === 1 ? 'an item' : 'items'} never reported in an impression ` +
      `of that response: ${clickList.slice(0, 3).join(', ')}${clickList.length > 3 ? ` and ${clickList.length - 3} more` : ''}. ` +
      `The spec expects an impression when a tile scrolls into view, so every clicked uid was impressed first. ` +
      `Fix: send search/impression with results [{uid: ${quoted(uids, 3)}, …}] when the tile becomes visible, using the same uid the click sends.`;
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
