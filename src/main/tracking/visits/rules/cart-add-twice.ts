// `cart-add-twice` (warning): the add-to-cart handler ran twice for one click. The page before this one
// sent two identical cart/adds at one URL less than ADDED_TWICE_MS apart (no later cart event of it named
// their items), and this page, as it loaded, sent a cart/remove that took exactly that back: the page's
// cart globals never held the second.
//
// Why it is certain: the provider's beacon client sends a cart/add at once for each call (B events.cart.add
// → sendRequests, not the queue that merges quick adds), and its tracker compares the page's cart globals
// with the cart it stored at every page load, sending a cart/remove of what the stored cart holds beyond
// them (T constructor). So a second identical add a moment after the first, which the next page load's
// comparison removes at once, was never in the shop's cart: the storefront called the add twice. What it
// exempts: two quick adds a test's clicks can make (the shop's cart then holds both, and the next page
// removes nothing), adds ADDED_TWICE_MS or more apart, adds of other items or quantities or at another URL,
// a cart event between them and the removal, a removal more than CART_COMPARED_MS after its page began
// (the shopper's own), a next page load more than NEXT_PAGE_MS after the adds (a session's life: another
// visit's cart), and a page before it the timelines no longer hold.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { CART_COMPARED_MS, NEXT_PAGE_MS, pageLoadBefore } from './utils/page-before';
import { addedKey } from '../shown-on-page';
import { firstThree } from './types';

const meta: RuleMeta<'visit'> = {
  id: 'cart-add-twice',
  judges: ['visit'],
  title: 'One add to cart sent twice',
  description:
    'The page before sent two identical cart/add events at one URL less than 50 ms apart, and this page’s cart/remove as it loaded took exactly the second back: the add-to-cart handler is bound twice.',
  expects:
    'One cart/add per add to cart: the beacon client sends each call at once, and the tracker’s comparison of the cart globals at the next page load removes nothing the shop’s cart holds.',
  appliesTo: ['cart', 'product', 'visit'],
  guards: ['cart.ledger'],
  defaultSeverity: 'warning',
  messages: {
    twice:
      'cart/add {{second}} on the page before this one ({{pageUrl}}) added {{items}} again {{after}} ms after {{first}}, and this page’s cart/remove {{remove}}, sent as it loaded, took the same back: the shop’s cart never held the second. The provider’s beacon client sends a cart/add at once for each call, and its tracker removes at each page load what the stored cart holds beyond the page’s cart globals, so the add-to-cart handler ran twice for one click: the provider counts two adds of one.',
  },
  fixes: {
    twice:
      'call the provider’s cart add once per add to cart: bind the add-to-cart handler once (look for a second listener from the theme or an app, or one bound again on every render).',
  },
  fix: 'Call the provider’s cart add once per add to cart: bind the add-to-cart handler once (look for a second listener from the theme or an app, or one bound again on every render).',
  listens: ['cart/add', 'cart/remove'],
  needs: { visit: true },
};

export const cartAddTwice = defineRule({
  meta,
  visit(page, ctx) {
    const { accepted, visit } = ctx;
    if (!visit) return [];
    const cart = accepted.find((v) => v.endpoint === 'cart/add' || v.endpoint === 'cart/remove');
    if (!cart || cart.endpoint !== 'cart/remove') return [];
    const here = visit.pages.get(page.key);
    if (!here || cart.base.time - here.first > CART_COMPARED_MS) return [];
    // the page the shopper came from, where the adds were
    const came = pageLoadBefore(visit, page.key);
    if (!came) return [];
    const shown = ctx.shown(came.key);
    const twice = shown?.doubledAdd;
    if (!twice || twice.time > here.first || here.first - twice.time > NEXT_PAGE_MS) return [];
    if (addedKey(cart.items) !== twice.added) return [];
    return [
      finding(
        meta,
        cart.base.id,
        {
          messageId: 'twice',
          data: {
            first: twice.first,
            second: twice.second,
            pageUrl: shown.pageUrl,
            items: firstThree(twice.items),
            after: twice.after,
            remove: cart.base.id,
          },
        },
        [twice.first, twice.second, cart.base.id],
      ),
    ];
  },
});
