import { visitPage, type Line, type RuleCases } from '../kit';

const one: Line[] = [{ uid: '1010', parentId: 'P101', qty: 1, price: 40 }];
const two: Line[] = [{ uid: '1010', parentId: 'P101', qty: 2, price: 40 }];
const pdp = () => visitPage('pdp', { pageUrl: 'https://shop.example/products/p101' });
const cartPage = () => visitPage('cart', { pageUrl: 'https://shop.example/cart' });

/** the product page's two adds `apart` ms apart, the cart growing 1 → 2 */
const addedTwice = (apart: number) => {
  const p = pdp();
  return [p.cartAdd(one, one, { at: 0 }), p.cartAdd(one, two, { at: apart })];
};

export default {
  valid: [
    {
      name: 'a test clicking add twice at once: the shop’s cart holds both, and the next page removes nothing',
      events: () => [...addedTwice(0), cartPage().product('P900', { at: 4_000 })],
    },
    {
      name: 'edge: two adds 50 ms apart, the next page taking one back as it loads',
      events: () => [...addedTwice(50), cartPage().cartRemove(one, one, { at: 4_000 })],
    },
    {
      name: 'edge: the next page’s removal 1.001 s after it began (the shopper’s own)',
      events: () => {
        const c = cartPage();
        return [
          ...addedTwice(0),
          c.product('P900', { at: 4_000 }),
          c.cartRemove(one, one, { at: 5_001 }),
        ];
      },
    },
    {
      name: 'the next page removes another quantity (the shopper lowered it elsewhere)',
      events: () => [...addedTwice(0), cartPage().cartRemove(two, [], { at: 4_000 })],
    },
    {
      name: 'the page before lowered the doubled item itself after the pair (the shopper’s own): the next page’s removal is not the pair’s',
      events: () => {
        const p = pdp();
        return [
          ...addedTwice(0),
          p.cartRemove(one, one, { at: 2_000 }),
          cartPage().cartRemove(one, [], { at: 4_000 }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'the pair, then another product added on the same page: the next page’s comparison takes the extra back',
      events: () => {
        const p = pdp();
        const other: Line[] = [{ uid: 'P102', parentId: 'P102', qty: 1, price: 64.5 }];
        return [
          ...addedTwice(0),
          p.cartAdd(other, [...two, ...other], { at: 20 }),
          cartPage().cartRemove(one, [...one, ...other], { at: 4_000 }),
        ];
      },
      findings: [
        { message: 'added 1 × "1010" again 0 ms after', pageLoadId: 'cart', events: [0, 1, 3] },
      ],
    },
    {
      name: 'the add-to-cart handler bound twice: two identical adds at once, the next page’s comparison takes one back',
      events: () => [...addedTwice(0), cartPage().cartRemove(one, one, { at: 4_000 })],
      findings: [
        {
          message: 'added 1 × "1010" again 0 ms after',
          fix: 'bind the add-to-cart handler once',
          pageLoadId: 'cart',
          events: [0, 1, 2],
        },
      ],
    },
    {
      name: 'edge: 49 ms apart; the removal 1.0 s after its page began',
      events: () => {
        const c = cartPage();
        return [
          ...addedTwice(49),
          c.product('P900', { at: 4_000 }),
          c.cartRemove(one, one, { at: 5_000 }),
        ];
      },
      findings: [{ message: 'again 49 ms after', pageLoadId: 'cart', events: [0, 1, 3] }],
    },
  ],
} satisfies RuleCases;
