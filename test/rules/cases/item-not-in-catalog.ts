import { PageBuilder, visitPage, type RuleCases } from '../kit';

const catalog = { ids: ['a', 'b', 'P1'], skus: { 'SKU-B': 'b' } };

export default {
  valid: [
    {
      name: 'ids the catalog holds',
      provenance: { companion: false, catalog },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a', 'b'], { at: 1200 }),
          visitPage('pdp').product('P1', { at: 5000 }),
        ];
      },
    },
    {
      name: 'a companion site: tiles of its own responses are checked against what it served instead',
      provenance: { companion: true, catalog },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['zz'], { at: 1200 })];
      },
    },
    {
      name: 'the account turned the check off',
      provenance: { companion: false, catalogCheck: false, catalog },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['zz'], { at: 1200 })];
      },
    },
  ],
  invalid: [
    {
      name: 'a tile id the catalog does not hold',
      provenance: { companion: false, catalog },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['zz'], { at: 1200 })];
      },
      findings: [
        {
          messageId: 'notInCatalog',
          message: '"zz"',
          events: [1],
          behaviour: 'search.items-served',
        },
      ],
    },
    {
      name: 'a product page of a sku instead of the uid',
      provenance: { companion: false, catalog },
      events: () => [visitPage('pdp').product('SKU-B', { at: 0 })],
      findings: [
        {
          messageId: 'visitNotInCatalog',
          message: 'the sku of product "b"',
          fix: "feed's product ids",
          events: [0],
          behaviour: 'product.pageview',
        },
      ],
    },
    {
      name: 'a companion site: a product page and an order line the catalog does not hold',
      provenance: { companion: true, catalog },
      events: () => [
        visitPage('pdp').product('ghost', { at: 0 }),
        visitPage('thanks').order('o-1', [{ uid: 'ghost-2' }], { at: 30_000 }),
      ],
      findings: [
        {
          messageId: 'visitNotInCatalog',
          message: '"ghost"',
          pageLoadId: 'pdp',
          events: [0],
          behaviour: 'product.pageview',
        },
        {
          messageId: 'visitNotInCatalog',
          message: '"ghost-2"',
          pageLoadId: 'thanks',
          events: [1],
          behaviour: 'order.transaction',
        },
      ],
    },
    {
      name: 'a product page whose cart globals add an unknown item too: a finding per behaviour',
      provenance: { companion: false, catalog },
      events: () => {
        const pdp = visitPage('pdp');
        return [
          pdp.product('ghost', { at: 0 }),
          pdp.cartAdd([{ uid: 'ghost-2' }], [{ uid: 'ghost-2' }], { at: 10 }),
        ];
      },
      // the view's id is the product page's, the cart's the cart items': neither marks the other
      findings: [
        {
          messageId: 'visitNotInCatalog',
          message: '"ghost"',
          events: [0],
          behaviour: 'product.pageview',
        },
        {
          messageId: 'visitNotInCatalog',
          message: '"ghost-2"',
          events: [1],
          behaviour: 'cart.items',
        },
      ],
    },
  ],
} satisfies RuleCases;
