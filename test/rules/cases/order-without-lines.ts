import { visitPage, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'an order with its lines',
      events: () => [visitPage('thanks').order('o-1', [{ uid: 'a' }], { at: 0 })],
    },
    {
      name: 'edge: a free order (totals 0) still lists its line',
      events: () => [
        visitPage('thanks').order('o-2', [{ uid: 'a', price: 0 }], { at: 0 }, { tt: 0, total: 0 }),
      ],
    },
  ],
  invalid: [
    {
      name: 'totals but no lines (the thank-you template did not list the items)',
      events: () => [visitPage('thanks').order('o-1', [], { at: 0 }, { tt: 60, total: 75 })],
      findings: [{ message: 'total 75) has no lines', fix: 'list the order', events: [0] }],
    },
    {
      name: 'edge: no lines and no totals',
      events: () => [visitPage('thanks').order('o-3', [], { at: 0 })],
      findings: [{ message: 'has no lines', events: [0] }],
    },
  ],
} satisfies RuleCases;
