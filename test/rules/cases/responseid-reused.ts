import { PageBuilder, T0, issued, visitPage, type RuleCases } from '../kit';

/** r1 asked for by page load a (nothing of it sent there), then rendered on page load b `after` ms later */
const askedByA = (o: {
  test: boolean;
  dev: boolean;
  after: number;
  sessionId?: string;
  /** the URL the search was asked from (the request's domain) */
  askerUrl?: string;
  /** page load b's URL and what it sends of r1 (a render when not said) */
  pageUrl?: string;
  sends?: 'render' | 'impression' | 'sequence';
}) => ({
  provenance: {
    companion: true,
    responses: [
      issued({
        responseId: 'r1',
        test: o.test,
        issuedAt: T0,
        requester: {
          userId: 'user-1',
          sessionId: o.sessionId ?? 'session-1',
          pageLoadId: 'a',
          ...(o.askerUrl !== undefined && { pageUrl: o.askerUrl }),
        },
      }),
    ],
  },
  events: () => {
    const b = new PageBuilder({
      pageLoadId: 'b',
      dev: o.dev,
      ...(o.pageUrl !== undefined && { pageUrl: o.pageUrl }),
    });
    const at = { at: o.after, recv: o.after };
    if (o.sends === 'impression') return [b.impression('r1', ['x'], at)];
    if (o.sends === 'sequence')
      return [
        b.render('r1', at),
        b.impression('r1', ['x'], { at: o.after + 3, recv: o.after + 3 }),
        b.click('r1', 'x', { at: o.after + 5, recv: o.after + 5 }),
      ];
    return [b.render('r1', at)];
  },
});

const SEARCH_URL = 'http://localhost:3000/search?q=shoes';
const PRODUCT_URL = 'http://localhost:3000/products/p100';

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

/** a server renders r1 from its own host and ids, then the browser renders it `after` ms later */
const serverThenBrowser = (after: number, impressed: boolean) => {
  const server = new PageBuilder({
    pageLoadId: 'srv',
    sessionId: 'server-session',
    userId: 'server-user',
    pageUrl: 'http://localhost:3000/search?q=shoes',
  });
  const b = new PageBuilder({ pageLoadId: 'b', pageUrl: 'https://shop.example/search?q=shoes' });
  return [
    server.render('r1', { at: 0 }),
    b.render('r1', { at: after }),
    ...(impressed ? [b.impression('r1', ['x'], { at: after + 1200 })] : []),
  ];
};

/** page load a, and page load b at the same URL under another session and userId */
const otherSession = (): [PageBuilder, PageBuilder] => [
  new PageBuilder({ pageLoadId: 'a' }),
  new PageBuilder({ pageLoadId: 'b', sessionId: 'session-2', userId: 'user-2' }),
];

/** a renders and impresses r1; b clicks one of its tiles `at` ms after the render, rendering nothing */
const secondTracker = (at: number) => {
  const [a, b] = otherSession();
  return [
    a.render('r1', { at: 0 }),
    a.impression('r1', ['x', 'y'], { at: 1200 }),
    b.click('r1', 'y', { at }),
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
      name: 'asked by a page load that sent nothing, rendered by a later one at the same search (the cache served it)',
      ...askedByA({ test: false, dev: false, after: 60_000, askerUrl: SEARCH_URL }),
    },
    {
      name: 'edge: asked by a page load that sent nothing; a product page sends only an impression of it, no render',
      ...askedByA({
        test: false,
        dev: false,
        after: 60_000,
        askerUrl: SEARCH_URL,
        pageUrl: PRODUCT_URL,
        sends: 'impression',
      }),
    },
    {
      name: 'asked by another session’s page load (responseid-other-visitor names it)',
      ...askedByA({ test: true, dev: true, after: 1000, sessionId: 'session-9' }),
    },
  ],
  invalid: [
    {
      name: 'a consent queue replays the search page’s render, impression and click on the product page, with its context',
      ...askedByA({
        test: false,
        dev: false,
        after: 60_000,
        askerUrl: SEARCH_URL,
        pageUrl: PRODUCT_URL,
        sends: 'sequence',
      }),
      findings: [
        {
          messageId: 'sentLater',
          message:
            'but page load a asked for that search (http://localhost:3000/search?q=shoes) and sent none of them',
          fix: 'instead of queueing its calls',
        },
      ],
    },
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
      name: 'server-side rendering: the server renders the search from its own host and ids, then the browser renders it again',
      events: () => serverThenBrowser(900, true),
      findings: [
        {
          messageId: 'serverRender',
          message: 'under another session, 0.9 s before this page',
          fix: 'send tracking only from the browser',
          pageLoadId: 'b',
        },
      ],
    },
    {
      name: 'edge: the other host’s render 10.001 s before: a stale id, not the server’s render',
      events: () => serverThenBrowser(10_001, false),
      findings: [{ messageId: 'reused', pageLoadId: 'b' }],
    },
    {
      name: 'a consent manager starts a second tracker on the listing: the click comes under new ids, no render',
      events: () => secondTracker(6000),
      findings: [
        {
          messageId: 'secondTracker',
          message: 'which page load a rendered at the same URL 6.0 s earlier under another session',
          fix: 'instead of constructing a new Beacon',
          pageLoadId: 'b',
        },
      ],
    },
    {
      name: 'edge: the same, 30 min and 1 ms later: another session’s stale id',
      events: () => secondTracker(1_800_001),
      findings: [{ messageId: 'reused', message: 'in another session', pageLoadId: 'b' }],
    },
    {
      name: 'edge: another session renders it at the same URL (a cached page served to another visitor)',
      events: () => {
        const [a, b] = otherSession();
        return [
          a.render('r1', { at: 0 }),
          b.render('r1', { at: 6000 }),
          b.click('r1', 'y', { at: 9000 }),
        ];
      },
      findings: [{ messageId: 'reused', message: 'in another session', pageLoadId: 'b' }],
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
