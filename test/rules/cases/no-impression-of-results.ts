import type { RecordedEvent } from '../../../src/shared/events';
import { issued, PageBuilder, PAGED, R0, R1, R4, visitPage, type RuleCases } from '../kit';

/** r1 rendered and impressed, another search's r5 rendered, then r1 shown again at 6 s, and `after` */
const shownAgain =
  (after: (p: PageBuilder) => RecordedEvent[] = () => []) =>
  () => {
    const p = new PageBuilder({ dev: false });
    return [
      p.render('r1', { at: 0 }),
      p.impression('r1', ['P200'], { at: 1200 }),
      p.render('r5', { at: 3000 }),
      p.render('r1', { at: 6000 }),
      ...after(p),
    ];
  };
const boot = issued({ responseId: 'r5', query: 'boot' });

/**
 * An SPA: r1 ("shoes", 3 tiles and 2 banners) rendered, then `after` ms later the same listing rendered
 * `next` (another search: "boot" by default) from its own URL, impressed a second later. The provider's
 * client impresses a tile after 1 s in view and resets its impressions on every new search: r1's tiles
 * replaced sooner never get theirs.
 */
const replacedAfter =
  (after: number, next: { kind?: 'autocomplete'; url?: string } = {}) =>
  () => {
    const p = new PageBuilder({ pageUrl: 'http://localhost:3000/search?q=shoes' });
    const q = new PageBuilder({ pageUrl: next.url ?? 'http://localhost:3000/search?q=boot' });
    const n = next.kind ? q.as(next.kind) : q;
    return [
      p.render('r1', { at: 0 }),
      n.render('r5', { at: after }),
      n.impression('r5', ['P900'], { at: after + 1010 }),
    ];
  };
/** r7: one result and a header banner (a campaign on the query) */
const ONE_WITH_BANNERS = issued({
  responseId: 'r7',
  results: [{ uid: 'P202', sku: 'P202', parentId: 'P202', children: [] }],
  slots: { header: ['8101'], banner: [], footer: [], left: [] },
});
const BOOT = issued({
  responseId: 'r5',
  query: 'boot',
  results: [{ uid: 'P900', sku: 'P900', parentId: 'P900', children: [] }],
});

