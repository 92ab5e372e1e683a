import { visitPage, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'no vat (what the provider’s client sends)',
      events: () => [visitPage('thanks').order('o-1', [{ uid: 'a' }], { at: 0 })],
    },
    {
      name: 'vat as a rate',
      events: () => [visitPage('thanks').order('o-1', [{ uid: 'a' }], { at: 0 }, { vat: 0.2 })],
    },
  ],
  invalid: [
    {
      name: 'vat 20 for 20%',
      events: () => [visitPage('thanks').order('o-1', [{ uid: 'a' }], { at: 0 }, { vat: 20 })],
      findings: [{ message: 'has vat 20', fix: 'vat: 0.2', events: [0] }],
    },
  ],
} satisfies RuleCases;
