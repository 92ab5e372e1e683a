import { PAGED, PageBuilder, T0, issued, product, type RuleCases, visitPage } from '../kit';

/** a similar-products widget's response of two products */
/** a re-search of page 1's query on the same page: by a filter, or a new query */
const RESEARCH = (responseId: string, query: string) =>
  issued({
    responseId,
    query,
    issuedAt: T0 + 3500,
    results: [
      { uid: 'P104', sku: 'P104', parentId: 'P104', children: [] },
      { uid: 'P105', sku: 'P105', parentId: 'P105', children: [] },
    ],
  });
/** r1 rendered and impressed from `?q=shoes`, r2 rendered from `url` 4 s in, its tiles sent with r1's id */
const keptAfterResearch = (url: string) => () => {
  const p = new PageBuilder({ pageUrl: 'http://localhost:3000/search?q=shoes' });
  const q = new PageBuilder({ pageUrl: url });
  return [
    p.render('r1', { at: 0 }),
    p.impression('r1', ['P100', 'P101', 'P102', 'P103'], { at: 1200 }),
    q.render('r2', { at: 4000 }),
    q.impression('r1', ['P104', 'P105'], { at: 5200 }),
    q.click('r1', 'P104', { at: 7000 }),
  ];
};

const W1 = issued({
  responseId: 'w1',
  kind: 'recommendations',
  tag: 'similar',
  results: [
    { uid: 'P300', sku: 'P300', parentId: 'P300', children: [] },
    { uid: 'P301', sku: 'P301', parentId: 'P301', children: [] },
  ],
});

