// `cart-not-impressed`: a quick-add addtocart of an item that no impression of that responseId reported.
import { finding, plural, quoted, type ResponseRule } from './types';
import { impressedIds, unimpressed } from './not-impressed';

export const cartNotImpressed: ResponseRule = {
  id: 'cart-not-impressed',
  scope: 'response',
  check(r) {
    const carts = r.facts.carts;
    if (carts.length === 0) return [];
    const impressed = impressedIds(r);
    const bad = carts
      .map((e) => ({ e, uids: unimpressed(e, impressed) }))
      .filter((c) => c.uids.length > 0);
    if (bad.length === 0) return [];
    const uids = [...new Set(bad.flatMap((c) => c.uids))];
    const message =
      `${plural(bad.length, 'addtocart')} on responseId "${r.responseId}" (${bad
        .map((c) => c.e.id)
        .slice(0, 5)
        .join(', ')}) added uid ${quoted(uids)}, ` +
      `which no impression of that response reported (matched by uid or parentId). ` +
      `Quick add happens on a visible tile, and the spec expects each tile to be impressed when it scrolls into view. ` +
      `Fix: impress tiles as they become visible and send the same uid (or its parentId) in addtocart.`;
    return [
      finding(
        'cart-not-impressed',
        'warning',
        r.responseId,
        message,
        bad.map((c) => c.e.id),
        { responseId: r.responseId },
      ),
    ];
  },
};
