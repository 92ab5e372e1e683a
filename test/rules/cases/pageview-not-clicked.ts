import { PageBuilder, visitPage, type RuleCases } from '../kit';

/** a listing of three tiles, then two of them clicked (opened in tabs): [uid, ms] each */
const twoClicks = (first: [string, number], second: [string, number]) => {
  const p = new PageBuilder({ pageLoadId: 'search' });
  return [
    p.render('r1', { at: 0 }),
    p.impression('r1', ['P101', 'P102', 'P103'], { at: 1200 }),
    p.click('r1', first[0], { at: first[1] }),
    p.click('r1', second[0], { at: second[1] }),
  ];
};

export default {
  valid: [
    {
      name: 'a click, then the product page of the clicked product’s variant',
      events: () => {
        const p = new PageBuilder({ pageLoadId: 'search' });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P103'], { at: 1200 }),
          p.click('r1', 'P103', { at: 3000 }),
          visitPage('pdp').product('1030', { at: 3600 }, 'P103'),
        ];
      },
    },
    {
      name: 'a product page opened long after the click (the shopper browsed elsewhere)',
      events: () => {
        const p = new PageBuilder({ pageLoadId: 'search' });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P103'], { at: 1200 }),
          p.click('r1', 'P103', { at: 3000 }),
          visitPage('pdp').product('P900', { at: 60_000 }),
        ];
      },
    },
    {
      name: 'a banner click (a single id) followed by a product page',
      events: () => {
        const p = new PageBuilder({ pageLoadId: 'search' });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', [], { at: 1200 }, ['b-1']),
          p.bannerClick('r1', 'b-1', { at: 3000 }),
          visitPage('pdp').product('P900', { at: 3600 }),
        ];
      },
    },
    {
      name: 'a click on an untyped item with a single id (a banner may look so) followed by a product page',
      events: () => {
        const p = new PageBuilder({ pageLoadId: 'search' });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P103'], { at: 1200 }),
          p.event('clickthrough', { responseId: 'r1', results: [{ uid: 'P103' }] }, { at: 3000 }),
          visitPage('pdp').product('P900', { at: 3600 }),
        ];
      },
    },
    {
      name: 'a click on a product whose ids are one (uid = parentId = sku), then its own page',
      events: () => {
        const p = new PageBuilder({ pageLoadId: 'search' });
        const tile = { type: 'product', uid: 'P200', parentId: 'P200', sku: 'P200' };
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P200'], { at: 1200 }),
          p.event('clickthrough', { responseId: 'r1', results: [tile] }, { at: 3000 }),
          visitPage('pdp').product('P200', { at: 3600 }),
        ];
      },
    },
    {
      name: 'an SPA: a click, then the route to the clicked product on the same page load',
      events: () => {
        const p = visitPage('spa', { pageUrl: 'https://shop.example/search?q=jacket' });
        const routed = visitPage('spa', { pageUrl: 'https://shop.example/products/p103' });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P102', 'P103'], { at: 1200 }),
          p.click('r1', 'P103', { at: 3000 }),
          routed.product('P103', { at: 3300 }),
        ];
      },
    },
    {
      name: 'edge: a quick view at the listing’s own URL names another product than the click (a quick view is not the route)',
      events: () => {
        const p = visitPage('spa', { pageUrl: 'https://shop.example/search?q=jacket' });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P102', 'P103'], { at: 1200 }),
          p.click('r1', 'P103', { at: 3000 }),
          p.product('P102', { at: 3300 }),
        ];
      },
    },
    {
      name: 'two tiles opened in background tabs (ctrl-clicks 0.6 s apart): the first click’s page loads after the second click',
      events: () => [
        ...twoClicks(['P101', 3000], ['P103', 3600]),
        visitPage('tab1').product('P101', { at: 4000 }),
        visitPage('tab2').product('P103', { at: 4300 }),
      ],
    },
    {
      name: 'edge: the click that names the product 10.0 s before its view, a later click of another tile',
      events: () => [
        ...twoClicks(['P101', 3000], ['P103', 12_000]),
        visitPage('tab1').product('P101', { at: 13_000 }),
      ],
    },
  ],
  invalid: [
    {
      name: 'two clicks in tabs, neither naming the product the page views: the latest click is named',
      events: () => [
        ...twoClicks(['P102', 3000], ['P103', 3600]),
        visitPage('pdp').product('P101', { at: 4000 }),
      ],
      findings: [{ message: 'after clicking "P103"', pageLoadId: 'pdp', events: [3, 4] }],
    },
    {
      name: 'edge: the click that names the product 10.001 s before its view no longer counts; the later click is named',
      events: () => [
        ...twoClicks(['P101', 2_999], ['P103', 12_000]),
        visitPage('pdp').product('P101', { at: 13_000 }),
      ],
      findings: [{ message: 'after clicking "P103"', pageLoadId: 'pdp', events: [3, 4] }],
    },
    {
      name: 'an SPA: a click on P103, then the route to its URL sends the product view of the page before (P101)',
      events: () => {
        const pdp = visitPage('spa', { pageUrl: 'https://shop.example/products/p101' });
        const recs = pdp.as('recommendations', 'similar');
        const routed = visitPage('spa', { pageUrl: 'https://shop.example/products/p103' });
        return [
          pdp.product('P101', { at: 0 }),
          recs.render('w1', { at: 100 }),
          recs.impression('w1', ['P102', 'P103'], { at: 1300 }),
          recs.click('w1', 'P103', { at: 3000 }),
          routed.product('P101', { at: 3300 }),
        ];
      },
      findings: [{ message: 'names "P101"', pageLoadId: 'spa', events: [3, 4] }],
    },
    {
      name: 'a click on P102 lands on a page whose view names P101',
      events: () => {
        const p = new PageBuilder({ pageLoadId: 'search' });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P101', 'P102'], { at: 1200 }),
          p.click('r1', 'P102', { at: 3000 }),
          visitPage('pdp').product('P101', { at: 3600 }),
        ];
      },
      findings: [
        {
          message: 'after clicking "P102"',
          fix: 'ids of the product the page shows',
          pageLoadId: 'pdp',
          events: [2, 3],
        },
      ],
    },
    {
      name: 'a click on a product whose ids are one (uid = parentId = sku, typed a product) lands on a page naming another id',
      events: () => {
        const p = new PageBuilder({ pageLoadId: 'search' });
        const tile = { type: 'product', uid: 'P200', parentId: 'P200', sku: 'P200' };
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P200'], { at: 1200 }),
          p.event('clickthrough', { responseId: 'r1', results: [tile] }, { at: 3000 }),
          visitPage('pdp').product('rain-shell-jacket', { at: 3500 }),
        ];
      },
      findings: [{ message: 'after clicking "P200" (', pageLoadId: 'pdp', events: [2, 3] }],
    },
  ],
} satisfies RuleCases;
