// `quick-add-qty` (warning): an addtocart (search, category, autocomplete, recommendations, bundles) with
// an item whose qty is below 1.
//
// Why it is certain: the provider's controllers send a quick add's items as `qty: qty || 1` (SC
// track.product.addToCart; the autocomplete and recommendation controllers the same), so a missing or
// zero quantity goes out as 1 and only a negative one could pass, which no storefront's quantity picker
// holds. The service accepts any integer, so only the traffic shows it: the provider's add-to-cart
// counts and the cart it stores (B adds the items to it) take the quantity as sent. What it exempts:
// items without a numeric qty (the schema names a missing one), and any quantity of 1 or more.
import type { RecordedEvent } from '../../../../shared/events';
import type { Page } from '../page';
import { str } from '../../values';
import { isObject } from '../../../../shared/values';
import { dataOf, timeOf } from './utils/request-context';
import {
  finding,
  type RuleMeta,
  defineRule,
  judgedIn,
  kindOwnBehaviour,
  RESPONSE_KINDS,
} from './types';
import type { TallyMark } from '../model';
import { tallySlot } from './utils/tally-slot';

const meta: RuleMeta<'page'> = {
  id: 'quick-add-qty',
  judges: ['page'],
  title: 'Quick add with a quantity below 1',
  description:
    'An addtocart whose item has a qty of 0 or less: the provider’s controllers send `qty || 1`.',
  expects:
    'A quick add carries a qty of at least 1 for each item (the controllers send 1 when none is given).',
  // each quick add is its controller's: the search page's, the category page's, the dropdown's, a widget's
  ...judgedIn(RESPONSE_KINDS, ['search.addtocart-qty']),
  defaultSeverity: 'warning',
  messages: {
    qty: '{{event}} adds "{{uid}}" with qty {{qty}}. The provider\'s controllers send a quick add\'s quantity as `qty || 1`, so a missing or zero quantity goes out as 1: with {{qty}}, the provider counts no unit added and its stored cart holds none of the item.',
  },
  fix: 'Send the quantity the shopper added (1 for a one-click add), as the provider’s controllers do with `qty || 1`.',
  listens: ['addtocart'],
};

/** the first accepted quick add with a quantity below 1: value is the item's uid */
const quickQty = tallySlot<TallyMark & { qty: number; category: string; tag: string }>();

function tally(page: Page, rec: RecordedEvent): boolean {
  if (!rec.accepted || rec.event !== 'addtocart' || quickQty.of(page)) return false;
  const results = dataOf(rec).results;
  if (!Array.isArray(results)) return false;
  for (const item of results) {
    if (!isObject(item) || typeof item.qty !== 'number' || item.qty >= 1) continue;
    const qty = item.qty;
    quickQty.make(page, () => ({
      id: rec.id,
      time: timeOf(rec),
      value: str(item.uid),
      qty,
      category: rec.category,
      tag: str(dataOf(rec).tag),
    }));
    return true;
  }
  return false;
}

export const quickAddQty = defineRule({
  meta,
  tally,
  count: (page) => (quickQty.of(page) ? 1 : 0),
  page(page) {
    const m = quickQty.of(page);
    if (!m) return [];
    // the controller's that sent it: the category controller's on a category page, a widget's (its row is
    // its tag's), the dropdown's; undefined: the search page's
    const behaviour = kindOwnBehaviour(m.category);
    const f = finding(
      meta,
      'qty',
      { messageId: 'qty', data: { event: m.id, uid: m.value, qty: m.qty } },
      [m.id],
      behaviour ? { behaviour } : {},
    );
    // a widget's add is its tag's row in readiness
    if (m.tag && (m.category === 'recommendations' || m.category === 'bundles')) f.tag = m.tag;
    return [f];
  },
});
