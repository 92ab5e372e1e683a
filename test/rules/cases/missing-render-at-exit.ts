import { PageBuilder, T0, issued, type RuleCases } from '../kit';

/** the page's search, answered at T0 */
const product = (uid: string) => ({ uid, sku: uid, parentId: uid, children: [] });
const QUICK = issued({
  responseId: 'q1',
  query: 'jacket',
  issuedAt: T0,
  results: [product('P200'), product('P201')],
});
const companion = { companion: true, responses: [QUICK] };
/** a click on the response received `recv` ms after the answer (timestamped 40 ms before), then `more` */
const clickedAt =
  (recv: number, more: (p: PageBuilder) => ReturnType<PageBuilder['render']>[] = () => []) =>
  () => {
    const p = new PageBuilder();
    return [p.click('q1', 'P200', { at: recv - 40, recv }), ...more(p)];
  };

export default {
  valid: [
    {
      name: 'edge: the click arrived 2.001 s after the answer: the render would have left the queue (missing-render’s)',
      provenance: companion,
      events: clickedAt(2001),
    },
    {
      name: 'the page went on after the quick click (missing-render’s)',
      provenance: companion,
      events: clickedAt(250, (p) => [p.as('autocomplete').render('ac1', { at: 800 })]),
    },
    {
      name: 'an impression of the response arrived: its render was queued with it (missing-render’s)',
      provenance: companion,
      events: () => {
        const p = new PageBuilder();
        return [
          p.impression('q1', ['P201'], { at: 100, recv: 140 }),
          p.click('q1', 'P200', { at: 210, recv: 250 }),
        ];
      },
    },
    {
      name: 'a response the sandbox did not issue: nothing to time the click by (missing-render’s error says so)',
      events: clickedAt(250),
    },
    {
      name: 'the only result of a single-result search: the client navigates there by itself (missing-render’s)',
      provenance: { companion: true, responses: [{ ...QUICK, results: [product('P200')] }] },
      events: clickedAt(250),
    },
    {
      name: 'a rendered response clicked at once',
      provenance: companion,
      events: () => {
        const p = new PageBuilder();
        return [p.render('q1', { at: 0 }), p.click('q1', 'P200', { at: 210, recv: 250 })];
      },
    },
  ],
  invalid: [
    {
      name: 'a search result clicked 0.3 s after the answer, the page left: the render may still have been queued',
      provenance: companion,
      events: clickedAt(289),
      findings: [
        {
          messageId: 'atExit',
          data: { responseId: 'q1', after: '0.3 s', render: 'search/render' },
          message:
            "the click was the page's last event, 0.3 s after the sandbox issued the response, and the provider's client holds a render in its queue for 300 ms",
          fix: 'in a test, wait until search/render with data.responseId "q1" has been sent',
          events: [0],
          responseId: 'q1',
        },
      ],
    },
    {
      name: 'edge: the click arrived exactly 2 s after the answer',
      provenance: companion,
      events: clickedAt(2000),
      findings: [{ messageId: 'atExit', data: { after: '2.0 s' }, events: [0] }],
    },
    {
      name: 'a category tile clicked at once, the page left',
      provenance: { companion: true, responses: [{ ...QUICK, kind: 'category' as const }] },
      events: () => {
        const p = new PageBuilder().as('category');
        return [p.click('q1', 'P200', { at: 100, recv: 140 })];
      },
      findings: [{ messageId: 'atExit', data: { render: 'category/render' }, events: [0] }],
    },
    {
      name: 'edge: a widget that served a single product: widgets have no single-result redirect',
      provenance: {
        companion: true,
        responses: [
          {
            ...QUICK,
            kind: 'recommendations' as const,
            tag: 'similar',
            results: [product('P200')],
          },
        ],
      },
      events: () => {
        const p = new PageBuilder().as('recommendations', 'similar');
        return [p.click('q1', 'P200', { at: 100, recv: 140 })];
      },
      findings: [{ messageId: 'atExit', events: [0] }],
    },
    {
      name: 'a widget’s product clicked at once, the page left: its render waits in the same queue',
      provenance: {
        companion: true,
        responses: [{ ...QUICK, kind: 'recommendations' as const, tag: 'similar' }],
      },
      events: () => {
        const p = new PageBuilder().as('recommendations', 'similar');
        return [p.click('q1', 'P200', { at: 100, recv: 140 })];
      },
      findings: [{ messageId: 'atExit', data: { render: 'recommendations/render' }, events: [0] }],
    },
  ],
} satisfies RuleCases;
