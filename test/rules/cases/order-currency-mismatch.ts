import { visitPage, type Line, type RuleCases } from '../kit';

const lines: Line[] = [
  { uid: '1010', parentId: 'P101', qty: 1, price: 149 },
  { uid: 'P102', qty: 2, price: 64.5 },
];
const eur = { currency: { code: 'EUR' } };
const usd = { currency: { code: 'USD' } };
/** the cart in `cart`'s currency, then the order of `order`'s lines in `currency` */
const cartThenOrder = (
  cartCurrency: Record<string, unknown> | undefined,
  orderLines: Line[],
  orderCurrency: Record<string, unknown> | undefined,
) => [
  visitPage('cart').cartAdd(lines, lines, {
    at: 0,
    ...(cartCurrency && { context: cartCurrency }),
  }),
  visitPage('thanks').order('100234', orderLines, {
    at: 60_000,
    ...(orderCurrency && { context: orderCurrency }),
  }),
];

export default {
  valid: [
    {
      name: 'the order in the cart’s currency',
      events: () => cartThenOrder(eur, lines, eur),
    },
    {
      name: 'a currency switch before paying: the order’s prices converted',
      events: () =>
        cartThenOrder(
          eur,
          lines.map((l) => ({ ...l, price: Math.round(l.price! * 108) / 100 })),
          usd,
        ),
    },
    {
      name: 'edge: one line converted, one at the cart’s price (a rounded price): converted',
      events: () => cartThenOrder(eur, [lines[0]!, { ...lines[1]!, price: 69.66 }], usd),
    },
    {
      name: 'a currency switch, then a cart event at converted prices, then the order in the new currency',
      events: () => {
        const usdLines = lines.map((l) => ({ ...l, price: Math.round(l.price! * 108) / 100 }));
        return [
          visitPage('pdp').cartAdd(lines, lines, { at: 0, context: eur }),
          visitPage('cart').cartAdd([usdLines[0]!], usdLines, { at: 30_000, context: usd }),
          visitPage('thanks').order('100234', usdLines, { at: 60_000, context: usd }),
        ];
      },
    },
    {
      name: 'the cart named no currency',
      events: () => cartThenOrder(undefined, lines, usd),
    },
    {
      name: 'the order names no currency',
      events: () => cartThenOrder(eur, lines, undefined),
    },
    {
      name: 'an order of products the cart never priced',
      events: () => cartThenOrder(eur, [{ uid: 'P900', qty: 1, price: 149 }], usd),
    },
  ],
  invalid: [
    {
      name: 'an EUR shop whose thank-you template writes USD: the cart’s EUR prices, unconverted',
      events: () => cartThenOrder(eur, lines, usd),
      findings: [
        {
          messageId: 'mismatch',
          message: 'names currency USD, but the visit’s cart events priced its products in EUR',
          fix: 'not a fixed code',
          pageLoadId: 'thanks',
          events: [0, 1],
        },
      ],
    },
    {
      name: 'the thank-you page’s own cart/remove carries the written code too: one finding, on the order',
      events: () => {
        const t = visitPage('thanks');
        return [
          visitPage('cart').cartAdd(lines, lines, { at: 0, context: eur }),
          t.cartRemove(lines, [], { at: 60_000, context: usd }),
          t.order('100234', lines, { at: 60_010, context: usd }),
        ];
      },
      findings: [{ messageId: 'mismatch', pageLoadId: 'thanks', events: [0, 2] }],
    },
    {
      name: 'a cart page whose template writes USD in an EUR shop: its cart event at the EUR prices',
      events: () => {
        const more = [{ ...lines[0]!, qty: 2 }, lines[1]!];
        return [
          visitPage('pdp').cartAdd(lines, lines, { at: 0, context: eur }),
          visitPage('cart').cartAdd([lines[0]!], more, { at: 30_000, context: usd }),
        ];
      },
      findings: [
        {
          messageId: 'cart',
          message: 'cart/add ev_',
          fix: 'on every page from the shop’s current currency',
          pageLoadId: 'cart',
        },
      ],
    },
  ],
} satisfies RuleCases;
