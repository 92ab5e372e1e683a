// `line-values-impossible`: cart and order lines with a quantity of 0 or less, or a negative price. The
// provider's client sends what the page's cart globals or order script hold (Number(qty), Number(price)),
// so such a line is the storefront's own arithmetic gone wrong: reports sum quantities and revenue.
// Exempt: a price of 0 (the client sends a missing price as 0; a free gift is 0 too).
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';

const meta: RuleMeta<'visit'> = {
  id: 'line-values-impossible',
  judges: ['visit'],
  title: 'A quantity or price no storefront means',
  description:
    'A cart/add, cart/remove or order/transaction line with qty 0 or less, or a negative price (a price of 0 is the client’s missing price, and a free gift: not a finding).',
  expects: 'Each line holds a quantity of at least 1 and its unit price (0 or more).',
  appliesTo: ['cart', 'order'],
  guards: ['cart.items', 'order.totals'],
  defaultSeverity: 'error',
  messages: {
    impossible:
      '{{endpoint}} {{eventId}} has {{lines}} no storefront means: {{shown}}. Quantities are 1 or more and prices 0 or more; the provider sums them into units sold and revenue.',
  },
  fixes: {
    impossible:
      "send qty as the number of units and price as the unit price (the page's cart globals or order script hold them).",
  },
  fix: 'Send qty as the number of units (1 or more) and price as the unit price; a removed line carries the quantity that left.',
  listens: ['cart/add', 'cart/remove', 'order/transaction'],
};

export const lineValuesImpossible = defineRule({
  meta,
  visit(_page, ctx) {
    const out = [];
    for (const v of ctx.accepted) {
      if (v.endpoint === 'product/pageview' || v.endpoint === 'shopper/login') continue;
      const bad = v.items.filter((l) => l.qty <= 0 || l.price < 0);
      if (bad.length === 0) continue;
      const lines = bad
        .slice(0, 5)
        .map((l) => `uid "${l.uid}" qty ${l.qty} price ${l.price}`)
        .join(', ');
      out.push(
        finding(
          meta,
          v.base.id,
          {
            messageId: 'impossible',
            data: {
              endpoint: v.endpoint,
              eventId: v.base.id,
              lines: bad.length === 1 ? 'a line' : `${bad.length} lines`,
              shown: `${lines}${bad.length > 5 ? ` and ${bad.length - 5} more` : ''}`,
            },
          },
          [v.base.id],
          // a cart item's quantity and price, or an order line's (what the order's totals are made of)
          { behaviour: v.endpoint === 'order/transaction' ? 'order.totals' : 'cart.items' },
        ),
      );
    }
    return out;
  },
});
