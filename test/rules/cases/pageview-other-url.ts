import { visitPage, type RuleCases } from '../kit';

const catalog = {
  ids: ['P1', 'P1-red', 'P2', 'P3'],
  skus: { 'SKU-P2': 'P2' },
  parents: { 'P1-red': 'P1' },
  urls: {
    P1: 'https://shop.example/products/jacket',
    'P1-red': 'https://shop.example/products/jacket?color=red',
    P2: '/products/boot/',
    P3: 'https://shop.example/products/b%C3%A9ret',
  },
};
const at = (path: string) => visitPage('product', { pageUrl: `http://localhost:5173${path}` });

export default {
  valid: [
    {
      name: 'the product at its URL (another origin than the feed’s)',
      provenance: { catalog },
      events: () => [at('/products/jacket').product('P1', { at: 0 })],
    },
    {
      name: 'a variant of the product at the URL (its parent names the page)',
      provenance: { catalog },
      events: () => [at('/products/jacket?color=red').product('P1-red', { at: 0 }, 'P1')],
    },
    {
      name: 'a relative feed URL with a trailing slash, the page without one',
      provenance: { catalog },
      events: () => [at('/products/boot').product('P2', { at: 0 })],
    },
    {
      name: 'a percent-encoded path, the page’s decoded',
      provenance: { catalog },
      events: () => [at('/products/béret').product('P3', { at: 0 })],
    },
    {
      name: 'a page whose path is no product’s URL (the storefront builds its own)',
      provenance: { catalog },
      events: () => [at('/p/123').product('P2', { at: 0 })],
    },
    {
      name: 'a product the catalog does not hold on a page that is no product’s URL (item-not-in-catalog names it)',
      provenance: { catalog },
      events: () => [at('/p/rain-shell').product('rain-shell', { at: 0 })],
    },
    {
      name: 'the product named by its sku only',
      provenance: { catalog },
      events: () => [
        at('/products/boot').send(
          'product/pageview',
          { result: { uid: 'SKU-P2', parentId: 'SKU-P2', sku: 'SKU-P2' } },
          { at: 0 },
        ),
      ],
    },
    {
      name: 'no catalog (an export carries none)',
      events: () => [at('/products/jacket').product('P2', { at: 0 })],
    },
  ],
  invalid: [
    {
      name: 'the page of the jacket sends the view of the boot',
      provenance: { catalog },
      events: () => [at('/products/jacket').product('P2', { at: 0 })],
      findings: [
        {
          messageId: 'otherProduct',
          message:
            'names "P2" / "sku-P2", but this page (http://localhost:5173/products/jacket) is the catalog\'s page of "P1"',
          fix: 'ids of the product the page shows',
          events: [0],
          behaviour: 'product.pageview',
        },
      ],
    },
    {
      name: 'the page of the jacket sends ids the catalog does not hold (its URL handle)',
      provenance: { catalog },
      events: () => [at('/products/jacket').product('jacket', { at: 0 })],
      findings: [
        {
          messageId: 'unknownAtPage',
          message:
            'names "jacket" / "sku-jacket", which the catalog does not hold, but this page (http://localhost:5173/products/jacket) is the catalog\'s page of "P1"',
          fix: 'feed\'s ids of the product the page shows ("P1" (and 1 more id of its product))',
          events: [0],
        },
      ],
    },
    {
      name: 'on a companion site too (the catalog is the search’s own)',
      provenance: { catalog, companion: true },
      events: () => [at('/products/boot/').product('P3', { at: 0 })],
      findings: [{ messageId: 'otherProduct', data: { atPage: '"P2"' } }],
    },
  ],
} satisfies RuleCases;
