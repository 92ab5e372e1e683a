import { visitPage, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'ids as the tracker maps them: parentId = the product’s own id, a variant with its parent',
      events: () => [
        visitPage('pdp').product('1030', { at: 0 }, 'P103'),
        visitPage('cart').cartAdd([{ uid: 'a', parentId: 'a' }], [{ uid: 'a', parentId: 'a' }], {
          at: 10_000,
        }),
        visitPage('thanks').order('o-1', [{ uid: 'a', parentId: 'a' }], { at: 30_000 }),
      ],
    },
  ],
  invalid: [
    {
      name: 'a product page with an empty parentId',
      events: () => [visitPage('pdp').product('P1', { at: 0 }, '')],
      findings: [{ message: 'uid "P1" with an empty parentId', fix: 'parentId', events: [0] }],
    },
    {
      name: 'an order line with only a sku',
      events: () => [
        visitPage('thanks').order('o-1', [{ uid: '', parentId: '', sku: 'S-1' }], { at: 0 }),
      ],
      findings: [{ message: 'an empty uid beside sku "S-1"', events: [0] }],
    },
  ],
} satisfies RuleCases;
