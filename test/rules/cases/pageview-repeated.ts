import { visitPage, type RuleCases } from '../kit';

const P = 'http://localhost:3000/products/p108';
const page = (pageUrl = P) => visitPage('pl-1', { pageUrl });

export default {
  valid: [
    {
      name: 'one pageview per product page load',
      events: () => [page().product('1081', { at: 0 }, 'P108')],
    },
    {
      name: 'edge: a reload within 10 s keeps the pageLoadId and views the product again, 1 s later',
      events: () => [
        page().product('1081', { at: 0 }, 'P108'),
        page().product('1081', { at: 1_000 }, 'P108'),
      ],
    },
    {
      name: 'edge: an SPA’s product routes read by retarget(): another product at once',
      events: () => [
        page().product('1081', { at: 0 }, 'P108'),
        page('http://localhost:3000/products/p109').product('P109', { at: 300 }),
      ],
    },
    {
      name: 'edge: the same product at another URL (an SPA route back to it)',
      events: () => [
        page().product('1081', { at: 0 }, 'P108'),
        page(`${P}?color=red`).product('1081', { at: 300 }, 'P108'),
      ],
    },
    {
      name: 'edge: two products at one URL 1 s apart (not one pass of the tracker)',
      events: () => [
        page('http://localhost:3000/cart').product('P108', { at: 0 }),
        page('http://localhost:3000/cart').product('P109', { at: 1_000 }),
      ],
    },
    {
      name: 'edge: another product’s variant at another path (an SPA route)',
      events: () => [
        page().product('1081', { at: 0 }, 'P108'),
        page('http://localhost:3000/products/p109').product('1091', { at: 4_000 }, 'P109'),
      ],
    },
  ],
  invalid: [
    {
      name: 'a cart template with the product-view script per line: a pageview per product, at once',
      events: () => [
        page('http://localhost:3000/cart').product('P108', { at: 0 }),
        page('http://localhost:3000/cart').product('P109', { at: 2 }),
        page('http://localhost:3000/cart').product('P110', { at: 4 }),
      ],
      findings: [
        {
          messageId: 'severalProducts',
          message: 'views "P109" 2 ms after',
          fix: 'product pages only',
          events: [0, 1],
        },
      ],
    },
    {
      name: 'a swatch handler viewing the product again as the variant picked (the query changed)',
      events: () => [
        page().product('1081', { at: 0 }, 'P108'),
        page(`${P}?color=blue`).product('1082', { at: 4_000 }, 'P108'),
      ],
      findings: [
        {
          messageId: 'perVariant',
          message: 'both of product "P108"',
          fix: 'do not call it again when the shopper picks a variant',
          events: [0, 1],
        },
      ],
    },
    {
      name: 'the product-view script twice in the template: two pageviews per load',
      events: () => [
        page().product('1081', { at: 0 }, 'P108'),
        page().product('1081', { at: 400 }, 'P108'),
      ],
      findings: [
        {
          messageId: 'twice',
          data: { product: '1081', after: 400 },
          events: [0, 1],
          behaviour: 'product.pageview-per-load',
        },
      ],
    },
    {
      name: 'edge: at the same instant, the second arriving first',
      events: () => [
        page().product('P108', { at: 5 }),
        page().product('P108', { at: 5, recv: 20 }),
      ],
      findings: [{ messageId: 'twice', events: [0, 1] }],
    },
  ],
} satisfies RuleCases;