export default {
  valid: [
    {
      name: 'results and a variant of one',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.event(
            'impression',
            { responseId: 'r1', results: [product('P200'), product('2001', 'P200')], banners: [] },
            { at: 1200 },
          ),
        ];
      },
    },
    {
      name: 'an inline banner sent as a product is inline-banner-as-product’s',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.event(
            'impression',
            { responseId: 'r1', results: [product('rain-inline')], banners: [] },
            { at: 1200 },
          ),
        ];
      },
    },
    {
      name: 'infinite scroll done right: each tile clicked with the responseId of the page that delivered it',
      provenance: { companion: true, responses: PAGED.responses },
      events: PAGED.traffic((q) => [
        q.impression('r2', ['P104', 'P105'], { at: 5200 }),
        q.click('r1', 'P102', { at: 7000 }),
        q.click('r2', 'P104', { at: 9000 }),
      ]),
    },
    {
      name: 'an SPA’s page 2 done right: its tiles impressed and clicked with its own responseId',
      provenance: { companion: true, responses: PAGED.responses },
      events: PAGED.traffic((q) => [
        q.impression('r2', ['P104', 'P105'], { at: 5200 }),
        q.click('r2', 'P105', { at: 7000 }),
      ]),
    },
    {
      name: 'edge: a product both pages returned, clicked with page 2’s responseId',
      provenance: {
        companion: true,
        responses: [
          PAGED.responses[0]!,
          {
            ...PAGED.responses[1]!,
            results: [{ uid: 'P102', sku: 'P102', parentId: 'P102', children: [] }],
          },
        ],
      },
      events: PAGED.traffic((q) => [
        q.impression('r2', ['P102'], { at: 5200 }),
        q.click('r2', 'P102', { at: 7000 }),
      ]),
    },
  ],
  invalid: [
    {
      name: 'infinite scroll: page 1’s tile clicked with page 2’s responseId (the list’s current search)',
      provenance: { companion: true, responses: PAGED.responses },
      events: PAGED.traffic((q) => [
        q.impression('r2', ['P104', 'P105'], { at: 5200 }),
        q.event(
          'clickthrough',
          {
            responseId: 'r2',
            results: [{ type: 'product', uid: 'P102', parentId: 'P102', sku: '' }],
          },
          { at: 7000 },
        ),
      ]),
      findings: [
        {
          messageId: 'otherResponse',
          message:
            /uid "P102" in ev_\d+ \(a result of the earlier response "r1" \(search "shoes"\), the tile's own\)/,
          fix: "send each tile's events with the responseId of the response that delivered it",
          events: [4],
          responseId: 'r2',
          behaviour: 'search.tile-response',
          // it leads: click-under-other-response names the same click, and follows
          causedBy: null,
        },
      ],
    },
    {
      name: 'an SPA’s page 2 whose tiles keep page 1’s responseId',
      provenance: { companion: true, responses: PAGED.responses },
      events: PAGED.traffic((q) => [
        q.impression('r1', ['P104', 'P105'], { at: 5200 }),
        q.click('r1', 'P104', { at: 7000 }),
      ]),
      findings: [
        {
          messageId: 'otherResponse',
          message:
            'a result of the later response "r2" (search "shoes" (page 2)): a responseId kept from before it',
          fix: 'nor one kept from an earlier search',
          events: [3, 4],
          responseId: 'r1',
          behaviour: 'search.tile-response',
          causedBy: null,
        },
      ],
    },
    {
      name: 'a filter re-search whose tiles keep the first search’s responseId: the replaced response leads',
      provenance: { companion: true, responses: [PAGED.responses[0]!, RESEARCH('r2', 'shoes')] },
      events: keptAfterResearch('http://localhost:3000/search?q=shoes&filter.color=red'),
      findings: [{ messageId: 'otherResponse', events: [3, 4], causedBy: 'response-replaced' }],
    },
    {
      name: 'a new query whose tiles keep the first search’s responseId: the stale id leads',
      provenance: { companion: true, responses: [PAGED.responses[0]!, RESEARCH('r2', 'boots')] },
      events: keptAfterResearch('http://localhost:3000/search?q=boots'),
      findings: [{ messageId: 'otherResponse', events: [3, 4], causedBy: 'responseid-stale' }],
    },
    {
      name: 'edge: a result of a response of another page load is not this page’s tile (the uid is named)',
      provenance: {
        companion: true,
        responses: [PAGED.responses[0]!, { ...RESEARCH('r7', 'boots'), issuedAt: T0 - 60_000 }],
      },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['P104'], { at: 1200 })];
      },
      findings: [
        {
          messageId: 'notInResponse',
          // r7 was issued to no page load of this one: it never reached this page
          message:
            /uid "P104" in \S+ \(no response this page load rendered or asked for served it\)/,
          fix: 'take uid from the result',
          events: [1],
          behaviour: 'search.items-served',
        },
      ],
    },
    {
      name: 'a category page’s uid its response did not return: the category row, not search’s',
      provenance: {
        companion: true,
        responses: [
          issued({
            responseId: 'c1',
            kind: 'category',
            results: [{ uid: 'P200', sku: 'P200', parentId: 'P200', children: [] }],
          }),
        ],
      },
      events: () => {
        const p = new PageBuilder().as('category');
        return [p.render('c1', { at: 0 }), p.impression('c1', ['P999'], { at: 1200 })];
      },
      findings: [
        {
          messageId: 'notInResponse',
          message: '"P999"',
          events: [1],
          responseId: 'c1',
          behaviour: 'category.items-served',
        },
      ],
    },
    {
      name: 'a category listing’s click on a uid a later response this page load asked for served: a stale responseId of the category listing, named by its category',
      provenance: {
        companion: true,
        responses: [
          issued({
            responseId: 'c1',
            kind: 'category',
            query: '',
            bgfilters: ['bgfilter.category=Jackets'],
            results: [{ uid: 'P200', sku: 'P200', parentId: 'P200', children: [] }],
          }),
          {
            ...RESEARCH('c2', ''),
            kind: 'category' as const,
            bgfilters: ['bgfilter.category=Shoes'],
            requester: { userId: 'user-1', sessionId: 'session-1', pageLoadId: 'page-1' },
          },
        ],
      },
      events: () => {
        const p = new PageBuilder({ pageUrl: 'http://localhost:3000/c/jackets' }).as('category');
        return [
          p.render('c1', { at: 0 }),
          p.impression('c1', ['P200'], { at: 1200 }),
          p.click('c1', 'P104', { at: 5000 }),
        ];
      },
      findings: [
        {
          messageId: 'notInResponse',
          message:
            /was not in that response \(category "Jackets"\): uid "P104" in \S+ \(it is a result of a later response "c2" \(category "Shoes"\) this page load asked for: the page sent a stale responseId — use the responseId of the category listing whose results are shown\)/,
          events: [2],
          behaviour: 'category.items-served',
        },
      ],
    },
    {
      name: 'a widget rendering another widget’s responseId reports an item that response never served: it follows from the reuse',
      provenance: {
        companion: true,
        responses: [
          issued({
            responseId: 'w1',
            kind: 'recommendations',
            tag: 'similar',
            query: '',
            results: [{ uid: 'P201', sku: 'P201', parentId: 'P201', children: [] }],
          }),
        ],
      },
      events: () => {
        const p = new PageBuilder({ pageUrl: 'http://localhost:3000/products/p200' });
        const similar = p.as('recommendations', 'similar');
        const cart = p.as('recommendations', 'cart-recs');
        return [
          similar.render('w1', { at: 0 }),
          cart.render('w1', { at: 10 }),
          similar.impression('w1', ['P201'], { at: 1300 }),
          cart.impression('w1', ['P203'], { at: 1310 }),
        ];
      },
      findings: [
        {
          messageId: 'notInResponse',
          message: 'uid "P203"',
          events: [3],
          tag: 'cart-recs',
          causedBy: 'responseid-cross-kind',
        },
      ],
    },
    {
      name: 'a uid the response did not return',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['P999'], { at: 1200 })];
      },
      findings: [
        {
          messageId: 'notInResponse',
          message: '"P999"',
          fix: 'take uid from the result',
          events: [1],
          responseId: 'r1',
          behaviour: 'search.items-served',
        },
      ],
    },
    {
      name: 'a widget’s item its response did not serve names the widget’s behaviour',
      provenance: { companion: true, responses: [W1] },
      events: () => {
        const w = new PageBuilder({ pageLoadId: 'pdp' }).as('recommendations', 'similar');
        return [w.render('w1', { at: 0 }), w.impression('w1', ['P300', 'P999'], { at: 1200 })];
      },
      findings: [
        {
          messageId: 'notInResponse',
          message: '"P999"',
          events: [1],
          responseId: 'w1',
          behaviour: 'recommendations.events',
        },
      ],
    },
    {
      name: 'a carousel that puts the product the page shows first, impressed under the widget’s responseId',
      provenance: { companion: true, responses: [W1] },
      events: () => {
        const pdp = visitPage('pdp', { pageUrl: 'http://localhost:3000/products/p200' });
        const w = new PageBuilder({
          pageLoadId: 'pdp',
          pageUrl: 'http://localhost:3000/products/p200',
        }).as('recommendations', 'similar');
        return [
          pdp.product('P200', { at: 0 }),
          w.render('w1', { at: 300 }),
          w.impression('w1', ['P200', 'P300', 'P301'], { at: 1500 }),
        ];
      },
      findings: [
        {
          messageId: 'notInResponse',
          message: 'it is the product this page shows (its product/pageview',
          events: [2],
          responseId: 'w1',
        },
      ],
    },
  ],
} satisfies RuleCases;
