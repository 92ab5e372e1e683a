import { PageBuilder, T0, issued, type RuleCases } from '../kit';

const asked = { userId: 'user-1', sessionId: 'session-1', pageLoadId: 'page-1' };
/** r1 answered first, then this page load's search for "boot" answered with r2 */
const searches = [
  issued({ responseId: 'r1', requester: asked, issuedAt: T0 - 500 }),
  issued({ responseId: 'r2', query: 'boot', requester: asked, issuedAt: T0 + 4800 }),
];

/**
 * r1 rendered and impressed on one page, then (with `between`) another search's r2 rendered at 3 s, then
 * r1 rendered again at `again` ms
 */
const comeBack =
  (again: number, { between = false, dev = false }: { between?: boolean; dev?: boolean } = {}) =>
  () => {
    const p = new PageBuilder({ dev });
    return [
      p.render('r1', { at: 0 }),
      p.impression('r1', ['a'], { at: 1200 }),
      ...(between ? [p.render('r2', { at: 3000 })] : []),
      p.render('r1', { at: again }),
    ];
  };

export default {
  valid: [
    {
      name: 'a cached response rendered again after another search (back to it)',
      events: comeBack(5000, { between: true }),
    },
    {
      name: 'back to a cached response after another search, 5 minutes after its first render',
      events: comeBack(6 * 60_000, { between: true }),
    },
    {
      name: 'an SPA route elsewhere and back between the two renders (a controller made anew)',
      events: () => {
        const p = new PageBuilder({ pageUrl: 'https://shop.example/search?q=a', dev: false });
        const route = new PageBuilder({ pageUrl: 'https://shop.example/product/1', dev: false });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          route.as('recommendations').render('w1', { at: 3000 }),
          p.render('r1', { at: 5000 }),
        ];
      },
    },
    {
      name: 'edge: rendered again on a route to another path whose URL still asks for the search (a hash route to a quick view)',
      events: () => {
        const p = new PageBuilder({ pageUrl: 'https://shop.example/search?q=a', dev: false });
        const quick = new PageBuilder({
          pageUrl: 'https://shop.example/search/quick-view?q=a',
          dev: false,
        });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.render('r2', { at: 3000 }),
          quick.render('r1', { at: 5000 }),
        ];
      },
    },
    {
      name: 'a widget rendered again after its impressions',
      events: () => {
        const p = new PageBuilder().as('recommendations');
        return [
          p.render('w1', { at: 0 }),
          p.impression('w1', ['a'], { at: 1200 }),
          p.render('w1', { at: 5000 }),
        ];
      },
    },
    {
      name: 'a reload of the same href 15 s after the render (the pageLoadId kept, a new controller)',
      events: comeBack(15_000),
    },
  ],
  invalid: [
    {
      name: 'the listing’s results component renders again on the SPA route to a product page (its URL asks for no search)',
      events: () => {
        const p = new PageBuilder({ pageUrl: 'https://shop.example/search?q=jacket', dev: false });
        const product = new PageBuilder({
          pageUrl: 'https://shop.example/products/down-puffer-jacket',
          dev: false,
        });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          product.render('r1', { at: 4000 }),
        ];
      },
      findings: [
        {
          messageId: 'awayFromListing',
          message:
            /^responseId "r1" was rendered again after its impressions \(ev_\d+ repeats ev_\d+\) at "https:\/\/shop\.example\/products\/down-puffer-jacket", a page that does not ask for its search \("jacket", asked at "https:\/\/shop\.example\/search\?q=jacket"\)/,
          fix: /only when the listing’s search completes, not when its component renders again on a route change/,
          events: [0, 2],
          behaviour: 'search.render-cached',
        },
      ],
    },
    {
      name: 'edge: the same route after another search between (not a cached showing either)',
      events: () => {
        const p = new PageBuilder({ pageUrl: 'https://shop.example/search?q=jacket', dev: false });
        const product = new PageBuilder({
          pageUrl: 'https://shop.example/products/down-puffer-jacket',
          dev: false,
        });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.render('r2', { at: 2000 }),
          product.render('r1', { at: 4000 }),
        ];
      },
      findings: [{ messageId: 'awayFromListing', events: [0, 3] }],
    },
    {
      name: 'a newer search answered after the render again (not the render’s search)',
      provenance: {
        companion: true,
        responses: [searches[0]!, { ...searches[1]!, issuedAt: T0 + 20_001 }],
      },
      events: comeBack(20_000),
      findings: [{ messageId: 'storeLoaded', events: [0, 2], behaviour: 'search.render-cached' }],
    },
    {
      name: 'the render of a newer search carries the previous responseId (the companion saw the search)',
      provenance: { companion: true, responses: searches },
      events: comeBack(5000),
      findings: [
        {
          messageId: 'staleRender',
          message: 'rendered again (ev_',
          data: { newer: 'r2', query: '"boot"' },
          fix: 'the response the last search returned ("r2")',
          events: [0, 2],
          behaviour: 'search.render-cached',
        },
      ],
    },
    {
      name: 'another search rendered just after the render again is not between the two',
      events: () => {
        const p = new PageBuilder({ dev: false });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.render('r1', { at: 20_000 }),
          p.render('r2', { at: 22_000 }),
        ];
      },
      findings: [{ messageId: 'storeLoaded', events: [0, 2], behaviour: 'search.render-cached' }],
    },
    {
      name: 'a render again 15.001 s after, same href, no other search between (no reload keeps the id)',
      events: comeBack(15_001),
      findings: [
        {
          messageId: 'storeLoaded',
          message: 'with no other response of the search listing rendered between',
          fix: 'once per search the listing runs',
          events: [0, 2],
          responseId: 'r1',
        },
      ],
    },
    {
      name: 'category: a render again on another query string of the same path, nothing between',
      events: () => {
        const p = new PageBuilder({
          pageUrl: 'https://shop.example/c/shoes?sort=price',
          dev: false,
        }).as('category');
        const q = new PageBuilder({ pageUrl: 'https://shop.example/c/shoes', dev: false }).as(
          'category',
        );
        return [
          p.render('c1', { at: 0 }),
          p.impression('c1', ['a'], { at: 1200 }),
          q.render('c1', { at: 5000 }),
        ];
      },
      findings: [
        {
          messageId: 'storeLoaded',
          events: [0, 2],
          responseId: 'c1',
          // the category controller's render: the category page's own behaviour
          behaviour: 'category.events',
        },
      ],
    },
    {
      name: 'development mode: back to a response after another search (no cache)',
      events: comeBack(5000, { between: true, dev: true }),
      findings: [
        {
          messageId: 'cacheOff',
          message: 'in development mode',
          events: [0, 3],
          responseId: 'r1',
          behaviour: 'search.render-cached',
        },
      ],
    },
    {
      name: 'back to a response after another search, more than 6 minutes after its first render',
      events: comeBack(6 * 60_000 + 1, { between: true }),
      findings: [
        {
          messageId: 'cacheExpired',
          message: 'rendered again 6 min',
          responseId: 'r1',
          behaviour: 'search.render-cached',
        },
      ],
    },
    {
      name: 'two renders of one response before any impression',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.render('r1', { at: 100 }),
          p.impression('r1', ['a'], { at: 1300 }),
        ];
      },
      // before any impression: the render's own, not the cache's
      findings: [
        {
          messageId: 'renderedAgain',
          fix: 'once per response',
          responseId: 'r1',
          behaviour: 'search.render',
        },
      ],
    },
    {
      name: 'autocomplete: the response shown rendered again for the same term',
      events: () => {
        const p = new PageBuilder().as('autocomplete');
        return [
          p.render('a1', { at: 0 }),
          p.impression('a1', ['a'], { at: 1200 }),
          p.render('a1', { at: 3000 }),
        ];
      },
      findings: [
        {
          messageId: 'autocompleteRenderedAgain',
          message: 'while it was the autocomplete response shown',
          fix: 'not again when the same response comes back',
          events: [0, 2],
          responseId: 'a1',
          behaviour: 'autocomplete.render',
        },
      ],
    },
    {
      name: 'a bundle widget rendered twice before any impression',
      events: () => {
        const p = new PageBuilder().as('bundles', 'cross-sell');
        return [p.render('b1', { at: 0 }), p.render('b1', { at: 300 })];
      },
      // the bundle widget's own render, not the search page's
      findings: [{ messageId: 'renderedAgain', responseId: 'b1', behaviour: 'bundles.widget' }],
    },
  ],
} satisfies RuleCases;
