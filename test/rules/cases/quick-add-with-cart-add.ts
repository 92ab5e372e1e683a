import { PageBuilder, visitPage, type RuleCases } from '../kit';

const URL = 'http://localhost:3000/c/tops';
const listing = () => new PageBuilder({ pageLoadId: 'pl-1', pageUrl: URL }).as('category');
const cartOf = () => visitPage('pl-1', { pageUrl: URL });
const quick = (uid: string, at: number) => listing().cart('r1', uid, { at });

export default {
  valid: [
    {
      name: 'quick adds only; the cart page’s comparison sends cart/add on its own page load',
      events: () => [
        listing().render('r1', { at: 0 }),
        listing().impression('r1', ['P103', 'P105'], { at: 1_200 }),
        quick('P105', 3_000),
        visitPage('pl-2').cartAdd([{ uid: 'P105' }], [{ uid: 'P105', qty: 2 }], { at: 6_000 }),
      ],
    },
    {
      name: 'edge: the load’s comparison (cart/add) before a quick add of the same item',
      events: () => [
        cartOf().cartAdd([{ uid: 'P105' }], [{ uid: 'P105' }], { at: 0 }),
        listing().render('r1', { at: 200 }),
        quick('P105', 900),
      ],
    },
    {
      name: 'edge: a cart/add of the item more than 1 s after its quick add',
      events: () => [
        listing().render('r1', { at: 0 }),
        quick('P105', 3_000),
        cartOf().cartAdd([{ uid: 'P105' }], [{ uid: 'P105', qty: 2 }], { at: 4_001 }),
      ],
    },
    {
      name: 'edge: a cart/add of another item with the quick add',
      events: () => [
        listing().render('r1', { at: 0 }),
        quick('P105', 3_000),
        cartOf().cartAdd([{ uid: 'P106' }], [{ uid: 'P105' }, { uid: 'P106' }], { at: 3_000 }),
      ],
    },
  ],
  invalid: [
    {
      name: 'the quick-add button also calls cart.add: sent at once, the queued addtocart after it',
      events: () => [
        listing().render('r1', { at: 0 }),
        listing().impression('r1', ['P103', 'P105'], { at: 1_200 }),
        cartOf().cartAdd([{ uid: 'P105' }], [{ uid: 'P105' }], { at: 3_000 }),
        quick('P105', 3_000),
      ],
      findings: [
        {
          data: { uid: 'P105', after: 0 },
          events: [2, 3],
          behaviour: 'cart.quick-add-then-cart-add',
        },
      ],
    },
    {
      name: 'edge: the cart/add 1 s after the quick add',
      events: () => [
        listing().render('r1', { at: 0 }),
        quick('P105', 3_000),
        cartOf().cartAdd([{ uid: 'P105' }], [{ uid: 'P105' }], { at: 4_000 }),
      ],
      findings: [{ data: { after: 1000 }, events: [1, 2] }],
    },
  ],
} satisfies RuleCases;
