import { PageBuilder, T0, issued, type RuleCases } from '../kit';

// what page-1's own searches asked for (their requests carried pageLoadId page-1)
const mine = { userId: 'user-1', sessionId: 'session-1', pageLoadId: 'page-1' };
const RESULTS = [{ uid: 'P200', sku: 'P200', parentId: 'P200', children: [] }];
/** the first search, with no results, answered 1 s before the page's first event */
const EMPTY = issued({ responseId: 'empty', query: 'xyzzy', requester: mine });
/** the corrected query, answered 3 s later */
const SHIRT = issued({
  responseId: 'shirt',
  query: 'shirt',
  issuedAt: T0 + 2000,
  results: RESULTS,
  requester: mine,
});
const REDIRECT = issued({ responseId: 'redirect', redirect: '/pages/gifts', requester: mine });
/** a Finder's count (resultsPerPage=0) this page load asked for */
const COUNT = issued({
  responseId: 'count',
  perPage: 0,
  asked: 'page=1&q=shirt&resultsPerPage=0',
  requester: mine,
});
const DROPDOWN = issued({ responseId: 'dropdown', kind: 'autocomplete', requester: mine });
const OTHER_PAGE = issued({
  responseId: 'other-page',
  requester: { ...mine, pageLoadId: 'page-2' },
});
const page = (n: number, issuedAt: number, id = `p${n}`) =>
  issued({ responseId: id, query: 'shirt', page: n, issuedAt, results: RESULTS, requester: mine });

/** the page's events: the corrected search rendered at `at` (its tiles impressed after) */
const correctedAt = (at: number) => {
  const p = new PageBuilder();
  return [p.render('shirt', { at }), p.impression('shirt', ['P200'], { at: at + 1200 })];
};

export default {
  valid: [
    {
      name: 'the no-results search is rendered, then the corrected one',
      provenance: { companion: true, responses: [EMPTY, SHIRT] },
      events: () => [new PageBuilder().render('empty', { at: 0 }), ...correctedAt(3000)],
    },
    {
      name: 'a Finder’s count (resultsPerPage=0) is never rendered',
      provenance: { companion: true, responses: [COUNT, SHIRT] },
      events: () => correctedAt(3000),
    },
    {
      name: 'a merchandising redirect is not rendered (search/redirect has rules of its own)',
      provenance: { companion: true, responses: [REDIRECT, SHIRT] },
      events: () => correctedAt(3000),
    },
    {
      name: 'an autocomplete response typed over is never rendered',
      provenance: { companion: true, responses: [DROPDOWN, SHIRT] },
      events: () => correctedAt(3000),
    },
    {
      name: 'a response another page load asked for',
      provenance: { companion: true, responses: [OTHER_PAGE, SHIRT] },
      events: () => correctedAt(3000),
    },
    {
      name: 'the page sent nothing queued after: a click is sent at once, the queue may have left with the page',
      provenance: { companion: true, responses: [EMPTY] },
      events: () => {
        const p = new PageBuilder();
        return [p.click('r9', 'P200', { at: 5000 })];
      },
    },
    {
      name: 'a queued request exactly 2 s after the answer may have left before the render was queued',
      provenance: { companion: true, responses: [EMPTY] },
      events: () => [new PageBuilder().impression('r9', ['P200'], { at: 960 })],
    },
    {
      name: 'infinite-scroll backfill: page 2 fetched with page 1 on load shares page 1’s render',
      provenance: { companion: true, responses: [page(1, T0 - 1000), page(2, T0 - 700)] },
      events: () => {
        const p = new PageBuilder();
        return [p.render('p1', { at: 0 }), p.impression('p1', ['P200'], { at: 5000 })];
      },
    },
  ],
  invalid: [
    {
      name: 'the no-results page sends no render, and the shopper searches again',
      provenance: { companion: true, responses: [EMPTY, SHIRT] },
      events: () => correctedAt(3000),
      findings: [
        {
          responseId: 'empty',
          data: { query: '"xyzzy"', results: 'no results', kind: 'search' },
          message: /never sent/,
          events: [1],
          behaviour: 'search.zero-results-render',
        },
      ],
    },
    {
      name: 'a queued request just over 2 s after the answer',
      provenance: { companion: true, responses: [EMPTY] },
      events: () => [new PageBuilder().impression('r9', ['P200'], { at: 961 })],
      findings: [{ responseId: 'empty', events: [0] }],
    },
    {
      name: 'page 2 fetched 2.5 s after page 1 (a scroll, not a backfill) is rendered on its own',
      provenance: { companion: true, responses: [page(1, T0 - 3000), page(2, T0 - 500)] },
      events: () => {
        const p = new PageBuilder();
        return [p.render('p1', { at: 0 }), p.impression('p1', ['P200'], { at: 5000 })];
      },
      // a search with results: the render after every search, not the no-results page's
      findings: [{ responseId: 'p2', data: { results: '1 result' }, behaviour: 'search.render' }],
    },
    {
      name: 'a category page’s no-results search is not rendered: the category controller’s, named on the category row',
      provenance: {
        companion: true,
        responses: [issued({ responseId: 'no-bags', kind: 'category', requester: mine })],
      },
      events: () => {
        const p = new PageBuilder().as('category');
        return [p.render('bags', { at: 3000 }), p.impression('bags', ['P200'], { at: 4200 })];
      },
      findings: [
        {
          responseId: 'no-bags',
          data: { kind: 'category', results: 'no results' },
          behaviour: 'category.events',
        },
      ],
    },
  ],
} satisfies RuleCases;
