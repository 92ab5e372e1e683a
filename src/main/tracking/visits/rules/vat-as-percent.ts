// `vat-as-percent`: an order whose vat is above 1 — a percentage (20) where the OAS wants a rate (0.20).
// The provider's client never sends vat (only a direct beacon call does), so this is always a hand-made
// call. Exempt: no vat, or a rate from 0 to 1.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';

const meta: RuleMeta<'visit'> = {
  id: 'vat-as-percent',
  judges: ['visit'],
  title: 'VAT sent as a percentage',
  description:
    'An order/transaction whose vat is above 1 (20 for 20%), where the beacon spec takes the rate as a decimal (0.20).',
  expects: 'vat is a rate as a decimal value: 0.20 for 20%.',
  appliesTo: ['order'],
  guards: ['order.totals'],
  defaultSeverity: 'warning',
  messages: {
    percent:
      'order "{{orderId}}" ({{eventId}}) has vat {{vat}}: the spec takes a rate as a decimal (0.20 for 20%), so this reads as {{reads}}% and tax reports are off by 100×.',
  },
  fixes: {
    percent:
      "send vat: {{rate}} (the percentage divided by 100), or leave vat out as the provider's client does.",
  },
  fix: 'Divide the percentage by 100 (vat: 0.2), or leave vat out as the provider’s client does.',
  listens: ['order/transaction'],
};

export const vatAsPercent = defineRule({
  meta,
  visit(_page, ctx) {
    return ctx.accepted
      .filter((o) => o.endpoint === 'order/transaction' && o.vat !== null && o.vat > 1)
      .map((o) =>
        finding(
          meta,
          o.base.id,
          {
            messageId: 'percent',
            data: {
              orderId: o.orderId ?? '',
              eventId: o.base.id,
              vat: o.vat!,
              reads: Math.round(o.vat! * 100),
              rate: o.vat! / 100,
            },
          },
          [o.base.id],
        ),
      );
  },
});
