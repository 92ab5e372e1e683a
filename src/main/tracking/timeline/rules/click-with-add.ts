// `click-with-add` (warning): a clickthrough and an addtocart of the same item of one response created
// within SAME_CLICK_MS of each other: one shopper click sent both.
//
// Why it is certain: the provider's controllers send a clickthrough only for a click inside the product's
// link (SC track.product.click: isClickWithinProductLink walks the click's path for an element whose href is
// the result's url) and an addtocart only from the add button (track.product.addToCart), so one click sends
// one of them. A handler on the whole tile (or an add button inside the link) sends both for a click on the
// add button: the service counts a click-through to a product the shopper never opened. Two clicks of a
// shopper, the link's and then the add button's, are further apart than SAME_CLICK_MS, and the link's
// navigates away (in an SPA its route replaces the tiles).
// What it exempts: a click and an add further apart than SAME_CLICK_MS (a shopper who came back to the
// list, or added from a quick view), a click and an add of different items, banner clicks, and events
// without an RFC 3339 timestamp.
import type { TimelineEvent } from '../model';
import { endpointOf } from '../../../../shared/kinds';
import { finding, list, defineRule, type RuleMeta, judgedIn, RESPONSE_KINDS } from './types';

/** faster than a shopper aims at a second element and clicks it: both came from one click's handlers */
const SAME_CLICK_MS = 300;

const meta: RuleMeta<'response'> = {
  id: 'click-with-add',
  judges: ['response'],
  title: 'One click sent a clickthrough and an add',
  description:
    'A clickthrough and an addtocart of the same item of one response created less than 300 ms apart: the provider’s client sends a clickthrough only for a click inside the product’s link and an add only from the add button, so one shopper click sent both (a click handler on the whole tile).',
  expects:
    'A click on the product’s link sends a clickthrough; a click on the add button sends an addtocart alone.',
  ...judgedIn(RESPONSE_KINDS, ['search.clickthrough']),
  defaultSeverity: 'warning',
  messages: {
    both: '{{pairs}} on responseId "{{responseId}}": {{count}} sent together by one click. The provider’s client sends a clickthrough only for a click inside the product’s link (isClickWithinProductLink) and an addtocart from the add button alone, so the add button’s click also reported a click-through to a product the shopper never opened.',
  },
  fix: 'Send the clickthrough from the product’s link only (as the provider’s track.product.click does), not from a click handler on the whole tile that the add button’s click reaches too.',
  fixes: {
    both: 'send {{clickthrough}} only for a click inside the product’s link (the provider’s track.product.click checks the click’s path); the add button sends {{addtocart}} alone.',
  },
  listens: ['clickthrough', 'addtocart'],
};

/** Does the add name the clicked item: its uid, or a variant of it (its parentId)? */
function sameItem(click: TimelineEvent, add: TimelineEvent): boolean {
  const c = click.results[0];
  if (!c || c.uid === '') return false;
  return add.results.some(
    (a) =>
      a.uid === c.uid ||
      (a.parentId !== undefined &&
        a.parentId !== '' &&
        (a.parentId === c.uid || a.parentId === c.parentId)),
  );
}

export const clickWithAdd = defineRule({
  meta,
  response(r) {
    const { clicks, carts } = r.facts;
    if (clicks.length === 0 || carts.length === 0) return [];
    const pairs: Array<[TimelineEvent, TimelineEvent]> = [];
    for (const c of clicks) {
      if (c.tsMs === null || c.banners.length > 0) continue;
      const add = carts.find(
        (a) => a.tsMs !== null && Math.abs(a.tsMs - c.tsMs!) < SAME_CLICK_MS && sameItem(c, a),
      );
      if (add) pairs.push([c, add]);
    }
    if (pairs.length === 0) return [];
    return [
      finding(
        meta,
        r.responseId,
        {
          messageId: 'both',
          data: {
            pairs: list(
              pairs.map(
                ([c, a]) =>
                  `clickthrough ${c.id} and addtocart ${a.id} of uid "${c.results[0]!.uid}" ${Math.abs(a.tsMs! - c.tsMs!)} ms apart`,
              ),
              3,
            ),
            responseId: r.responseId,
            count: pairs.length === 1 ? 'both' : 'each pair',
            clickthrough: endpointOf(r.kind, 'clickthrough'),
            addtocart: endpointOf(r.kind, 'addtocart'),
          },
        },
        pairs.flat().map((e) => e.id),
        { responseId: r.responseId },
      ),
    ];
  },
});
