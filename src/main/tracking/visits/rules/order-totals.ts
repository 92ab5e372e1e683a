// `order-totals`: an order's totals missing, or off from its lines by about 100× (cents against units).
// Gross mismatches only: the provider's own example has transactionTotal 75, total 100, lines 100.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import type { VisitEvent } from '../events';
import { money } from './types';

const meta: RuleMeta<'visit'> = {
  id: 'order-totals',
  judges: ['visit'],
  title: 'Order totals missing or wrong',
  description:
    'An order with priced lines whose transactionTotal or total is 0 or missing (the client sends a missing total as 0), or off from the lines by a factor of about 100 (cents against units). A discount, tax or shipping difference is not a finding: only gross mismatches are certain bugs.',
  expects:
    'transactionTotal is the amount before discounts, taxes and shipping, total after them, both in the currency unit the prices use.',
  appliesTo: ['order'],
  guards: ['order.totals'],
  defaultSeverity: 'error',
  messages: {
    totals:
      'order "{{orderId}}" ({{eventId}}): {{problems}}. transactionTotal is the amount before discounts, taxes and shipping, total after them (a discount is fine).',
  },
  fixes: {
    totals:
      'pass order.transactionTotal and order.total as numbers in the unit of the line prices.',
  },
  fix: 'Pass order.transactionTotal and order.total as numbers in the same unit as the line prices (12.5, not 1250).',
  listens: ['order/transaction'],
};

export const orderTotals = defineRule({
  meta,
  visit(_page, ctx) {
    const out = [];
    for (const o of ctx.accepted) {
      if (o.endpoint !== 'order/transaction') continue;
      const totals = totalsProblem(o);
      if (totals)
        out.push(
          finding(
            meta,
            o.base.id,
            {
              messageId: 'totals',
              data: { orderId: o.orderId ?? '', eventId: o.base.id, problems: totals },
            },
            [o.base.id],
          ),
        );
    }
    return out;
  },
});

function totalsProblem(o: VisitEvent): string | undefined {
  const priced = o.items.filter((l) => l.qty > 0 && l.price > 0);
  const sum = priced.reduce((s, l) => s + l.qty * l.price, 0);
  const tt = o.transactionTotal ?? 0;
  const total = o.total ?? 0;
  const problems: string[] = [];
  if (sum > 0) {
    for (const [name, value] of [
      ['transactionTotal', tt],
      ['total', total],
    ] as const) {
      if (value <= 0)
        problems.push(
          `${name} is ${value} while its lines add up to ${money(sum)} (the client sends a missing order.${name} as 0)`,
        );
      else if (value / sum >= 50)
        problems.push(
          `${name} ${money(value)} is about ${Math.round(value / sum)}× what its lines add up to (${money(sum)}) (likely a total in cents against prices in units)`,
        );
      else if (value / sum <= 0.02)
        problems.push(
          `${name} ${money(value)} is about 1/${Math.round(sum / value)} of what its lines add up to (${money(sum)}) (likely prices in cents against a total in units)`,
        );
    }
  } else if (o.items.length > 0 && tt > 0)
    problems.push(
      `none of its ${o.items.length} line${o.items.length === 1 ? '' : 's'} carries a price and quantity although transactionTotal is ${money(tt)} (the client sends a missing price as 0)`,
    );
  return problems.length > 0 ? problems.join('; ') : undefined;
}
