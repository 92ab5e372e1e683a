import { PageBuilder, T0, issued, type RuleCases } from '../kit';
import type { IssuedResponse } from '../../../src/main/search/responses';

const asked = { userId: 'user-1', sessionId: 'session-1', pageLoadId: 'page-1' };
const JACKET = 'page=1&q=jacket&resultsPerPage=24';

/** a response the sandbox issued to page-1 for "jacket", asked `at` ms after T0 */
const jacket = (responseId: string, at: number, over: Partial<IssuedResponse> = {}) =>
  issued({
    responseId,
    query: 'jacket',
    issuedAt: T0 + at,
    asked: JACKET,
    requester: asked,
    results: [{ uid: 'P200', sku: 'P200', parentId: 'P200', children: [] }],
    ...over,
  });

/** page-1 renders s1 and s2 (rendered at `renders` ms), and impresses those in `impressed` 1.2 s later */
const page =
  (
    renders: [number, number],
    impressed: readonly string[],
    kind: 'search' | 'category' = 'search',
  ) =>
  () => {
    const p = new PageBuilder().as(kind);
    return [
      p.render('s1', { at: renders[0] - 40 }),
      p.render('s2', { at: renders[1] - 40 }),
      ...impressed.map((id) => p.impression(id, ['P200'], { at: renders[1] + 1200 })),
    ];
  };

export default {
  valid: [
    {
      name: 'edge: the same search asked again 10 ms after the first render arrived (a reload within the client’s 10 s, say)',
      provenance: { responses: [jacket('s1', 0), jacket('s2', 310)] },
      events: page([300, 600], ['s2']),
    },
    {
      name: 'two tabs of one URL opened together: both searches asked at once, each tab impressing its own tiles',
      provenance: { responses: [jacket('s1', 0), jacket('s2', 20)] },
      events: page([300, 320], ['s1', 's2']),
    },
    {
      name: 'the same query with another sort asked at once (another search)',
      provenance: {
        responses: [jacket('s1', 0), jacket('s2', 20, { asked: `${JACKET}&sort.price=asc` })],
      },
      events: page([300, 320], ['s2']),
    },
    {
      name: 'a response kept without the search it asked (an older file): nothing to compare',
      provenance: { responses: [jacket('s1', 0), jacket('s2', 20, { asked: undefined })] },
      events: page([300, 320], ['s2']),
    },
    {
      name: 'asked by another page load (its requester): not this page’s two searches',
      provenance: {
        responses: [
          jacket('s1', 0),
          jacket('s2', 20, { requester: { ...asked, pageLoadId: 'p9' } }),
        ],
      },
      events: page([300, 320], ['s2']),
    },
    {
      name: 'neither impressed yet: nothing tells which the shopper saw',
      provenance: { responses: [jacket('s1', 0), jacket('s2', 20)] },
      events: page([300, 320], []),
    },
  ],
  invalid: [
    {
      name: 'the script included twice: the same search asked twice at once, both rendered, only the second impressed',
      provenance: { responses: [jacket('s1', 0), jacket('s2', 20)] },
      events: page([300, 320], ['s2']),
      findings: [
        {
          messageId: 'twice',
          message:
            /^responseId "s2" and responseId "s1" answered the same search \(search "jacket"\) for this page load: it asked the second 20 ms after the first, before the first was rendered, and rendered both \(ev_\d+, ev_\d+\); only "s2" was impressed\./,
          fix: /^Load the provider’s script, and create the search controller, once per page/,
          events: [0, 1],
          responseId: 's2',
          behaviour: 'search.render',
        },
      ],
    },
    {
      name: 'edge: the second asked as the first render arrived (the same ms), only the first impressed, on a category page',
      provenance: {
        responses: [jacket('s1', 0, { kind: 'category' }), jacket('s2', 300, { kind: 'category' })],
      },
      events: page([300, 600], ['s1'], 'category'),
      findings: [{ messageId: 'twice', responseId: 's2', behaviour: 'category.events' }],
    },
  ],
} satisfies RuleCases;
