import {
  CARRIED,
  INFINITE,
  PageBuilder,
  R1,
  R2,
  issued,
  spaFilterWithoutRender,
  type RuleCases,
} from '../kit';

/** page 1 of "shirt" as the sandbox issued it, full (one result per page), in production (no test=true) */
const FULL_PROD = issued({
  responseId: 'full-prod',
  query: 'shirt',
  perPage: 1,
  test: false,
  results: [{ uid: 'P200', sku: 'P200', parentId: 'P200', children: [] }],
});
/** page 1 rendered, then an impression of a responseId the sandbox never issued, received at `recv` */
const unissuedBeside = (responses: Parameters<typeof issued>[0][], recv: number) => ({
  provenance: { companion: false, responses: responses.map(issued) },
  events: () => {
    const p = new PageBuilder();
    return [
      p.render(responses[0]!.responseId, { at: recv - 1200 }),
      p.impression('never-issued', ['P210'], { at: recv - 40, recv }),
    ];
  },
});

export default {
  valid: [
    {
      name: 'a click alone with an earlier search’s responseId beside this page’s own rendered response: a stale responseId (missing-render’s), not a backfill',
      events: CARRIED({ after: (p, at) => [p.click('rA', 'P200', { at })] }),
    },
    {
      name: 'an earlier page load’s responseId impressed here, both pages in development mode (no cache): missing-render’s',
      events: CARRIED({ dev: true, after: (p, at) => [p.impression('rA', ['P100'], { at })] }),
    },
    {
      name: 'page 2 fetched by scrolling, 5 s after page 1, is missing-render’s',
      provenance: { companion: true, responses: INFINITE.scrolled },
      events: INFINITE.traffic,
    },
    {
      name: 'an SPA filter in the hash on the same query: a new search (missing-render’s), no backfill',
      events: spaFilterWithoutRender,
    },
    {
      name: 'every response rendered',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 10 }),
          p.render('r2', { at: 15 }),
          p.impression('r2', ['b'], { at: 20 }),
        ];
      },
    },
    {
      name: 'page 1 of a search (the sandbox issued it) is missing-render’s, never backfill',
      provenance: { companion: true, responses: [R1, { ...R2, page: 1 }] },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P200'], { at: 1200 }),
          p.impression('r2', ['P210'], { at: 1300 }),
        ];
      },
    },
    {
      name: 'an id the sandbox never issued beside the only page of its search is missing-render’s',
      ...unissuedBeside([{ ...FULL_PROD, perPage: 24 }], 1200),
    },
    {
      name: 'an id the sandbox never issued beside its page 1 of a development search is missing-render’s',
      ...unissuedBeside([{ ...FULL_PROD, test: true }], 1200),
    },
  ],
  invalid: [
    {
      name: 'a click whose responseId is not its tile’s (impressed under the rendered response) is no restored page: it follows from click-under-other-response',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a', 'b'], { at: 1200 }),
          p.click('x9', 'b', { at: 3000 }),
        ];
      },
      findings: [{ events: [2], responseId: 'x9', causedBy: 'click-under-other-response' }],
    },
    {
      name: 'edge: the same response impressed a tile of its own too: its missing render is its own, and leads',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a', 'b'], { at: 1200 }),
          p.impression('x9', ['c'], { at: 2500 }),
          p.click('x9', 'b', { at: 3000 }),
        ];
      },
      findings: [{ events: [2, 3], responseId: 'x9', causedBy: null }],
    },
    {
      name: 'edge: restored pages’ tiles impressed after the URL moved to a later page of the same search (only its page differs): still a backfill',
      events: () => {
        const p = new PageBuilder({ pageUrl: 'http://localhost:3000/search?q=shirt&page=3' });
        const later = { context: { pageUrl: 'http://localhost:3000/search?q=shirt&page=4' } };
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.impression('r2', ['b'], { at: 4000, ...later }),
        ];
      },
      findings: [{ messageId: 'backfill', events: [2], responseId: 'r2' }],
    },
    {
      name: 'edge: the same search with an anchor and a utm parameter in the URL (no search parameter of the client’s): still a backfill',
      events: () => {
        const p = new PageBuilder({ pageUrl: 'http://localhost:3000/search?q=shirt' });
        const anchored = {
          context: { pageUrl: 'http://localhost:3000/search?q=shirt&utm_source=mail#reviews' },
        };
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.impression('r2', ['b'], { at: 2000, ...anchored }),
        ];
      },
      findings: [{ messageId: 'backfill', events: [2], responseId: 'r2' }],
    },
    {
      name: 'edge: an earlier page load’s responseId whose tiles this page impressed and clicked, in production within the cache’s minutes: a page the client’s cache may have restored',
      events: CARRIED({
        after: (p, at) => [
          p.impression('rA', ['P100'], { at }),
          p.click('rA', 'P100', { at: at + 2000 }),
        ],
      }),
      findings: [{ message: 'Reported apart, as info', events: [4, 5], responseId: 'rA' }],
    },
    {
      name: 'edge: a click alone with a responseId no earlier page load carried: a restored page’s tile clicked before its impression',
      events: CARRIED({ fresh: true, after: (p, at) => [p.click('rA', 'P200', { at })] }),
      findings: [{ events: [2], responseId: 'rA' }],
    },
    {
      name: 'an id the sandbox never issued beside its page 1 of a production search, 1 min after the sandbox’s memory began: the client’s cache may have kept a restored page from before it',
      ...unissuedBeside([FULL_PROD], 1200),
      findings: [{ events: [1], responseId: 'never-issued' }],
    },
    {
      name: 'pages 1 and 2 requested together on load by this page load (300 ms apart)',
      provenance: { companion: true, responses: INFINITE.together },
      events: INFINITE.traffic,
      findings: [{ events: [2], responseId: 'p2' }],
    },
    {
      name: 'a later page’s impressions beside page 1’s render (infinite scroll restored)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 10 }),
          p.impression('r2', ['b'], { at: 20 }),
        ];
      },
      findings: [{ message: 'Reported apart, as info', events: [2], responseId: 'r2' }],
    },
    {
      name: 'page 2 as the sandbox issued it',
      provenance: { companion: true, responses: [R1, R2] },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P200'], { at: 1200 }),
          p.impression('r2', ['P210'], { at: 1300 }),
        ];
      },
      findings: [{ events: [2] }],
    },
  ],
} satisfies RuleCases;
