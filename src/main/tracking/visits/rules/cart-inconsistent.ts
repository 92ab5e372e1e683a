// `cart-inconsistent`: a cart/add or cart/remove that contradicts its own cart (events.ts decides what).
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import type { VisitRule } from './types';

const meta: RuleMeta = {
  id: 'cart-inconsistent',
  title: 'Cart event contradicts itself',
  description:
    'A cart/add whose results are missing from (or larger than) its own cart, or a cart/remove whose removed item is still in the cart in the same or a larger quantity than the cart before it held. Quick adds, variants replacing their parent and an emptied cart before the order are normal.',
  expects:
    'results holds what changed (the added or removed quantity), cart the whole cart after the change.',
  appliesTo: ['cart'],
  guards: ['cart.ledger'],
  defaultSeverity: 'warning',
  fix: 'Send cart/add and cart/remove from the cart’s state after the change (the provider’s client does this from the page’s cart globals), with results = the difference only.',
  listens: ['cart/add', 'cart/remove'],
};

export const cartInconsistent: VisitRule = {
  meta,
  judges: 'visit',
  check(_page, ctx) {
    return ctx.accepted
      .filter((c) => c.cartIssue)
      .map((c) =>
        finding(
          meta,
          c.base.id,
          `${c.endpoint} ${c.base.id} ${c.cartIssue}. results should hold what changed and cart the whole cart after the change; personalization and the cart's credit read them. ` +
            `Fix: send cart events from the cart after the change (the provider's client compares the page's cart globals with the cart it stored).`,
          [c.base.id],
        ),
      );
  },
};
