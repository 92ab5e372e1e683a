import { PageBuilder, issued, quickAddAt, type RuleCases } from '../kit';

/**
 * What the sandbox issued for "rain": P200 at 49.99 with variants 2001 (its own price 54.99) and 2002 (none
 * of its own), P201 at 229, P202 with no price.
 */
const RAIN = issued({
  responseId: 'r1',
  results: [
    {
      uid: 'P200',
      sku: 'P200',
      parentId: 'P200',
      children: [
        { uid: '2001', sku: 'P200-RED-M', price: 54.99 },
        { uid: '2002', sku: 'P200-RED-L' },
      ],
      price: 49.99,
    },
    { uid: 'P201', sku: 'P201', parentId: 'P201', children: [], price: 229 },
    { uid: 'P202', sku: 'P202', parentId: 'P202', children: [] },
  ],
});

export default {
  valid: [
    {
      name: 'a quick add at the price its response served',
      provenance: { responses: [RAIN] },
      events: () => quickAddAt('P201', 229),
    },
    {
      name: 'edge: 0.004 off the price served (under half a cent)',
      provenance: { responses: [RAIN] },
      events: () => quickAddAt('P200', 49.994),
    },
    {
      name: 'the product’s uid at its variant’s price (the variant picked on the tile kept the product’s uid)',
      provenance: { responses: [RAIN] },
      events: () => quickAddAt('P200', 54.99),
    },
    {
      name: 'a variant at its product’s price (an older client sends the product’s fields)',
      provenance: { responses: [RAIN] },
      events: () => quickAddAt('2001', 49.99, { parentId: 'P200' }),
    },
    {
      name: 'a product the response served without a price: nothing to compare with',
      provenance: { responses: [RAIN] },
      events: () => quickAddAt('P202', 12),
    },
    {
      name: 'a uid the response did not serve (item-not-in-response’s)',
      provenance: { responses: [RAIN] },
      events: () => quickAddAt('P999', 12),
    },
    {
      name: 'a response the sandbox did not issue: nothing certain to compare with',
      provenance: { responses: [RAIN], companion: false },
      events: () => quickAddAt('P201', 199, { responseId: 'elsewhere' }),
    },
    {
      name: 'a quick add in cents (100×): price-unit-mismatch’s',
      provenance: { responses: [RAIN] },
      events: () => quickAddAt('P201', 22900),
    },
  ],
  invalid: [
    {
      name: 'a quick add at the compare-at price, above every price served',
      provenance: { responses: [RAIN] },
      events: () => quickAddAt('P201', 299),
      findings: [
        {
          messageId: 'otherPrice',
          message:
            /^1 item added with responseId "r1" is priced other than the response served it: uid "P201" in ev_\d+ \(at 299 where the response served it at 229\)\. .* compare-at \(list, msrp\) price/,
          fix: /^send the price of the result as the search response gave it/,
          events: [1],
          responseId: 'r1',
          behaviour: 'search.addtocart',
        },
      ],
    },
    {
      name: 'edge: 0.006 off the price served (over half a cent), below it: no compare-at note',
      provenance: { responses: [RAIN] },
      events: () => quickAddAt('P201', 228.994),
      findings: [
        {
          messageId: 'otherPrice',
          message:
            /served it at 229\)\. The provider's client .* not the product's price\. A storefront that converts/,
        },
      ],
    },
    {
      name: 'a quick add at 0 of a product the response priced',
      provenance: { responses: [RAIN] },
      events: () => quickAddAt('P201', 0),
      findings: [{ messageId: 'otherPrice', message: /at 0 where the response served it at 229/ }],
    },
    {
      name: 'a widget’s quick add at the line total of 2 (qty 2): its own controller’s behaviour',
      provenance: {
        responses: [{ ...RAIN, responseId: 'w1', kind: 'recommendations', tag: 'similar' }],
      },
      events: () => {
        const p = new PageBuilder().as('recommendations', 'similar');
        return [
          p.render('w1', { at: 0 }),
          p.event(
            'addtocart',
            {
              responseId: 'w1',
              tag: 'similar',
              results: [{ parentId: 'P200', uid: 'P200', sku: 'P200', qty: 2, price: 99.98 }],
            },
            { at: 3000 },
          ),
        ];
      },
      findings: [
        {
          messageId: 'otherPrice',
          message: /at 99\.98 where the response served it at one of 49\.99, 54\.99/,
          behaviour: 'recommendations.events',
        },
      ],
    },
  ],
} satisfies RuleCases;
