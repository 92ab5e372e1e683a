// A journey whose pages carry two URL parameters each, as one storefront writes them and as another (a
// router, a link built elsewhere) writes the same parameters in the other order; and the baseline file of
// its first order exactly as search-sandbox wrote it before pages were matched by their set of parameters
// (its pages and pageUrls keep the parameters as recorded): a baseline committed then must still match.
import type { Journey } from './journey';

const tile = (uid: string) => ({ type: 'product', uid, parentId: uid, sku: `sku-${uid}` });

/** Search `?q=jacket&page=1`, then the thank-you page `?order={ORDER}&key=abc`; `reordered`: the other order. */
export function paramsJourney(reordered = false): Journey {
  return [
    [
      {
        path: reordered ? '/search?page=1&q=jacket' : '/search?q=jacket&page=1',
        events: [
          { category: 'search', event: 'render', data: { responseId: 'R1' } },
          {
            category: 'search',
            event: 'impression',
            data: { responseId: 'R1', results: [tile('P103'), tile('P110')], banners: [] },
          },
        ],
      },
      {
        path: reordered
          ? '/checkout/thanks?key=abc&order={ORDER}'
          : '/checkout/thanks?order={ORDER}&key=abc',
        events: [
          {
            category: 'order',
            event: 'transaction',
            data: {
              orderId: 'ORDER',
              transactionTotal: 50,
              total: 56.5,
              results: [{ uid: '1030', parentId: 'P103', sku: 'sku-1030', qty: 2, price: 25 }],
            },
          },
        ],
      },
    ],
  ];
}

/** `paramsJourney()`'s baseline file as version 1 wrote it before, byte for byte. */
export const BASELINE_WITH_PARAMS_AS_RECORDED = `{
  "format": "search-sandbox-baseline",
  "version": 1,
  "sessions": [
    {
      "pages": [
        {
          "kind": "search",
          "page": "/search?q=jacket&page=1",
          "events": [
            {"context":{"initiator":"athos/beaconjs/1.3.0","pageUrl":"/search?q=jacket&page=1"},"data":{"responseId":"response 1"},"event":"search/render"},
            {"context":{"initiator":"athos/beaconjs/1.3.0","pageUrl":"/search?q=jacket&page=1"},"data":{"banners":[],"responseId":"response 1","results":[{"parentId":"P103","sku":"sku-P103","type":"product","uid":"P103"},{"parentId":"P110","sku":"sku-P110","type":"product","uid":"P110"}]},"event":"search/impression"}
          ]
        },
        {
          "kind": "order",
          "page": "/checkout/thanks?order={orderId}&key=abc",
          "events": [
            {"context":{"initiator":"athos/beaconjs/1.3.0","pageUrl":"/checkout/thanks?order={orderId}&key=abc"},"data":{"results":[{"parentId":"P103","price":25,"qty":2,"sku":"sku-1030","uid":"1030"}],"total":56.5,"transactionTotal":50},"event":"order/transaction"}
          ]
        }
      ]
    }
  ]
}
`;
