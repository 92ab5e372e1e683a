// `order-totals`: an order's totals missing, or off from its lines by about 100× (cents against units).
// Gross mismatches only: the provider's own example has transactionTotal 75, total 100, lines 100. Which
// side is in cents decides the fix: totals about 100× the lines are totals in cents (`totals`); lines about
// 100× every total sent are line prices in cents (`linePrices`), the bug price-unit-mismatch names when the
// visit's cart (or a quick add, or the catalog) priced the same lines, so that finding, when there is one on
// the same order, leads and this one follows from it. A missing total (0) is a bug of its own, never one
// that follows from the lines' prices. Lines without any price while transactionTotal is set are the lines'
// bug (`unpriced`).
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
    'An order with priced lines whose transactionTotal or total is 0 or missing (the client sends a missing total as 0), or off from the lines by a factor of about 100 (cents against units): totals about 100× the lines are totals in cents, lines about 100× every total sent are line prices in cents (following from price-unit-mismatch when the visit’s cart, a quick add or the catalog priced the same lines). A discount, tax or shipping difference is not a finding: only gross mismatches are certain bugs.',
  expects:
    'transactionTotal is the amount before discounts, taxes and shipping, total after them, both in the currency unit the prices use.',
  appliesTo: ['order'],
  guards: ['order.totals'],
  // line prices in cents: the line's price against the cart's (or the catalog's) names it first
  explainedBy: ['price-unit-mismatch'],
  explainedMessages: ['linePrices'],
  defaultSeverity: 'error',
  messages: {
    totals:
      'order "{{orderId}}" ({{eventId}}): {{problems}}. transactionTotal is the amount before discounts, taxes and shipping, total after them (a discount is fine).',
    linePrices:
      'order "{{orderId}}" ({{eventId}}): its lines add up to {{sum}}, {{against}} (likely line prices in cents against totals in units). Revenue reports read Σ qty × price of the lines.',
    unpriced:
      'order "{{orderId}}" ({{eventId}}): none of its {{lines}} carries a price and quantity although transactionTotal is {{transactionTotal}} (the client sends a missing price as 0). Revenue reports read Σ qty × price of the lines.',
  },
  fixes: {
    totals:
      'pass order.transactionTotal and order.total as numbers in the unit of the line prices.',
    linePrices:
      "send each line's unit price in the unit of order.transactionTotal and order.total, the currency unit (divide cents by 100 in the order script), not the totals in cents.",
    unpriced:
      'give each item of the athos/track/order/transaction script its unit price and qty as numbers, in the unit of the totals (items: [{uid, parentId, sku, qty, price}]).',
  },
  fix: 'Pass order.transactionTotal, order.total and each line’s unit price as numbers in one unit, the currency unit (12.5, not 1250).',
  listens: ['order/transaction'],
};

export const orderTotals = defineRule({
  meta,
  visit(_page, ctx) {
    const out = [];
    for (const o of ctx.accepted) {
      if (o.endpoint !== 'order/transaction') continue;
      const { problems, linePrices, unpriced } = totalsProblems(o);
      const data = { orderId: o.orderId ?? '', eventId: o.base.id };
      if (unpriced)
        out.push(
          finding(meta, o.base.id, { messageId: 'unpriced', data: { ...data, ...unpriced } }, [
            o.base.id,
          ]),
        );
      if (problems.length > 0)
        out.push(
          finding(
            meta,
            o.base.id,
            { messageId: 'totals', data: { ...data, problems: problems.join('; ') } },
            [o.base.id],
          ),
        );
      if (linePrices)
        out.push(
          finding(
            meta,
            `${o.base.id}:lines`,
            { messageId: 'linePrices', data: { ...data, ...linePrices } },
            [o.base.id],
          ),
        );
    }
    return out;
  },
});

type Named = readonly [name: 'transactionTotal' | 'total', value: number];

/** How a total compares with the lines' sum: about 100× (`high`), about 1/100 (`low`), or near it. */
function scale(value: number, sum: number): 'missing' | 'high' | 'low' | 'near' {
  if (value <= 0) return 'missing';
  if (value / sum >= 50) return 'high';
  return value / sum <= 0.02 ? 'low' : 'near';
}

/**
 * What is wrong with the order's totals (`problems`, one clause each), and, when the lines add up to about
 * 100× every total sent, the lines' prices (`linePrices`): a total the lines are 100× of while the other
 * agrees with them (or is 100× of them) is the odd one, and a problem of the totals.
 */
function totalsProblems(o: VisitEvent): {
  problems: string[];
  linePrices?: { sum: string; against: string };
  /** no line carries a price while transactionTotal is set: the lines are the fix */
  unpriced?: { lines: string; transactionTotal: string };
} {
  const priced = o.items.filter((l) => l.qty > 0 && l.price > 0);
  const sum = priced.reduce((s, l) => s + l.qty * l.price, 0);
  const tt = o.transactionTotal ?? 0;
  const problems: string[] = [];
  if (sum <= 0) {
    const n = o.items.length;
    if (n === 0 || tt <= 0) return { problems };
    return {
      problems,
      unpriced: { lines: `${n} line${n === 1 ? '' : 's'}`, transactionTotal: money(tt) },
    };
  }
  const totals: Named[] = [
    ['transactionTotal', tt],
    ['total', o.total ?? 0],
  ];
  const scales = totals.map(([, value]) => scale(value, sum));
  const sent = scales.filter((s) => s !== 'missing');
  const linesOff = sent.length > 0 && sent.every((s) => s === 'low');
  const against: string[] = [];
  totals.forEach(([name, value], i) => {
    const s = scales[i];
    if (s === 'missing')
      problems.push(
        `${name} is ${value} while its lines add up to ${money(sum)} (the client sends a missing order.${name} as 0)`,
      );
    else if (s === 'high')
      problems.push(
        `${name} ${money(value)} is about ${Math.round(value / sum)}× what its lines add up to (${money(sum)}) (likely a total in cents against prices in units)`,
      );
    else if (s === 'low' && linesOff)
      against.push(`about ${Math.round(sum / value)}× its ${name} ${money(value)}`);
    else if (s === 'low')
      problems.push(
        `${name} ${money(value)} is about 1/${Math.round(sum / value)} of what its lines add up to (${money(sum)}), which the other total is not (a total in another unit than the line prices)`,
      );
  });
  return {
    problems,
    ...(linesOff && { linePrices: { sum: money(sum), against: against.join(' and ') } }),
  };
}
