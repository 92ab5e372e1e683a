import {
  CARRIED,
  INFINITE,
  PageBuilder,
  R1,
  T0,
  issued,
  spaFilterWithoutRender,
  visitPage,
  type RuleCases,
} from '../kit';

/**
 * What the sandbox issued a search page load: the only page of "beanie" (one result of 24 per page), and a
 * full page 1 of "shirt" (one result per page: a later page may exist) in development mode (test=true) and
 * in production. The kit's sandbox remembers every response issued since 60 s before T0.
 */
const asked = { userId: 'user-1', sessionId: 'session-1', pageLoadId: 'page-1' };
const ONLY = issued({
  responseId: 'only-1',
  query: 'beanie',
  results: [{ uid: 'P105', sku: 'P105', parentId: 'P105', children: [] }],
  requester: asked,
});
const FULL_DEV = issued({
  responseId: 'full-dev',
  query: 'shirt',
  perPage: 1,
  results: [{ uid: 'P200', sku: 'P200', parentId: 'P200', children: [] }],
  requester: asked,
});
const FULL_PROD = { ...FULL_DEV, responseId: 'full-prod', test: false };
/**
 * The page's search, answered at T0: its only event is a click received `recv` ms after (the click's
 * timestamp 40 ms before), then, when `then` is given, a later event of the page (the page went on).
 */
const product = (uid: string) => ({ uid, sku: uid, parentId: uid, children: [] });
const QUICK = issued({
  responseId: 'q1',
  query: 'jacket',
  issuedAt: T0,
  results: [product('P200'), product('P201')],
});
const clickedAt =
  (recv: number, o: { impression?: boolean; then?: boolean; kind?: 'autocomplete' } = {}) =>
  () => {
    const p = new PageBuilder();
    const q = o.kind ? p.as(o.kind) : p;
    return [
      ...(o.impression ? [q.impression('q1', ['P200'], { at: recv - 140, recv: recv - 100 })] : []),
      q.click('q1', 'P200', { at: recv - 40, recv }),
      ...(o.then ? [p.as('autocomplete').render('ac1', { at: recv + 500 })] : []),
    ];
  };

/** page 1 rendered, then an impression with a responseId the sandbox never issued, received at `recv` */
const unissuedBeside = (rendered: string[], recv: number) => () => {
  const p = new PageBuilder();
  return [
    ...rendered.map((id, i) => p.render(id, { at: recv - 1200 + i })),
    p.impression(`${rendered[0]}-x`, ['P105'], { at: recv - 40, recv }),
  ];
};

