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
  ],
  invalid: [
    {
      name: 'the product-view script twice in the template: two pageviews per load',
      events: () => [
        page().product('1081', { at: 0 }, 'P108'),
        page().product('1081', { at: 400 }, 'P108'),
      ],
      findings: [
        {
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
      findings: [{ events: [0, 1] }],
    },
  ],
} satisfies RuleCases;
