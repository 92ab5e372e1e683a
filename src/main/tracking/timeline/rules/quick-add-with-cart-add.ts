// `quick-add-with-cart-add` (error): a cart/add created with or just after a quick add (any */addtocart) of
// the same item on the same page load: the quick-add button sent both, and the provider counts the add
// twice.
//
// Why it is certain: every */addtocart adds its results to the client's stored cart and sends no cart/add
// of its own (B); the tracker sends cart/add only from its comparison of the page's cart globals, which
// runs once, synchronously in its constructor when the page loads (T), before the shopper can add
// anything on that page. So a cart/add created after a quick add of the same page load is the
// storefront's own call, and one within SAME_CLICK_MS of it, of the same item, answers the same click.
// What it exempts: a cart/add created before the quick add (the load's comparison), more than
// SAME_CLICK_MS after it (a later add of the item elsewhere on the page, which a direct cart.add may
// track), or of other items (uids compared).
import type { RecordedEvent } from '../../../../shared/events';
import { isObject } from '../../../../shared/values';
import { tallySlot } from './utils/tally-slot';
import type { Page } from '../page';
import { str } from '../../values';
import { dataOf, timeOf } from './utils/request-context';
import { finding, type RuleMeta, defineRule } from './types';

/** one click's quick add and a cart/add it also sent are created this close */
export const SAME_CLICK_MS = 1_000;
/** adds of each kind a page keeps (a listing page holds a few quick adds) */
const MAX_ADDS = 20;

const meta: RuleMeta<'page'> = {
  id: 'quick-add-with-cart-add',
  judges: ['page'],
  title: 'Quick add also sent as cart/add',
  description:
    'A cart/add created with or within 1 s after a quick add (addtocart) of the same item on the same page load: the add is counted twice.',
  expects:
    'A quick add sends its addtocart only: the client adds it to its stored cart, and the next page load’s cart comparison sends what the cart holds beyond it.',
  appliesTo: ['search', 'category', 'autocomplete', 'recommendations', 'bundles', 'cart'],
  guards: ['cart.quick-add-then-cart-add'],
  defaultSeverity: 'error',
  messages: {
    doubled:
      '{{cartAdd}} adds "{{uid}}" {{after}} ms after the quick add {{quickAdd}} of it on the same page load. The provider\'s client sends a quick add as addtocart only (it adds the item to its stored cart without a cart/add) and sends cart/add from the page\'s cart globals when a page loads, so this cart/add answers the same click: the provider counts the item added twice.',
  },
  fix: 'Send only the addtocart of the list the shopper added from (the provider’s controllers do); leave cart/add to the tracker’s comparison of the cart globals on the next page load.',
  listens: ['request'],
};

function uidsOf(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  const out: string[] = [];
  for (const item of list) {
    const uid = isObject(item) ? str(item.uid) : '';
    if (uid !== '' && !out.includes(uid) && out.length < MAX_ADDS) out.push(uid);
  }
  // kept as long as the page: a list of its exact length (one grown by push keeps room for 17)
  return out.slice();
}

/** A quick add or cart/add of the page, by id and time; uids are its items' uids. */
interface AddMark {
  id: string;
  time: number;
  uids: readonly string[];
}

interface QuickAndCartTally {
  quick: readonly AddMark[];
  cart: readonly AddMark[];
  /** the first cart/add created with or just after a quick add of the same item, and the item */
  pair?: { quick: AddMark; cart: AddMark; uid: string };
}

/** the page's first quick adds and cart/adds, and the first pair naming one item */
const quickAndCart = tallySlot<QuickAndCartTally>();

function pairOf(quick: AddMark, cart: AddMark) {
  const dt = cart.time - quick.time;
  if (dt < 0 || dt > SAME_CLICK_MS) return undefined;
  const uid = cart.uids.find((u) => quick.uids.includes(u));
  return uid === undefined ? undefined : { quick, cart, uid };
}

function tally(page: Page, rec: RecordedEvent): boolean {
  if (!rec.accepted) return false;
  const isQuick = rec.event === 'addtocart';
  if (!isQuick && !(rec.category === 'cart' && rec.event === 'add')) return false;
  const t = quickAndCart.make(page, () => ({ quick: [], cart: [] }));
  if (t.pair) return false;
  const own = isQuick ? t.quick : t.cart;
  if (own.length >= MAX_ADDS || own.some((m) => m.id === rec.id)) return false;
  const mark: AddMark = { id: rec.id, time: timeOf(rec), uids: uidsOf(dataOf(rec).results) };
  if (mark.uids.length === 0) return false;
  // a page keeps a few (MAX_ADDS) for as long as it is kept: lists of their exact length, copied at each
  if (isQuick) t.quick = t.quick.concat([mark]);
  else t.cart = t.cart.concat([mark]);
  for (const other of isQuick ? t.cart : t.quick) {
    const pair = isQuick ? pairOf(mark, other) : pairOf(other, mark);
    if (pair) {
      t.pair = pair;
      return true;
    }
  }
  return false;
}

export const quickAddWithCartAdd = defineRule({
  meta,
  tally,
  count: (page) => (quickAndCart.of(page)?.pair ? 1 : 0),
  page(page) {
    const pair = quickAndCart.of(page)?.pair;
    if (!pair) return [];
    return [
      finding(
        meta,
        pair.cart.id,
        {
          messageId: 'doubled',
          data: {
            cartAdd: pair.cart.id,
            quickAdd: pair.quick.id,
            uid: pair.uid,
            after: pair.cart.time - pair.quick.time,
          },
        },
        [pair.quick.id, pair.cart.id],
      ),
    ];
  },
});
