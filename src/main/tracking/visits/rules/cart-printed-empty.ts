// `cart-printed-empty` (warning): a page printed an empty cart for a shopper whose cart held items. The page
// before this one emptied the stored cart as it loaded (its first cart event, a cart/remove whose cart is
// empty, within CART_COMPARED_MS of its start), and this page, as it loaded, put exactly those items back:
// its first cart event a cart/add of the same items and quantities within CART_COMPARED_MS of its start
// (`restored`), or an order of exactly those lines with no cart event before it (`ordered`).
//
// Why it is certain: the provider's tracker compares the page's cart globals with the cart it stored once,
// as the page loads (T constructor). Globals that are an empty array while the stored cart holds items send
// a cart/remove of all of it with `cart: []`; the next page's globals that list items send a cart/add of
// what the stored cart lacks. A page without cart globals compares nothing. So a page load that removes
// everything, followed by a page load that adds back exactly what was removed, means the cart never changed
// between them: the first page printed an empty cart the shop did not hold (a full-page cache that stores
// the cart globals, or a template that prints an empty array). What it exempts: a page that viewed or
// impressed one of the removed items (the shopper may have put it back from that page: a product page's
// add, a tile's add the integration does not track), a page that sent an order after the removal (the
// thank-you page's cart globals are empty: the client's own), a later cart event of that page naming one of
// the items, a removal or a restoring add more than CART_COMPARED_MS after its page began (the shopper's
// own), a next page load more than NEXT_PAGE_MS after the removal, other items or quantities, and a page
// before it the timelines no longer hold. Not told apart: a shop whose cart page offers an "undo" that
// restores the whole cart in one step; the message names it.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { CART_COMPARED_MS, NEXT_PAGE_MS, pageLoadBefore } from './utils/page-before';
import { addedKey } from '../shown-on-page';
import { firstThree } from './types';

const meta: RuleMeta<'visit'> = {
  id: 'cart-printed-empty',
  judges: ['visit'],
  title: 'A page printed an empty cart',
  description:
    'The page before removed every item of the stored cart as it loaded (cart/remove with an empty cart), and this page, as it loaded, added exactly those items back or ordered exactly them: the page before printed cart globals that listed no item while the shop’s cart held them (a cached page, or a template that prints an empty cart).',
  expects:
    'The cart globals of every page are the shopper’s cart as the shop holds it (or absent): the tracker compares them with its stored cart at each page load, and an empty array removes everything.',
  appliesTo: ['cart', 'order', 'visit'],
  guards: ['cart.ledger'],
  defaultSeverity: 'warning',
  messages: {
    restored:
      'cart/remove {{remove}} on the page before this one ({{pageUrl}}) emptied the cart as that page loaded, and this page’s cart/add {{add}}, sent as it loaded, added exactly the same back ({{items}}): the shop’s cart held them all along. The provider’s tracker compares a page’s cart globals with the cart it stored each time a page loads, so the page before printed an empty cart for a shopper who had one: a full-page cache served a copy with the cart globals in it, or its template prints an empty cart. The provider counts removals and adds the shopper never made, and personalization reads an empty cart. (A cart page whose “undo” restores the whole cart in one step looks the same.)',
    ordered:
      'cart/remove {{remove}} on the page before this one ({{pageUrl}}) emptied the cart as that page loaded, and this page’s order {{add}} bought exactly those items ({{items}}) with no cart event between: the shop’s cart held them all along. The provider’s tracker compares a page’s cart globals with the cart it stored each time a page loads, so the page before printed an empty cart for a shopper who had one: a full-page cache served a copy with the cart globals in it, or its template prints an empty cart. The provider counts a cart emptied before the order that bought it.',
  },
  fixes: {
    restored:
      'keep the cart globals out of cached pages: print them only in pages rendered for this shopper, or fill them from the shop’s cart in the browser; a page that cannot know the cart should print none (the tracker then compares nothing).',
    ordered:
      'keep the cart globals out of cached pages: print them only in pages rendered for this shopper, or fill them from the shop’s cart in the browser; a page that cannot know the cart should print none (the tracker then compares nothing).',
  },
  fix: 'Keep the cart globals out of cached pages: print them only in pages rendered for this shopper, or fill them from the shop’s cart in the browser; a page that cannot know the cart should print none.',
  listens: ['cart/add', 'cart/remove', 'order/transaction'],
  needs: { visit: true },
};

export const cartPrintedEmpty = defineRule({
  meta,
  visit(page, ctx) {
    const { accepted, visit } = ctx;
    if (!visit) return [];
    const first = accepted.find(
      (v) =>
        v.endpoint === 'cart/add' ||
        v.endpoint === 'cart/remove' ||
        v.endpoint === 'order/transaction',
    );
    if (!first || first.endpoint === 'cart/remove') return [];
    const here = visit.pages.get(page.key);
    if (!here) return [];
    const ordered = first.endpoint === 'order/transaction';
    if (!ordered && first.base.time - here.first > CART_COMPARED_MS) return [];
    // the page the shopper came from, which emptied the cart as it loaded
    const came = pageLoadBefore(visit, page.key);
    if (!came) return [];
    const shown = ctx.shown(came.key);
    const emptied = shown?.emptiedCart;
    if (!emptied || emptied.time - came.entry.first > CART_COMPARED_MS) return [];
    if (emptied.time > here.first || here.first - emptied.time > NEXT_PAGE_MS) return [];
    // the shopper may have put an item back from that page itself
    if (emptied.ids.some((id) => shown.viewed(id) || shown.impressed(id))) return [];
    if (addedKey(first.items) !== emptied.removed) return [];
    return [
      finding(
        meta,
        first.base.id,
        {
          messageId: ordered ? 'ordered' : 'restored',
          data: {
            remove: emptied.remove,
            pageUrl: shown.pageUrl,
            add: ordered ? `"${first.orderId ?? ''}" (${first.base.id})` : first.base.id,
            items: firstThree(emptied.items),
          },
        },
        [emptied.remove, first.base.id],
      ),
    ];
  },
});
