// `cart-not-impressed`: a quick-add addtocart of an item that no impression of that responseId reported.
import {
  finding,
  plural,
  quoted,
  defineRule,
  type RuleMeta,
  judgedIn,
  RESPONSE_KINDS,
} from './types';
import {
  impressedElsewhere,
  impressedIds,
  impressedUnderOtherTag,
  unimpressed,
} from './utils/not-impressed';

const meta: RuleMeta<'response'> = {
  id: 'cart-not-impressed',
  judges: ['response'],
  title: 'Add-to-cart of an item never impressed',
  description:
    'A quick-add addtocart of a uid (or parentId) that no impression of that responseId reported. A widget’s item impressed with that responseId under another widget’s tag was impressed: missing-render names the wrong tag.',
  expects: 'Quick add happens on a visible tile, which was impressed first.',
  ...judgedIn(RESPONSE_KINDS, ['search.addtocart']),
  explainedBy: ['click-under-other-response', 'responseid-stale', 'response-replaced'],
  defaultSeverity: 'warning',
  messages: {
    notImpressed:
      '{{count}} on responseId "{{responseId}}" ({{events}}) added uid {{uids}}, which no impression of that response reported (matched by uid or parentId). Quick add happens on a visible tile, and the spec expects each tile to be impressed when it scrolls into view.',
  },
  fix: 'Impress tiles when they become visible; send the same uid (or its parentId) in addtocart.',
  fixes: {
    notImpressed:
      'impress tiles as they become visible and send the same uid (or its parentId) in addtocart.',
  },
  listens: ['impression', 'addtocart'],
};

export const cartNotImpressed = defineRule({
  meta,
  response(r, ctx) {
    const carts = r.facts.carts;
    if (carts.length === 0) return [];
    const impressed = impressedIds(r);
    // a tile impressed under another response of the list is click-under-other-response's; one a widget
    // impressed with this responseId under another tag was impressed (missing-render names the tag)
    let elsewhere: Map<string, string> | undefined;
    let otherTag: ReadonlySet<string> | undefined;
    const bad = carts
      .map((e) => ({
        e,
        uids: unimpressed(e, impressed).filter(
          (u) =>
            !(elsewhere ??= impressedElsewhere(r, ctx.page)).has(u) &&
            !(otherTag ??= impressedUnderOtherTag(r, ctx.page)).has(u),
        ),
      }))
      .filter((c) => c.uids.length > 0);
    if (bad.length === 0) return [];
    const uids = [...new Set(bad.flatMap((c) => c.uids))];
    const data = {
      count: plural(bad.length, 'addtocart'),
      responseId: r.responseId,
      events: bad
        .map((c) => c.e.id)
        .slice(0, 5)
        .join(', '),
      uids: quoted(uids),
    };
    return [
      finding(
        meta,
        r.responseId,
        { messageId: 'notImpressed', data },
        bad.map((c) => c.e.id),
        { responseId: r.responseId },
      ),
    ];
  },
});
