import { PageBuilder, type RuleCases } from '../kit';

/** quick adds of `uid` on r1, one per quantity, 2 s apart */
function adds(qtys: Array<[uid: string, qty: number]>) {
  return () => {
    const p = new PageBuilder();
    return [
      p.render('r1', { at: 0 }),
      p.impression('r1', ['a', 'b'], { at: 1100 }),
      ...qtys.map(([uid, qty], i) =>
        p.event(
          'addtocart',
          {
            responseId: 'r1',
            results: [{ uid, parentId: uid, sku: `sku-${uid}`, qty, price: 19.99 }],
          },
          { at: 3000 + i * 2000 },
        ),
      ),
    ];
  };
}

export default {
  valid: [
    {
      name: 'three one-click adds of one product (qty 1 each)',
      events: adds([
        ['a', 1],
        ['a', 1],
        ['a', 1],
      ]),
    },
    {
      name: 'edge: two adds, 1 then 2 (a shopper who picked 2 the second time)',
      events: adds([
        ['a', 1],
        ['a', 2],
      ]),
    },
    {
      name: 'a run broken by another quantity (1, 2, 2)',
      events: adds([
        ['a', 1],
        ['a', 2],
        ['a', 2],
      ]),
    },
    {
      name: 'one more each time, but of two products (a 1, b 2, a 3)',
      events: adds([
        ['a', 1],
        ['b', 2],
        ['a', 3],
      ]),
    },
  ],
  invalid: [
    {
      name: 'the cart line’s running quantity sent as each add’s qty (1, 2, 3)',
      events: adds([
        ['a', 1],
        ['a', 2],
        ['a', 3],
      ]),
      findings: [
        {
          message:
            /uid "a" was quick-added 3 times in a row with qty 1, 2, 3 .*counts 6 units added where the shopper added 3/,
          fix: 'quantity that click added',
          events: [2, 3, 4],
        },
      ],
    },
    {
      name: 'edge: a line that held 1 already (2, 3, 4), another product’s add between',
      events: adds([
        ['a', 2],
        ['b', 1],
        ['a', 3],
        ['a', 4],
      ]),
      findings: [{ message: 'with qty 2, 3, 4', events: [2, 4, 5] }],
    },
  ],
} satisfies RuleCases;
