import { visitPage, type RuleCases } from '../kit';

const cartPage = () => visitPage('cart', { pageUrl: 'https://shop.example/cart' });
/** a cart line as a headless storefront's cart API gives it, not as the tracker reads it */
const storefrontLine = {
  merchandiseId: 'gid://shopify/ProductVariant/1020',
  quantity: 1,
  cost: { amountPerQuantity: { amount: '64.5' } },
};

export default {
  valid: [
    {
      name: 'another message the client logs (a deprecated call): not the cart globals',
      events: () => [
        cartPage().send('log/snap', { message: 'tracker.track.cart.view was called' }, { at: 0 }),
      ],
    },
    {
      name: 'cart globals the tracker can send: a cart/add, no log',
      events: () => [cartPage().cartAdd([{ uid: '1020' }], [{ uid: '1020' }], { at: 0 })],
    },
  ],
  invalid: [
    {
      name: 'cart globals in a cart API’s shape: the client logs that they miss properties',
      events: () => [
        cartPage().send(
          'log/snap',
          {
            message: 'cart globals missing properties',
            details: { cart: [storefrontLine, { ...storefrontLine, quantity: 2 }] },
          },
          { at: 0 },
        ),
      ],
      findings: [
        {
          message: 'none of the 2 items of this page’s cart globals has an id',
          fix: 'map each item of the cart globals to {uid',
          pageLoadId: 'cart',
          events: [0],
        },
      ],
    },
  ],
} satisfies RuleCases;
