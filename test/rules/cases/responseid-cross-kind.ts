import { PageBuilder, T0, issued, type RuleCases } from '../kit';

const PDP = 'http://localhost:3000/products/p200';
/** one recommend request's two widgets: w1 for "similar" (P201, P202), w2 for "cart-recs" (P300) */
const widget = (responseId: string, tag: string, uids: string[]) =>
  issued({
    responseId,
    kind: 'recommendations',
    tag,
    query: '',
    perPage: uids.length,
    results: uids.map((uid) => ({ uid, sku: uid, parentId: uid, children: [] })),
  });
const WIDGETS = [widget('w1', 'similar', ['P201', 'P202']), widget('w2', 'cart-recs', ['P300'])];

/**
 * The product page's two widgets, the "cart-recs" widget rendering the "similar" widget's w1 (with the
 * same recommend request's w2 its own) and impressing `uid` under it.
 */
const reused = (uid: string) => () => {
  const p = new PageBuilder({ pageUrl: PDP });
  const similar = p.as('recommendations', 'similar');
  const cart = p.as('recommendations', 'cart-recs');
  return [
    similar.render('w1', { at: 0 }),
    cart.render('w1', { at: 10 }),
    similar.impression('w1', ['P201', 'P202'], { at: 1300 }),
    cart.impression('w1', [uid], { at: 1310 }),
  ];
};

