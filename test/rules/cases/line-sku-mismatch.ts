import { R1, visitPage, type Line, type RuleCases } from '../kit';

/** P103 with variants 1030 and 1031; P105 and P106 simple products */
const catalog = {
  ids: ['P103', '1030', '1031', 'P105', 'P106'],
  skus: {
    'S-P103': 'P103',
    'S-1030': '1030',
    'S-1031': '1031',
    'S-P105': 'P105',
    'S-P106': 'P106',
  },
  parents: { '1030': 'P103', '1031': 'P103' },
};
const add = (lines: Line[], at = 0) => visitPage(`cart-${at}`).cartAdd(lines, lines, { at });
const bought = (lines: Line[], at = 0) => visitPage(`thanks-${at}`).order('o-1', lines, { at });

export default {
  valid: [
    {
      name: 'cart and order lines with their own skus: a product, a variant under its parent',
      provenance: { companion: false, catalog },
      events: () => [
        add([{ uid: 'P105', sku: 'S-P105' }]),
        add([{ uid: '1030', parentId: 'P103', sku: 'S-1030' }], 10_000),
        bought([{ uid: '1030', parentId: 'P103', sku: 'S-1030' }], 20_000),
      ],
    },
    {
      name: 'edge: a variant line that keeps its parent’s sku, and a parent line with a variant’s sku',
      provenance: { companion: false, catalog },
      events: () => [
        add([{ uid: '1031', parentId: 'P103', sku: 'S-P103' }]),
        add([{ uid: 'P103', sku: 'S-1030' }], 10_000),
      ],
    },
    {
      name: 'edge: a sku the catalog does not hold (a variant the feed does not list, another format)',
      provenance: { companion: false, catalog },
      events: () => [add([{ uid: 'P105', sku: 'NOPE-SKU' }])],
    },
    {
      name: 'edge: an order line without uid, sent as its sku (uid || parentId || sku): item-not-in-catalog names it',
      provenance: { companion: false, catalog },
      events: () => [bought([{ uid: 'S-P106', parentId: 'S-P106', sku: 'S-P106' }])],
    },
    {
      name: 'edge: an order line without uid sent as its parent, with the variant’s sku',
      provenance: { companion: false, catalog },
      events: () => [bought([{ uid: 'P103', parentId: 'P103', sku: 'S-1031' }])],
    },
    {
      name: 'no catalog and no issued responses: nothing to tell the skus by',
      events: () => [add([{ uid: 'P105', sku: 'S-P103' }])],
    },
  ],
  invalid: [
    {
      name: 'a cart line with the sku of another product',
      provenance: { companion: false, catalog },
      events: () => [add([{ uid: 'P105', sku: 'S-P106' }])],
      findings: [
        {
          messageId: 'otherProduct',
          message:
            'names uid "P105" with sku "S-P106", which the indexed catalog gives to product "P106".',
          fix: "give each item of the page's cart globals the sku of the product or variant its uid names.",
          behaviour: 'cart.items',
          events: [0],
        },
      ],
    },
    {
      name: 'edge: a variant line with the sku of its sibling, removed from the cart',
      provenance: { companion: false, catalog },
      events: () => [
        visitPage('cart').cartRemove([{ uid: '1030', parentId: 'P103', sku: 'S-1031' }], [], {
          at: 0,
        }),
      ],
      findings: [
        {
          messageId: 'otherProduct',
          message: 'gives to product "1031" (a variant of "P103")',
          events: [0],
        },
      ],
    },
    {
      name: 'an order line with the sku of another line',
      provenance: { companion: false, catalog },
      events: () => [
        bought([
          { uid: 'P105', sku: 'S-P105' },
          { uid: 'P106', sku: 'S-P105' },
        ]),
      ],
      findings: [
        {
          messageId: 'otherProduct',
          message: 'names uid "P106" with sku "S-P105"',
          fix: "give each item of the page's order script the sku",
          behaviour: 'order.transaction',
          events: [0],
        },
      ],
    },
    {
      name: 'no catalog: an order line given only its sku (uid = sku), a sku the issued response served for a variant: the uid is the fault',
      provenance: { companion: true, responses: [R1] },
      events: () => [bought([{ uid: 'P200-RED-L', parentId: 'P200-RED-L', sku: 'P200-RED-L' }])],
      findings: [
        {
          messageId: 'skuAsUid',
          message:
            'uid "P200-RED-L", the sku the search responses the companion issued give to product "2002"',
          fix: 'the uid of its product or variant (and its parentId), not only its sku',
          events: [0],
        },
      ],
    },
    {
      name: 'no catalog: an order with a line of another product’s sku and a line given only its sku: both named, the wrong sku first',
      provenance: { companion: true, responses: [R1] },
      events: () => [
        bought([
          { uid: '2001', parentId: 'P200', sku: 'P200-RED-L' },
          { uid: 'P200-RED-L', parentId: 'P200-RED-L', sku: 'P200-RED-L' },
        ]),
      ],
      findings: [
        {
          messageId: 'otherProduct',
          message:
            'names uid "2001" with sku "P200-RED-L", which the search responses the companion issued give to product "2002" (a variant of "P200"); uid "P200-RED-L", the sku',
          events: [0],
        },
      ],
    },
    {
      name: 'no catalog: a cart line with the sku the issued response served for its sibling variant',
      provenance: { companion: true, responses: [R1] },
      events: () => [add([{ uid: '2001', parentId: 'P200', sku: 'P200-RED-L' }])],
      findings: [
        {
          messageId: 'otherProduct',
          message: 'the search responses the companion issued give to product "2002"',
          events: [0],
        },
      ],
    },
  ],
} satisfies RuleCases;
