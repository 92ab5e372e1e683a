import { PageBuilder, T0, issued, visitPage, type RuleCases } from '../kit';

/** r1 asked for by page load a (nothing of it sent there), then rendered on page load b `after` ms later */
const askedByA = (o: { test: boolean; dev: boolean; after: number; sessionId?: string }) => ({
  provenance: {
    companion: true,
    responses: [
      issued({
        responseId: 'r1',
        test: o.test,
        issuedAt: T0,
        requester: { userId: 'user-1', sessionId: o.sessionId ?? 'session-1', pageLoadId: 'a' },
      }),
    ],
  },
  events: () => {
    const b = new PageBuilder({ pageLoadId: 'b', dev: o.dev });
    return [b.render('r1', { at: o.after, recv: o.after })];
  },
});

/** a listing's tile impressed, then its product page: a pageview, and the tile's click `after` ms after it */
const clickFromPdp = (after: number) => () => {
  const list = new PageBuilder({ pageLoadId: 'list' });
  const pdp = new PageBuilder({ pageLoadId: 'pdp', pageUrl: 'http://localhost:3000/products/x' });
  return [
    list.render('r1', { at: 0 }),
    list.impression('r1', ['x'], { at: 1200 }),
    visitPage('pdp', { pageUrl: 'http://localhost:3000/products/x' }).send(
      'product/pageview',
      { result: { uid: 'x', parentId: 'x', sku: 'x' } },
      { at: 5000 },
    ),
    pdp.click('r1', 'x', { at: 5000 + after }),
  ];
};

/** a search rendered on page a, then the same search rendered again on page b `after` ms later */
const revisit = (dev: boolean, after: number) => () => {
  const a = new PageBuilder({ pageLoadId: 'a', dev });
  const b = new PageBuilder({ pageLoadId: 'b', dev });
  return [
    a.render('r1', { at: 0 }),
    a.impression('r1', ['x'], { at: 1200 }),
    b.render('r1', { at: after }),
    b.impression('r1', ['x'], { at: after + 1200 }),
  ];
};

export default {
  valid: [
    {
      name: 'each page its own responseId',
      events: () => {
        const a = new PageBuilder({ pageLoadId: 'a' });
        const b = new PageBuilder({
          pageLoadId: 'b',
          pageUrl: 'http://localhost:3000/search?q=boots',
        });
        return [
          a.render('r1', { at: 0 }),
          a.impression('r1', ['x'], { at: 1200 }),
          b.render('r2', { at: 5000 }),
          b.impression('r2', ['y'], { at: 6200 }),
        ];
      },
    },
    {
      name: 'production: back to the same search within the cache’s 5 minutes renders the cached id',
      events: revisit(false, 4 * 60_000),
    },
    {
      name: 'asked by another page load, rendered here in production within 6 minutes (the cache may serve it)',
      ...askedByA({ test: false, dev: false, after: 6 * 60_000 }),
    },
    {
      name: 'asked by another session’s page load (responseid-other-visitor names it)',
      ...askedByA({ test: true, dev: true, after: 1000, sessionId: 'session-9' }),
    },
  ],
  invalid: [
    {
      name: 'asked by another page load in development mode (no cache), rendered here',
      ...askedByA({ test: true, dev: true, after: 1000 }),
      findings: [
        {
          messageId: 'askedElsewhere',
          message:
            'was asked for by page load a (its URL unknown), yet this page load (http://localhost:3000/search?q=shoes) sends it in 1 event: ev_',
          data: {
            why: "in development mode, where the provider's client does not cache responses",
          },
          fix: 'the search this page load made',
          behaviour: 'search.response-bound',
        },
      ],
    },
    {
      name: 'asked by another page load in production, rendered here 6 minutes and 1 ms later',
      ...askedByA({ test: false, dev: false, after: 6 * 60_000 + 1 }),
      findings: [{ messageId: 'askedElsewhere', message: "past the client's 5-minute cache" }],
    },
    {
      name: 'development: the same search rendered again with the same id (the cache is off)',
      events: revisit(true, 30_000),
      findings: [
        {
          messageId: 'reused',
          message: 'development mode',
          pageLoadId: 'b',
          responseId: 'r1',
          // the same search, which no cache serves in development: the cached render's
          behaviour: 'search.render-cached',
        },
      ],
    },
    {
      name: 'production: the same id rendered 20 minutes later (past the cache’s 5 minutes)',
      events: revisit(false, 20 * 60_000),
      findings: [
        {
          messageId: 'reused',
          message: '20 minutes earlier',
          pageLoadId: 'b',
          responseId: 'r1',
          behaviour: 'search.render-cached',
        },
      ],
    },
    {
      name: 'a stored responseId sent again from another page',
      events: () => {
        const a = new PageBuilder({ pageLoadId: 'a' });
        const b = new PageBuilder({
          pageLoadId: 'b',
          pageUrl: 'http://localhost:3000/products/boot',
        });
        return [
          a.render('r1', { at: 0 }),
          a.impression('r1', ['x'], { at: 1200 }),
          b.render('r1', { at: 5000 }),
          b.impression('r1', ['y'], { at: 6200 }),
        ];
      },
      // another search's response: copied, which only the cache of the same request may do
      findings: [
        {
          messageId: 'reused',
          pageLoadId: 'b',
          responseId: 'r1',
          behaviour: 'search.response-bound',
        },
      ],
    },
    {
      name: 'the click of a listing’s tile sent by the product page it led to, as it loads',
      events: clickFromPdp(300),
      findings: [
        {
          messageId: 'clickOnArrival',
          message: 'the click was sent by the page it led to, on its arrival',
          fix: 'send search/clickthrough from the listing when the tile is clicked',
          pageLoadId: 'pdp',
        },
      ],
    },
    {
      name: 'edge: such a click 2.1 s after the product page began: a stored responseId sent again',
      events: clickFromPdp(2_100),
      findings: [{ messageId: 'reused', pageLoadId: 'pdp' }],
    },
  ],
} satisfies RuleCases;