export default {
  valid: [
    {
      name: 'autocomplete and search each with their own responseId',
      events: () => {
        const p = new PageBuilder();
        const ac = p.as('autocomplete');
        return [
          ac.render('a1', { at: 0 }),
          ac.impression('a1', ['x'], { at: 1200 }),
          p.render('s1', { at: 3000 }),
          p.impression('s1', ['y'], { at: 4200 }),
        ];
      },
    },
    {
      name: 'two widgets, each rendering its own responseId',
      provenance: { responses: WIDGETS },
      events: () => {
        const p = new PageBuilder({ pageUrl: PDP });
        const similar = p.as('recommendations', 'similar');
        const cart = p.as('recommendations', 'cart-recs');
        return [
          similar.render('w1', { at: 0 }),
          cart.render('w2', { at: 10 }),
          similar.impression('w1', ['P201'], { at: 1300 }),
          cart.impression('w2', ['P300'], { at: 1310 }),
        ];
      },
    },
    {
      name: 'one widget rendering its responseId twice: duplicate-render’s, not another widget’s',
      provenance: { responses: WIDGETS },
      events: () => {
        const similar = new PageBuilder({ pageUrl: PDP }).as('recommendations', 'similar');
        return [
          similar.render('w1', { at: 0 }),
          similar.render('w1', { at: 10 }),
          similar.impression('w1', ['P201'], { at: 1300 }),
        ];
      },
    },
    {
      name: 'a widget’s impression sent with the other widget’s tag, no render of its own: missing-render’s otherTag (the tag is wrong, not the responseId)',
      provenance: { responses: WIDGETS },
      events: () => {
        const p = new PageBuilder({ pageUrl: PDP });
        const similar = p.as('recommendations', 'similar');
        const cart = p.as('recommendations', 'cart-recs');
        return [
          similar.render('w1', { at: 0 }),
          cart.render('w2', { at: 10 }),
          cart.impression('w1', ['P201'], { at: 1300 }),
        ];
      },
    },
    {
      name: 'without the companion’s record, two widgets rendering their own ids',
      events: () => {
        const p = new PageBuilder({ pageUrl: PDP });
        return [
          p.as('recommendations', 'similar').render('x1', { at: 0 }),
          p.as('recommendations', 'cart-recs').render('x2', { at: 10 }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'the dropdown tracked with the search tracker: its whole response on search/*, the endpoint is the fix',
      provenance: {
        companion: true,
        responses: [issued({ responseId: 'a2', kind: 'autocomplete' })],
      },
      events: () => {
        const p = new PageBuilder();
        return [p.render('a2', { at: 0 }), p.impression('a2', ['x'], { at: 1200 })];
      },
      findings: [
        {
          responseId: 'a2',
          messageId: 'wrongEndpoint',
          message:
            'none to autocomplete/*: the autocomplete results were tracked on the search endpoints',
          fix: 'send these events to autocomplete/*',
        },
      ],
    },
    {
      name: 'the search box’s submit tracked as search/redirect with the dropdown’s responseId, whose response carries no redirect',
      provenance: {
        companion: true,
        responses: [issued({ responseId: 'a4', kind: 'autocomplete', query: 'tra' })],
      },
      events: () => {
        const p = new PageBuilder();
        const ac = p.as('autocomplete');
        return [
          ac.render('a4', { at: 0 }),
          ac.impression('a4', ['x'], { at: 1200 }),
          p.redirect('a4', 'http://localhost:3000/search?q=tra', { at: 3000 }),
        ];
      },
      findings: [
        {
          responseId: 'a4',
          messageId: 'submitAsRedirect',
          message: 'a submit of the search box tracked as a merchandising redirect',
          fix: 'send nothing when the shopper submits the search box',
        },
      ],
    },
    {
      name: 'edge: the dropdown’s redirect (its response carries one) sent on search/redirect: the endpoint, not a submit',
      provenance: {
        companion: true,
        responses: [
          issued({
            responseId: 'a5',
            kind: 'autocomplete',
            query: 'gift',
            redirect: '/pages/gifts',
          }),
        ],
      },
      events: () => {
        const p = new PageBuilder();
        return [
          p.as('autocomplete').render('a5', { at: 0 }),
          p.redirect('a5', '/pages/gifts', { at: 3000 }),
        ];
      },
      findings: [{ responseId: 'a5', messageId: 'otherEndpoints', fix: 'to autocomplete/*' }],
    },
    {
      name: 'a category page tracked on search/*',
      provenance: { companion: true, responses: [issued({ responseId: 'c2', kind: 'category' })] },
      events: () => [new PageBuilder().render('c2', { at: 0 })],
      findings: [{ responseId: 'c2', messageId: 'wrongEndpoint', fix: 'to category/*' }],
    },
    {
      name: 'edge: the dropdown tracked on its own endpoints too: the id on search/* is the stray one',
      provenance: {
        companion: true,
        responses: [issued({ responseId: 'a3', kind: 'autocomplete' })],
      },
      events: () => {
        const p = new PageBuilder();
        return [p.as('autocomplete').render('a3', { at: 0 }), p.render('a3', { at: 3000 })];
      },
      findings: [{ responseId: 'a3', messageId: 'otherKind', fix: 'take data.responseId' }],
    },
    {
      name: 'search events carrying the autocomplete response’s id',
      events: () => {
        const p = new PageBuilder();
        const ac = p.as('autocomplete');
        return [
          ac.render('a1', { at: 0 }),
          ac.impression('a1', ['x'], { at: 1200 }),
          p.render('a1', { at: 3000 }),
          p.impression('a1', ['y'], { at: 4200 }),
        ];
      },
      findings: [{ responseId: 'a1', messageId: 'otherKind' }],
    },
    {
      name: 'a widget the page never asked for: the "trending" widget’s response rendered and tracked with tag "similar", no "similar" asked: the tag is the fault',
      provenance: { responses: [widget('t1', 'trending', ['P201', 'P202'])] },
      events: () => {
        const similar = new PageBuilder({ pageUrl: PDP }).as('recommendations', 'similar');
        return [
          similar.render('t1', { at: 0 }),
          similar.impression('t1', ['P201', 'P202'], { at: 1300 }),
        ];
      },
      findings: [
        {
          messageId: 'wrongTag',
          message: 'no recommend request of this page asked for a "similar" widget',
          fix: 'send tag "trending" with this responseId',
          responseId: 't1',
        },
      ],
    },
    {
      name: 'two widgets of one request, the "similar" widget tracking itself as "cart-recs" beside the real one with its own response: the tag is the fault',
      provenance: { responses: WIDGETS },
      events: () => {
        const p = new PageBuilder({ pageUrl: PDP });
        const cart = p.as('recommendations', 'cart-recs');
        return [
          cart.render('w2', { at: 0 }),
          cart.render('w1', { at: 10 }),
          cart.impression('w2', ['P300'], { at: 1300 }),
          cart.impression('w1', ['P201', 'P202'], { at: 1310 }),
        ];
      },
      findings: [
        {
          messageId: 'wrongTag',
          message:
            'the "cart-recs" widget rendered its own response ("w2", recommendations/render ev_',
          fix: 'send tag "similar" with this responseId',
          responseId: 'w1',
        },
      ],
    },
    {
      name: 'edge: the page asked for a "similar" widget of its own too: its own responseId is the fix, not the tag',
      provenance: {
        responses: [
          widget('t1', 'trending', ['P201', 'P202']),
          // asked by this page load a minute before (another recommend request)
          {
            ...widget('s9', 'similar', ['P300']),
            issuedAt: T0 - 61_000,
            requester: { pageLoadId: 'page-1' },
          },
        ],
      },
      events: () => {
        const similar = new PageBuilder({ pageUrl: PDP }).as('recommendations', 'similar');
        return [
          similar.render('t1', { at: 0 }),
          similar.impression('t1', ['P201', 'P202'], { at: 1300 }),
        ];
      },
      findings: [{ messageId: 'otherWidget', responseId: 't1' }],
    },
    {
      name: 'a widget rendering another widget’s responseId, as the companion issued it: named with its own id as the fix',
      provenance: { responses: WIDGETS },
      events: reused('P201'),
      findings: [
        {
          messageId: 'otherWidget',
          data: { issuedTag: 'similar', tag: 'cart-recs' },
          message:
            'responseId "w1" was issued by the sandbox\'s recommend API for widget "similar", yet this page renders it as widget "cart-recs" (recommendations/render ev_',
          fix: 'use the "cart-recs" widget\'s own responseId ("w2", which the same recommend request answered for "cart-recs")',
          events: [1, 3],
          responseId: 'w1',
          behaviour: 'recommendations.events',
          tag: 'cart-recs',
          causedBy: null,
        },
      ],
    },
    {
      name: 'the reused widget reports an item the response never served: the reuse leads, item-not-in-response follows',
      provenance: { responses: WIDGETS },
      events: reused('P203'),
      findings: [
        {
          messageId: 'otherWidget',
          fix: 'use the "cart-recs" widget\'s own responseId',
          events: [1, 3],
          causedBy: null,
        },
      ],
    },
    {
      name: 'without the companion’s record, two widgets rendering one responseId: the later render is named',
      events: () => {
        const p = new PageBuilder({ pageUrl: PDP });
        const similar = p.as('recommendations', 'similar');
        const cart = p.as('recommendations', 'cart-recs');
        return [
          similar.render('x1', { at: 0 }),
          cart.render('x1', { at: 10 }),
          similar.impression('x1', ['P201'], { at: 1300 }),
          cart.impression('x1', ['P201'], { at: 1310 }),
        ];
      },
      findings: [
        {
          messageId: 'sharedWidget',
          data: { firstTag: 'similar', tag: 'cart-recs' },
          message:
            'responseId "x1" was rendered on this page by widget "similar" (recommendations/render ev_',
          fix: 'use the "cart-recs" widget\'s own responseId',
          events: [1, 3],
          tag: 'cart-recs',
        },
      ],
    },
  ],
} satisfies RuleCases;
