import { PageBuilder, R1, visitPage, type RuleCases } from '../kit';

/** P108 with variants 1080 and 1081, P103 with 1030; P105 a simple product */
const catalog = {
  ids: ['P108', '1080', '1081', 'P103', '1030', 'P105'],
  parents: { '1080': 'P108', '1081': 'P108', '1030': 'P103' },
};
const view = (uid: string, parentId: string, at = 0) =>
  visitPage(`pdp-${at}`).send(
    'product/pageview',
    { result: { uid, parentId, sku: `S-${uid}` } },
    { at },
  );

export default {
  valid: [
    {
      name: 'a variant viewed as the tracker maps it: uid the variant, parentId its product',
      provenance: { companion: false, catalog },
      events: () => [view('1081', 'P108'), view('P105', 'P105', 10_000)],
    },
    {
      name: 'edge: a variant given by childSku alone keeps the product as uid and parentId',
      provenance: { companion: false, catalog },
      events: () => [view('P108', 'P108')],
    },
    {
      name: 'edge: a variant as a cart line whose globals gave no parentId (parentId = uid)',
      provenance: { companion: false, catalog },
      events: () => [
        visitPage('cart').cartAdd(
          [{ uid: '1030', parentId: '1030' }],
          [{ uid: '1030', parentId: '1030' }],
          { at: 0 },
        ),
      ],
    },
    {
      name: 'edge: an empty parentId (Snap sends "" for a result without a group)',
      provenance: { companion: false, catalog },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r9', { at: 0 }), p.cart('r9', '1081', { at: 2000 }, '')];
      },
    },
    {
      name: 'edge: ids the catalog does not relate (item-not-in-catalog names unknown ones)',
      provenance: { companion: false, catalog },
      events: () => [view('P108', 'zz-9'), view('zz-1', '1081', 10_000)],
    },
    {
      name: 'edge: a variant with a parentId the catalog does not hold (item-not-in-catalog names it)',
      provenance: { companion: false, catalog },
      events: () => [view('1081', 'P999')],
    },
    {
      name: 'edge: a companion site’s tiles are judged against the response (parentid-unclear)',
      provenance: { companion: true, catalog },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.cart('r1', 'P108', { at: 2000 }, '1081')];
      },
    },
    {
      name: 'no catalog: a variant the companion served, viewed as the tracker maps it',
      provenance: { companion: true, responses: [R1] },
      events: () => [view('2001', 'P200')],
    },
    {
      name: 'no catalog and nothing served of the product: nothing is known of its ids',
      provenance: { companion: true, responses: [R1] },
      events: () => [view('P108', '1081')],
    },
    {
      name: 'edge: without a catalog, cart lines are not read against what was served',
      provenance: { companion: true, responses: [R1] },
      events: () => [
        visitPage('cart').cartAdd(
          [{ uid: 'P200', parentId: '2001' }],
          [{ uid: 'P200', parentId: '2001' }],
          { at: 0 },
        ),
      ],
    },
  ],
  invalid: [
    {
      name: 'the product script of a variant page gives the variant’s id as uid, without its product',
      provenance: { companion: false, catalog },
      events: () => [view('1030', '1030')],
      findings: [
        {
          messageId: 'visitDisagree',
          message: 'while "1030" is a variant of "P103": the variant named without its product',
          fix: 'give the product script the product’s uid with the selected variant as childUid',
        },
      ],
    },
    {
      name: 'the product script of a variant swaps parentId and uid',
      provenance: { companion: false, catalog },
      events: () => [view('P108', '1081')],
      findings: [
        {
          messageId: 'visitDisagree',
          message:
            'uid "P108" with parentId "1081", a variant of "P108": uid and parentId are swapped',
          fix: 'childUid',
          events: [0],
          behaviour: 'product.pageview-ids',
        },
      ],
    },
    {
      name: 'no catalog: the swap, of a product the companion served with its variants',
      provenance: { companion: true, responses: [R1] },
      events: () => [view('P200', '2001')],
      findings: [
        {
          messageId: 'visitDisagree',
          message: 'by the results and variants the companion search served',
          events: [0],
        },
      ],
    },
    {
      name: 'an order line whose uid is a variant of another product than its parentId',
      provenance: { companion: false, catalog },
      events: () => [
        visitPage('thanks').order('o1', [{ uid: '1030', parentId: 'P108' }], { at: 0 }),
      ],
      findings: [
        {
          messageId: 'visitDisagree',
          message: 'while "1030" is a variant of "P103"',
          events: [0],
          behaviour: 'order.transaction',
        },
      ],
    },
    {
      name: 'a cart line with its ids swapped, in results and in cart',
      provenance: { companion: false, catalog },
      events: () => [
        visitPage('cart').cartAdd(
          [{ uid: 'P103', parentId: '1030' }],
          [{ uid: 'P103', parentId: '1030' }],
          { at: 0 },
        ),
      ],
      findings: [{ messageId: 'visitDisagree', events: [0], behaviour: 'cart.items' }],
    },
    {
      name: 'a quick add of a tile with its ids swapped, on a site that searches elsewhere',
      provenance: { companion: false, catalog },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r9', { at: 0 }), p.cart('r9', 'P108', { at: 2000 }, '1080')];
      },
      findings: [
        {
          messageId: 'disagree',
          message: 'uid and parentId are swapped',
          events: [1],
          behaviour: 'search.items-served',
        },
      ],
    },
  ],
} satisfies RuleCases;