export default {
  valid: [
    {
      name: 'edge: at another URL 1.3 s after the render on another page load (a product page sending the tile’s click on arrival): not the render’s page load; responseid-reused names it',
      events: () => [
        new PageBuilder({ pageLoadId: 'pl-1' }).render('r1', { at: 0 }),
        new PageBuilder({
          pageLoadId: 'pl-2',
          pageUrl: 'http://localhost:3000/product/P200',
        }).click('r1', 'P200', { at: 1300 }),
      ],
    },
    {
      name: 'edge: in another session 1.3 s after the render on another page load: not the render’s page load; responseid-reused names it',
      events: () => [
        new PageBuilder({ pageLoadId: 'pl-1' }).render('r1', { at: 0 }),
        new PageBuilder({ pageLoadId: 'pl-2', sessionId: 'session-2' }).impression('r1', ['P200'], {
          at: 1300,
        }),
      ],
    },
    {
      name: 'pages 1 and 2 requested together on load by this page load: a backfill (missing-render-backfill’s)',
      provenance: { companion: true, responses: INFINITE.together },
      events: INFINITE.traffic,
    },
    {
      name: 'render, then impressions and a click',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.click('r1', 'a', { at: 3000 }),
        ];
      },
    },
    {
      name: 'infinite scroll backfill: a later page’s events beside page 1’s render (missing-render-backfill’s)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 10 }),
          p.impression('r2', ['b'], { at: 20 }),
        ];
      },
    },
    {
      name: 'edge: an unissued id beside a production search (the client caches 5 minutes) when the memory reaches back 1 ms less than the cache keeps: a possible backfill (missing-render-backfill’s)',
      provenance: { companion: false, responses: [FULL_PROD] },
      events: unissuedBeside(['full-prod'], 299_999),
    },
    {
      name: 'edge: an unissued id beside two rendered responses, one of them not issued by the sandbox (the page searches elsewhere too): a possible backfill',
      provenance: { companion: false, responses: [FULL_DEV] },
      events: unissuedBeside(['full-dev', 'elsewhere'], 1200),
    },
    {
      name: 'edge: an unissued id received before the sandbox’s memory of issued responses is complete: a possible backfill',
      provenance: { companion: false, responses: [FULL_DEV] },
      events: unissuedBeside(['full-dev'], -60_001),
    },
    {
      name: 'edge: an unissued id beside the only page of a search that came from the real service (pass-through), in production: a possible backfill',
      provenance: {
        companion: false,
        responses: [{ ...ONLY, test: false, upstream: 'https://demo42.a.searchspring.io' }],
      },
      events: unissuedBeside(['only-1'], 1200),
    },
    {
      name: 'edge: the only event a click that ended the page 2 s after the sandbox issued the response: its render may have left with the page in the client’s queue (missing-render-at-exit’s)',
      provenance: { companion: true, responses: [QUICK] },
      events: clickedAt(2000),
    },
    {
      name: 'the same in the autocomplete dropdown: a product clicked as soon as it appeared, leaving the page (missing-render-at-exit’s)',
      provenance: { companion: true, responses: [{ ...QUICK, kind: 'autocomplete' }] },
      events: clickedAt(250, { kind: 'autocomplete' }),
    },
    {
      name: 'edge: an earlier page load’s responseId whose tiles this page impressed and clicked, in production within the cache’s minutes: a page infinite scroll may have restored from the client’s cache (missing-render-backfill’s)',
      events: CARRIED({
        after: (p, at) => [
          p.impression('rA', ['P100'], { at }),
          p.click('rA', 'P100', { at: at + 2000 }),
        ],
      }),
    },
    {
      name: 'edge: a click alone with a responseId no earlier page load carried: a restored page’s tile clicked before its impression (missing-render-backfill’s)',
      events: CARRIED({ fresh: true, after: (p, at) => [p.click('rA', 'P200', { at })] }),
    },
    {
      name: 'edge: an earlier page load’s responseId impressed here 5 min 59 s after it was first seen, in production: the client’s cache (with a minute for clocks) may have restored it (missing-render-backfill’s)',
      events: CARRIED({
        gap: 359_000 - 1000,
        after: (p, at) => [p.impression('rA', ['P100'], { at })],
      }),
    },
    {
      name: 'edge: an earlier development page load’s responseId impressed on a production page within the cache’s minutes: the cache was on here (missing-render-backfill’s)',
      events: () => {
        const traffic = CARRIED({ after: (p, at) => [p.impression('rA', ['P100'], { at })] })();
        return traffic.map((e, i) =>
          i < 2
            ? {
                ...e,
                body: {
                  ...(e.body as { context: object; data: object }),
                  context: { ...(e.body as { context: object }).context, dev: true },
                },
              }
            : e,
        );
      },
    },
    {
      name: 'a redirect replaces the render',
      events: () => {
        const p = new PageBuilder();
        return [p.redirect('r1', '/sale', { at: 0 })];
      },
    },
  ],
  invalid: [
    {
      name: 'a new pageLoadId per event: the impression on a page load of its own, 1.3 s after the render at the same URL, names the render’s page load',
      events: () => [
        new PageBuilder({ pageLoadId: 'pl-1' }).render('r1', { at: 0 }),
        new PageBuilder({ pageLoadId: 'pl-2' }).impression('r1', ['P200'], { at: 1300 }),
      ],
      findings: [
        {
          messageId: 'otherLoad',
          message:
            /carries responseId "r1", rendered 1\.3 s earlier at the same URL on page load pl-1 \(ev_\d+\), in this session, but this page load sent no render of it\..*the render on one page and its events on others\.$/,
          fix: /^make one tracker per page load/,
          pageLoadId: 'pl-2',
          responseId: 'r1',
          behaviour: 'identity.page-load',
        },
      ],
    },
    {
      name: 'edge: the impression 10 s after the render, on another page load at the same URL: still the render’s page load',
      events: () => [
        new PageBuilder({ pageLoadId: 'pl-1' }).render('r1', { at: 0 }),
        new PageBuilder({ pageLoadId: 'pl-2' }).impression('r1', ['P200'], { at: 10_000 }),
      ],
      findings: [{ messageId: 'otherLoad', pageLoadId: 'pl-2' }],
    },
    {
      name: 'a pageLoadId per event: two events on page loads of their own after the render, at the same URL: each names the render’s page load',
      events: () => [
        new PageBuilder({ pageLoadId: 'pl-1' }).render('r1', { at: 0 }),
        new PageBuilder({ pageLoadId: 'pl-2' }).impression('r1', ['P200'], { at: 1300 }),
        new PageBuilder({ pageLoadId: 'pl-3' }).impression('r1', ['P201'], { at: 2600 }),
      ],
      findings: [
        { messageId: 'otherLoad', pageLoadId: 'pl-2' },
        { messageId: 'otherLoad', pageLoadId: 'pl-3', message: /rendered 2\.6 s earlier/ },
      ],
    },
    {
      name: 'edge: back from a product page 4 s after the render: a new document (the product page stored its own pageLoadId), so a cached response shown without its render',
      events: () => [
        new PageBuilder({ pageLoadId: 'pl-1' }).render('r1', { at: 0 }),
        visitPage('pl-2').product('P200', { at: 2000 }),
        new PageBuilder({ pageLoadId: 'pl-3' }).impression('r1', ['P200'], { at: 4000 }),
      ],
      findings: [
        {
          messageId: 'unrendered',
          pageLoadId: 'pl-3',
          message:
            /either the events of one page load carry a new pageLoadId each .* or this page shows a response from the client's cache without rendering it/,
        },
      ],
    },
    {
      name: 'edge: the render’s page went on to impressions and a click, and a new page load at its URL 5 s later impresses the response (back from a product page that sends nothing): a cached response shown without its render',
      events: () => {
        const p = new PageBuilder({ pageLoadId: 'pl-1' });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P200'], { at: 1000 }),
          p.click('r1', 'P200', { at: 4000 }),
          new PageBuilder({ pageLoadId: 'pl-2' }).impression('r1', ['P200'], { at: 5000 }),
        ];
      },
      findings: [{ messageId: 'unrendered', pageLoadId: 'pl-2' }],
    },
    {
      name: 'edge: 10.1 s after the render (a new document there would get a new pageLoadId): events without a render',
      events: () => [
        new PageBuilder({ pageLoadId: 'pl-1' }).render('r1', { at: 0 }),
        new PageBuilder({ pageLoadId: 'pl-2' }).impression('r1', ['P200'], { at: 10_100 }),
      ],
      findings: [{ messageId: 'unrendered', pageLoadId: 'pl-2' }],
    },
    {
      name: 'a click with a responseId the sandbox never issued, of a tile impressed under the response it issued and the page rendered: it follows from click-under-other-response, whose fix leads',
      provenance: { companion: true, responses: [R1] },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P200', 'P201'], { at: 1200 }),
          p.click('stale-1', 'P201', { at: 3000 }),
        ];
      },
      findings: [
        {
          messageId: 'onlyPage',
          events: [2],
          responseId: 'stale-1',
          causedBy: 'click-under-other-response',
        },
      ],
    },
    {
      name: 'a click alone with an earlier search’s responseId beside this page’s own rendered response (neither issued by the sandbox): a stale responseId, not a backfill',
      events: CARRIED({ after: (p, at) => [p.click('rA', 'P200', { at })] }),
      findings: [
        {
          messageId: 'carriedOver',
          data: { others: '"rB"', originPage: 'earlier' },
          message:
            /carries responseId "rA", an earlier search's: it was first seen on page earlier \(http:\/\/localhost:3000\/search\?q=shirt, ev_\d+\), while this page rendered "rB"\..*this page impressed nothing under it/,
          fix: /^send each impression, click and add with the responseId of the response whose results the page shows \(this page rendered "rB"\)/,
          events: [4],
          responseId: 'rA',
          pageLoadId: 'page-2',
          behaviour: 'search.response-bound',
        },
      ],
    },
    {
      name: 'an add alone with an earlier search’s responseId: the same',
      events: CARRIED({ after: (p, at) => [p.cart('rA', 'P200', { at })] }),
      findings: [{ messageId: 'carriedOver', events: [4], pageLoadId: 'page-2' }],
    },
    {
      name: 'an earlier page load’s responseId impressed and clicked here, both pages in development mode (the client caches nothing): a stale responseId',
      events: CARRIED({
        dev: true,
        after: (p, at) => [
          p.impression('rA', ['P100'], { at }),
          p.click('rA', 'P100', { at: at + 2000 }),
        ],
      }),
      findings: [
        {
          messageId: 'carriedOver',
          message: 'both pages run in development mode',
          events: [4, 5],
          pageLoadId: 'page-2',
        },
      ],
    },
    {
      name: 'edge: an earlier page load’s responseId impressed here 6 min 1 s after it was first seen, in production: past the client’s cache, a stale responseId',
      events: CARRIED({
        gap: 361_000 - 1000,
        after: (p, at) => [p.impression('rA', ['P100'], { at })],
      }),
      findings: [
        {
          messageId: 'carriedOver',
          message:
            /these events came 6 min after it, longer than the client's cache keeps a response/,
          events: [4],
        },
      ],
    },
    {
      name: 'an id the sandbox never issued beside the only page of its search (page 1 of 1), on a site without the companion check: no backfill',
      provenance: { companion: false, responses: [ONLY] },
      events: unissuedBeside(['only-1'], 1200),
      findings: [
        {
          messageId: 'onlyPage',
          data: { responseId: 'only-1-x', others: '"only-1"' },
          message:
            'the sandbox issued each as the only page of its search (page 1, with fewer results than its page size), and never issued this responseId',
          fix: 'send data.responseId exactly as the response that delivered the results gave it (this page rendered "only-1")',
          events: [1],
          responseId: 'only-1-x',
        },
      ],
    },
    {
      name: 'an id the sandbox never issued beside its page 1 of a development search (the client caches nothing): no backfill',
      provenance: { companion: false, responses: [FULL_DEV] },
      events: unissuedBeside(['full-dev'], 1200),
      findings: [
        {
          messageId: 'unissued',
          data: {
            others: '"full-dev"',
            cache:
              'those searches were made in development mode (test=true), when the client caches no response',
          },
          message: "which this sandbox's search API issued, but it never issued this responseId",
          events: [1],
          responseId: 'full-dev-x',
        },
      ],
    },
    {
      name: 'edge: an id the sandbox never issued beside a production search, the memory reaching back as far as the client caches (6 min): no backfill',
      provenance: { companion: false, responses: [FULL_PROD] },
      events: unissuedBeside(['full-prod'], 300_000),
      findings: [
        {
          messageId: 'unissued',
          data: {
            cache:
              'the sandbox remembers every response it issued since 6 min before these events, longer than the client caches one',
          },
          events: [1],
          responseId: 'full-prod-x',
        },
      ],
    },
    {
      name: 'edge: the memory complete exactly when the unissued id arrives, beside a development search: no backfill',
      provenance: { companion: false, responses: [FULL_DEV] },
      events: unissuedBeside(['full-dev'], -60_000),
      findings: [{ messageId: 'unissued', events: [1], responseId: 'full-dev-x' }],
    },
    {
      name: 'page 2 fetched by scrolling, 5 s after page 1, impressed without its render',
      provenance: { companion: true, responses: INFINITE.scrolled },
      events: INFINITE.traffic,
      findings: [
        {
          messageId: 'scrolled',
          data: { page: '2', apart: '5.0 s' },
          message: 'infinite scroll fetched it',
          events: [2],
          responseId: 'p2',
        },
      ],
    },
    {
      name: 'edge: a click that ended the page 2.001 s after the sandbox issued the response: its render would have left the queue before',
      provenance: { companion: true, responses: [QUICK] },
      events: clickedAt(2001),
      findings: [
        {
          messageId: 'unrendered',
          message: /^(?![\s\S]*queued)/,
          fix: 'send search/render with data.responseId "q1"',
          events: [0],
          responseId: 'q1',
        },
      ],
    },
    {
      name: 'edge: a quick click the page went on after (a later event): the page was not left, its queue flushed',
      provenance: { companion: true, responses: [QUICK] },
      events: clickedAt(250, { then: true }),
      findings: [{ messageId: 'unrendered', events: [0], responseId: 'q1' }],
    },
    {
      name: 'edge: a quick click after an impression of the response arrived: the render was queued with it, and flushed',
      provenance: { companion: true, responses: [QUICK] },
      events: clickedAt(250, { impression: true }),
      findings: [{ messageId: 'unrendered', events: [0, 1], responseId: 'q1' }],
    },
    {
      name: 'a click on the only result of a single-result search, as soon as it was answered: the client navigates there by itself, so no shopper clicked it',
      provenance: { companion: true, responses: [{ ...QUICK, results: [product('P200')] }] },
      events: clickedAt(250),
      findings: [
        {
          messageId: 'singleResult',
          message:
            'A click sent for it is the storefront tracking the redirect as a click, which the provider counts as a click nobody made.',
          fix: 'send no clickthrough when the page redirects to the only result by itself',
          events: [0],
          responseId: 'q1',
        },
      ],
    },
    {
      name: 'two clicks on the only result of a single-result search, as soon as it was answered: the message speaks of both',
      provenance: { companion: true, responses: [{ ...QUICK, results: [product('P200')] }] },
      events: () => {
        const p = new PageBuilder();
        return [
          p.click('q1', 'P200', { at: 210, recv: 250 }),
          p.click('q1', 'P200', { at: 210, recv: 260 }),
        ];
      },
      findings: [
        {
          messageId: 'singleResult',
          message:
            /The sandbox issued this response with a single result, and the 2 clicks came as soon as it was answered, ending the page: /,
          events: [0, 1],
          responseId: 'q1',
        },
      ],
    },
    {
      name: 'a click that ended the page on a response the sandbox did not issue: an error that names the queued render as a possibility',
      events: clickedAt(250),
      findings: [
        {
          messageId: 'unrendered',
          message:
            'The sandbox did not issue this response, so it cannot tell how soon the click came: in a test, wait for the render before clicking',
          events: [0],
          responseId: 'q1',
        },
      ],
    },
    {
      name: 'two clicks that ended the page on a response the sandbox did not issue: the message speaks of both',
      events: () => {
        const p = new PageBuilder();
        return [
          p.click('q1', 'P200', { at: 210, recv: 250 }),
          p.click('q1', 'P201', { at: 210, recv: 260 }),
        ];
      },
      findings: [
        {
          messageId: 'unrendered',
          message:
            /The 2 clicks were the page's last events, .* The sandbox did not issue this response, so it cannot tell how soon the clicks came: in a test, wait for the render before clicking/,
          events: [0, 1],
          responseId: 'q1',
        },
      ],
    },
    {
      name: 'impressions and a click with no render at all',
      events: () => {
        const p = new PageBuilder();
        return [p.impression('r1', ['a'], { at: 1200 }), p.click('r1', 'a', { at: 3000 })];
      },
      findings: [
        {
          messageId: 'unrendered',
          data: { responseId: 'r1', render: 'search/render' },
          message: 'sent no search/render',
          fix: 'send search/render with data.responseId "r1"',
          events: [0, 1],
          responseId: 'r1',
        },
      ],
    },
    {
      name: 'a render fired before the response arrived (empty responseId): the message names it as the cause',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.click('r1', 'a', { at: 3000 }),
        ];
      },
      findings: [
        {
          messageId: 'unrendered',
          message:
            /This page sent search\/render ev_\S+ with an empty responseId: a render sent before the response arrived/,
          fix: 'send search/render with data.responseId "r1"',
          events: [1, 2],
          responseId: 'r1',
        },
      ],
    },
    {
      name: 'edge: a widget’s empty-responseId render is not named for another widget’s events',
      events: () => {
        const p = new PageBuilder().as('recommendations', 'similar');
        const q = new PageBuilder().as('recommendations', 'trending');
        return [q.render('', { at: 0 }), p.impression('w1', ['a'], { at: 1200 })];
      },
      findings: [
        {
          messageId: 'unrendered',
          message: /^(?![\s\S]*empty responseId)/,
          events: [1],
          responseId: 'w1',
        },
      ],
    },
    {
      name: 'a widget’s events without its render are an error however many other widgets rendered',
      events: () => {
        const p = new PageBuilder().as('recommendations', 'similar');
        const q = new PageBuilder().as('recommendations', 'trending');
        return [
          p.render('w1', { at: 0 }),
          p.impression('w1', ['a'], { at: 1200 }),
          q.impression('w2', ['b'], { at: 1300 }),
        ];
      },
      findings: [{ messageId: 'unrendered', message: 'tag "trending"', events: [2] }],
    },
    {
      name: 'a widget’s impression sent with the other widget’s tag: named as that, whose items they are',
      events: () => {
        const p = new PageBuilder({ pageUrl: 'http://localhost:3000/products/p100' });
        const similar = p.as('recommendations', 'similar');
        const trending = p.as('recommendations', 'trending');
        return [
          similar.render('w1', { at: 0 }),
          trending.render('w2', { at: 100 }),
          trending.impression('w2', ['b'], { at: 1200 }),
          trending.impression('w1', ['a1', 'a2'], { at: 1300 }),
        ];
      },
      findings: [
        {
          messageId: 'otherTag',
          data: { tag: 'trending', ownTag: 'similar' },
          message:
            'carries tag "trending" with responseId "w1", but that responseId is the "similar" widget\'s (this page rendered it with that tag: recommendations/render ev_',
          fix: 'send the "similar" widget\'s recommendations/impression with data.tag "similar"',
          events: [3],
          responseId: 'w1',
          causedBy: null,
        },
      ],
    },
    {
      name: 'edge: a widget’s click with a tag no widget of the page rendered (a typo): the tag is still named as wrong',
      events: () => {
        const p = new PageBuilder({ pageUrl: 'http://localhost:3000/products/p100' });
        const similar = p.as('recommendations', 'similar');
        return [
          similar.render('w1', { at: 0 }),
          similar.impression('w1', ['a1'], { at: 1200 }),
          p.as('recommendations', 'simliar').click('w1', 'a1', { at: 3000 }),
        ];
      },
      findings: [
        {
          messageId: 'otherTag',
          message:
            /widget's \(this page rendered it with that tag: recommendations\/render ev_\d+\): its items \(uids "a1"\)/,
          fix: 'with data.tag "similar", the tag of its own render, not "simliar"',
          events: [2],
        },
      ],
    },
    {
      name: 'a new search on the same page whose events carry a response it never rendered',
      events: () => {
        const p = new PageBuilder({ pageUrl: 'http://localhost:3000/search?q=jacket' });
        const boots = { context: { pageUrl: 'http://localhost:3000/search?q=boot' } };
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.impression('r2', ['b'], { at: 5000, ...boots }),
        ];
      },
      findings: [
        {
          messageId: 'newSearch',
          data: { query: 'boot', others: '"r1"' },
          message: 'for another query',
          fix: 'send search/render with data.responseId "r2"',
          events: [2],
        },
      ],
    },
    {
      name: 'an SPA filter on the same query (the hash’s filter) whose events carry a response it never rendered: a new search, no backfill',
      events: spaFilterWithoutRender,
      findings: [
        {
          messageId: 'newSearch',
          data: { query: 'filter.color=Blue', others: '"r1"' },
          fix: 'send category/render with data.responseId "r1-blue"',
          events: [2, 3],
        },
      ],
    },
    {
      name: 'page 1 of a search (the sandbox issued it) without its render beside another rendered response',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r2', { at: 0 }), p.impression('r1', ['P200'], { at: 1200 })];
      },
      findings: [
        { messageId: 'firstPage', message: 'this one is page 1 of its search', events: [1] },
      ],
    },
  ],
} satisfies RuleCases;
