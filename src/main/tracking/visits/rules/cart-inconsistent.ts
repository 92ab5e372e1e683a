// `cart-inconsistent`: a cart/add or cart/remove that contradicts its own cart (events.ts decides what).
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { cartProblems } from '../cart-issue';
import type { VisitEvent } from '../events';

const meta: RuleMeta<'visit'> = {
  id: 'cart-inconsistent',
  judges: ['visit'],
  title: 'Cart event contradicts itself',
  description:
    'A cart event that breaks the cart’s ledger: after a cart/add the cart is the one before plus what it added, after a cart/remove the one before minus what it removed; an item lost or gained with no cart event of it (a quick-added item missing from the cart sent next), a quantity raised by another amount than results say, a removal of what no cart held. Quick adds, variants replacing their parent, a quick-added item stored without a parentId that the cart globals list with one (added and removed in one comparison: the client keys a line by parentId, uid and sku) and an emptied cart before the order are normal, and so is the loss (or gain) of an item a cart/remove (cart/add) the service rejected named since the last accepted cart event: the client stored that event’s cart all the same, and the rejected event’s own finding names the mistake.',
  expects:
    'results holds what changed (the added or removed quantity), cart the whole cart after the change.',
  appliesTo: ['cart'],
  guards: ['cart.ledger', 'cart.quick-add-then-cart-add'],
  defaultSeverity: 'warning',
  messages: {
    inconsistent:
      "{{endpoint}} {{eventId}} {{problems}}. results should hold what changed and cart the whole cart after the change; personalization and the cart's credit read them.",
  },
  fixes: {
    inconsistent:
      "send cart events from the cart after the change (the provider's client compares the page's cart globals with the cart it stored).",
  },
  fix: 'Send cart/add and cart/remove from the cart’s state after the change (the provider’s client does this from the page’s cart globals), with results = the difference only.',
  listens: ['cart/add', 'cart/remove'],
};

/**
 * The finding of a cart event's problems of one behaviour: its ledger's (the cart before, plus or minus
 * what it names), or what quick adds since the last cart event put in the stored cart (an event of no
 * quick add never breaks `cart.quick-add-then-cart-add`). An event with both has a finding of each; the
 * ledger's keeps the event's key.
 */
function inconsistent(
  c: VisitEvent,
  problems: readonly string[],
  behaviour: 'cart.ledger' | 'cart.quick-add-then-cart-add',
  key: string,
) {
  const shown =
    problems.slice(0, 3).join('; ') +
    (problems.length > 3 ? `; and ${problems.length - 3} more` : '');
  return finding(
    meta,
    key,
    {
      messageId: 'inconsistent',
      data: { endpoint: c.endpoint, eventId: c.base.id, problems: shown },
    },
    [c.base.id],
    { behaviour },
  );
}

export const cartInconsistent = defineRule({
  meta,
  visit(_page, ctx) {
    return ctx.accepted.flatMap((c) => {
      const { ledger, quickAdd } = cartProblems(c, ctx.accepted);
      const out = [];
      if (ledger.length > 0) out.push(inconsistent(c, ledger, 'cart.ledger', c.base.id));
      if (quickAdd.length > 0)
        out.push(
          inconsistent(
            c,
            quickAdd,
            'cart.quick-add-then-cart-add',
            ledger.length > 0 ? `${c.base.id}:quick-add` : c.base.id,
          ),
        );
      return out;
    });
  },
});
