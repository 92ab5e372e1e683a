import { visitPage, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'cart/add with the added item in its cart',
      events: () => [visitPage('cart').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 0 })],
    },
    {
      name: 'the thank-you page empties the cart before the order',
      events: () => [visitPage('thanks').cartRemove([{ uid: 'a' }], [], { at: 0 })],
    },
  ],
  invalid: [
    {
      name: 'cart/add sent before the cart updated: its cart lacks the item',
      events: () => [visitPage('cart').cartAdd([{ uid: 'a' }], [{ uid: 'b' }], { at: 0 })],
      findings: [{ fix: 'after the change', events: [0] }],
    },
  ],
} satisfies RuleCases;
