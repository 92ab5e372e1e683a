import { visitPage, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'an order with its number',
      events: () => [visitPage('thanks').order('o-1', [{ uid: 'a' }], { at: 0 })],
    },
  ],
  invalid: [
    {
      name: 'a thank-you page that never set order.id',
      events: () => [visitPage('thanks').order('', [{ uid: 'a' }], { at: 0 })],
      findings: [{ message: 'orderId ""', fix: 'set order.id', events: [0] }],
    },
  ],
} satisfies RuleCases;