export default {
  valid: [
    {
      name: 'the no-results page: rendered, nothing to impress',
      provenance: { companion: true, responses: [R0] },
      events: () => [new PageBuilder().render('r0', { at: 0 })],
    },
    {
      name: 'results impressed',
      provenance: { companion: true, responses: [R1] },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['P200'], { at: 1200 })];
      },
    },
    {
      name: 'impressions sent and rejected by the service (schema names them and their fix)',
      provenance: { companion: true, responses: [R1] },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P200'], {
            at: 1200,
            accepted: false,
            errors: ['missing required key-value: data.results[0].parentId'],
          }),
        ];
      },
    },
    {
      name: 'a single result: the client may navigate to its product before any impression',
      provenance: { companion: true, responses: [R4] },
      events: () => [new PageBuilder().render('r4', { at: 0 })],
    },
    {
      // SC afterStore redirects on totalResults === 1 whatever banners came with the result
      name: 'edge: a single result with campaign banners: the client redirects all the same',
      provenance: { companion: true, responses: [ONE_WITH_BANNERS] },
      events: () => [new PageBuilder().render('r7', { at: 0 })],
    },
    {
      name: 'a tile clicked within a second of the render, the page left with the click',
      provenance: { companion: true, responses: [R1] },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.click('r1', 'P201', { at: 800 })];
      },
    },
    {
      name: 'infinite scroll restored page 2 (impressed without a render): page 1 never in view',
      provenance: {
        companion: true,
        responses: [R1, issued({ responseId: 'r2', page: 2, results: [] })],
      },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r2', ['P210'], { at: 1200 })];
      },
    },
    {
      name: 'a cached response shown again and impressed again',
      provenance: { companion: true, responses: [R1, boot] },
      events: shownAgain((p) => [p.impression('r1', ['P200'], { at: 7100 })]),
    },
    {
      name: 'shown again, a tile clicked within a second of it (the page left with the click)',
      provenance: { companion: true, responses: [R1, boot] },
      events: shownAgain((p) => [p.click('r1', 'P201', { at: 6900 })]),
    },
    {
      name: 'a later page of infinite scroll shown again (its impression flags are kept)',
      provenance: {
        companion: true,
        responses: [{ ...R1, page: 2 }, boot],
      },
      events: shownAgain(),
    },
    {
      // one render, the impressions sent before it: `order` names them; nothing was shown again
      name: 'edge: impressed 0.4 s before its only render (order’s, not a response shown again)',
      provenance: { companion: true, responses: [R1] },
      events: () => {
        const p = new PageBuilder();
        return [p.impression('r1', ['P200'], { at: 1000 }), p.render('r1', { at: 1400 })];
      },
    },
    {
      name: 'an SPA’s page 2 impressed with its own responseId',
      provenance: { companion: true, responses: PAGED.responses },
      events: PAGED.traffic((q) => [q.impression('r2', ['P104', 'P105'], { at: 5200 })]),
    },
    {
      name: 'an SPA’s new search rendered 0.4 s after the render: its tiles replaced before a second in view',
      provenance: { companion: true, responses: [R1, BOOT] },
      events: replacedAfter(400),
    },
    {
      // the bound: 1 s in view, plus up to 250 ms from the render's creation to the start of its tiles'
      // visibility clock (painted, observed, checked visible), which the replacement's removal does not wait for
      name: 'edge: replaced 1.249 s after the render (within 1 s in view and the 250 ms before its clock starts)',
      provenance: { companion: true, responses: [R1, BOOT] },
      events: replacedAfter(1249),
    },
    {
      name: 'a cached response shown again and replaced by another search 0.4 s later',
      provenance: { companion: true, responses: [R1, boot] },
      events: shownAgain(() => [
        new PageBuilder({ dev: false, pageUrl: 'http://localhost:3000/search?q=boot' }).render(
          'r5',
          { at: 6400 },
        ),
      ]),
    },
    {
      name: 'shown again, a response the sandbox did not issue (what it showed is unknown)',
      provenance: { companion: true, responses: [boot] },
      events: shownAgain(),
    },
  ],
  invalid: [
    {
      // SC afterStore redirects only with no filter of the shopper's
      name: 'edge: a single result of a filtered search: the client shows it and impresses it',
      provenance: { companion: true, responses: [{ ...R4, filtered: true }] },
      events: () => [new PageBuilder().render('r4', { at: 0 })],
      findings: [{ messageId: 'resultsNotImpressed', message: 'showed 1 tile, so' }],
    },
    {
      name: 'edge: the only result of a page 2 (the last of several): no redirect',
      provenance: { companion: true, responses: [{ ...ONE_WITH_BANNERS, page: 2 }] },
      events: () => [new PageBuilder().render('r7', { at: 0 })],
      findings: [{ messageId: 'resultsNotImpressed' }],
    },
    {
      name: 'a new pageLoadId per event: the render alone on its page load, its impression on the next one 1.3 s later',
      provenance: { companion: true, responses: [R1] },
      events: () => [
        new PageBuilder({ pageLoadId: 'pl-1' }).render('r1', { at: 0 }),
        new PageBuilder({ pageLoadId: 'pl-2' }).impression('r1', ['P200'], { at: 1300 }),
      ],
      findings: [
        {
          messageId: 'perEvent',
          message: 'its events went on under another pageLoadId 1.3 s later',
          fix: 'make one tracker per page load',
          pageLoadId: 'pl-1',
          responseId: 'r1',
        },
      ],
    },
    {
      name: 'edge: a page load at another URL between the render and the impression (back from a product page: a new document): results not impressed',
      provenance: { companion: true, responses: [R1] },
      events: () => [
        new PageBuilder({ pageLoadId: 'pl-1' }).render('r1', { at: 0 }),
        visitPage('pl-2').product('P200', { at: 600 }),
        new PageBuilder({ pageLoadId: 'pl-3' }).impression('r1', ['P200'], { at: 1300 }),
      ],
      findings: [{ messageId: 'resultsNotImpressed', pageLoadId: 'pl-1' }],
    },
    {
      name: 'edge: the impression on another page load at another URL 1.3 s after the render: results not impressed',
      provenance: { companion: true, responses: [R1] },
      events: () => [
        new PageBuilder({ pageLoadId: 'pl-1' }).render('r1', { at: 0 }),
        new PageBuilder({
          pageLoadId: 'pl-2',
          pageUrl: 'http://localhost:3000/search?q=shoes&page=2',
        }).impression('r1', ['P200'], { at: 1300 }),
      ],
      findings: [{ messageId: 'resultsNotImpressed', pageLoadId: 'pl-1' }],
    },
    {
      name: 'edge: the impression on another page load 10.1 s after the render (past the client’s 10 s): results not impressed',
      provenance: { companion: true, responses: [R1] },
      events: () => [
        new PageBuilder({ pageLoadId: 'pl-1' }).render('r1', { at: 0 }),
        new PageBuilder({ pageLoadId: 'pl-2' }).impression('r1', ['P200'], { at: 10_100 }),
      ],
      findings: [{ messageId: 'resultsNotImpressed', pageLoadId: 'pl-1' }],
    },
    {
      name: 'edge: a page that holds more than its render: results not impressed, whatever came elsewhere',
      provenance: { companion: true, responses: [R1] },
      events: () => {
        const p = new PageBuilder({ pageLoadId: 'pl-1' });
        return [
          p.render('r1', { at: 0 }),
          p.render('r9', { at: 500 }),
          new PageBuilder({ pageLoadId: 'pl-2' }).impression('r1', ['P200'], { at: 1300 }),
        ];
      },
      findings: [{ messageId: 'resultsNotImpressed', pageLoadId: 'pl-1', responseId: 'r1' }],
    },
    {
      name: 'results shown and never impressed',
      provenance: { companion: true, responses: [R1] },
      events: () => [new PageBuilder().render('r1', { at: 0 })],
      findings: [
        {
          messageId: 'resultsNotImpressed',
          message: 'showed 3 tiles and 2 banners, so impressions were due',
          events: [0],
          responseId: 'r1',
        },
      ],
    },
    {
      name: 'results without banners shown and never impressed: its tiles named alone',
      provenance: {
        companion: true,
        responses: [
          issued({
            responseId: 'r2',
            results: ['P300', 'P301', 'P302'].map((uid) => ({
              uid,
              sku: uid,
              parentId: uid,
              children: [],
            })),
          }),
        ],
      },
      events: () => [new PageBuilder().render('r2', { at: 0 })],
      findings: [
        {
          messageId: 'resultsNotImpressed',
          message: /showed 3 tiles, so impressions were due/,
          events: [0],
        },
      ],
    },
    {
      name: 'edge: a rejected impression of another responseId does not stand for this one’s',
      provenance: { companion: true, responses: [R1] },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r9', ['P200'], { at: 1200, accepted: false }),
        ];
      },
      findings: [
        {
          messageId: 'resultsNotImpressed',
          events: [0],
          responseId: 'r1',
          behaviour: 'search.impression',
        },
      ],
    },
    {
      name: 'a cached response shown again after another search, its tiles never impressed again',
      provenance: { companion: true, responses: [R1, boot] },
      events: shownAgain(),
      findings: [
        {
          messageId: 'notImpressedAgain',
          message: 'was rendered again (ev_',
          fix: 'reset the per-response impression flags on every render',
          events: [3],
          responseId: 'r1',
          // the cached response shown again: the client impresses its tiles again
          behaviour: 'search.render-cached',
        },
      ],
    },
    {
      name: 'an SPA’s page 2 whose tiles were impressed with page 1’s responseId: it follows from item-not-in-response there',
      provenance: { companion: true, responses: PAGED.responses },
      events: PAGED.traffic((q) => [
        q.impression('r1', ['P104', 'P105'], { at: 5200 }),
        q.click('r1', 'P104', { at: 7000 }),
      ]),
      findings: [
        {
          messageId: 'impressedUnderOther',
          message: 'impressed under another responseId instead: impression ev_',
          fix: 'data.responseId "r2", the response that delivered them, not "r1"',
          events: [2, 3],
          responseId: 'r2',
          causedBy: 'item-not-in-response',
        },
      ],
    },
    {
      name: 'edge: page 1’s own tile impressed again with page 1’s responseId after page 2’s render: page 2 was not impressed',
      provenance: { companion: true, responses: PAGED.responses },
      events: PAGED.traffic((q) => [q.impression('r1', ['P103'], { at: 5200 })]),
      findings: [
        {
          messageId: 'resultsNotImpressed',
          events: [2],
          responseId: 'r2',
          causedBy: null,
        },
      ],
    },
    {
      name: 'edge: replaced 1.25 s after the render: a second in view had passed, its impressions were due',
      provenance: { companion: true, responses: [R1, BOOT] },
      events: replacedAfter(1250),
      findings: [{ messageId: 'resultsNotImpressed', events: [0], responseId: 'r1' }],
    },
    {
      name: 'replaced 2.5 s after the render and never impressed',
      provenance: { companion: true, responses: [R1, BOOT] },
      events: replacedAfter(2500),
      findings: [{ messageId: 'resultsNotImpressed', events: [0], responseId: 'r1' }],
    },
    {
      name: 'edge: the same query’s page 2 rendered 0.4 s after (infinite scroll appends it: page 1’s tiles stay on screen)',
      provenance: {
        companion: true,
        responses: [R1, { ...BOOT, query: 'shoes', page: 2 }],
      },
      events: replacedAfter(400, { url: 'http://localhost:3000/search?q=shoes&page=2' }),
      findings: [{ messageId: 'resultsNotImpressed', events: [0], responseId: 'r1' }],
    },
    {
      name: 'edge: an autocomplete response rendered 0.4 s after (the dropdown, not the listing, changed)',
      provenance: { companion: true, responses: [R1] },
      events: replacedAfter(400, { kind: 'autocomplete' }),
      findings: [{ messageId: 'resultsNotImpressed', events: [0], responseId: 'r1' }],
    },
    {
      name: 'rendered again by the listing’s component on the route to a product page: follows from duplicate-render (that render showed nothing)',
      provenance: { companion: true, responses: [R1] },
      events: () => {
        const p = new PageBuilder({ dev: false, pageUrl: 'http://localhost:3000/search?q=shoes' });
        const product = new PageBuilder({
          dev: false,
          pageUrl: 'http://localhost:3000/products/p200',
        });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P200'], { at: 1300 }),
          product.render('r1', { at: 4000 }),
        ];
      },
      findings: [
        {
          messageId: 'notImpressedAgain',
          events: [2],
          responseId: 'r1',
          causedBy: 'duplicate-render',
        },
      ],
    },
    {
      name: 'edge: impressed before its first render, then shown again after another search and not impressed since',
      provenance: { companion: true, responses: [R1, boot] },
      events: () => {
        const p = new PageBuilder({ dev: false });
        return [
          p.impression('r1', ['P200'], { at: 1000 }),
          p.render('r1', { at: 1400 }),
          p.render('r5', { at: 3000 }),
          p.render('r1', { at: 6000 }),
        ];
      },
      findings: [
        {
          messageId: 'notImpressedAgain',
          events: [3],
          responseId: 'r1',
          behaviour: 'search.render-cached',
          causedBy: null,
        },
      ],
    },
  ],
} satisfies RuleCases;
