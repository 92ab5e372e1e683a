import { PageBuilder, visitPage, type RuleCases } from '../kit';

/** a listing that rendered and impressed three tiles, its last event at 1.2 s */
const listing = () => {
  const p = new PageBuilder({ pageLoadId: 'search' });
  return {
    p,
    events: [p.render('r1', { at: 0 }), p.impression('r1', ['P101', 'P102', 'P103'], { at: 1200 })],
  };
};

export default {
  valid: [
    {
      name: 'the click arrived, then the product page',
      events: () => {
        const { p, events } = listing();
        return [
          ...events,
          p.click('r1', 'P102', { at: 3000 }),
          visitPage('pdp').product('P102', { at: 3400 }),
        ];
      },
    },
    {
      name: 'the listing went on after the product page began (opened in another tab, a middle click sends no click)',
      events: () => {
        const { p, events } = listing();
        return [
          ...events,
          visitPage('pdp').product('P102', { at: 3000 }),
          p.impression('r1', ['P104'], { at: 3100 }),
        ];
      },
    },
    {
      name: 'the product page just over 10 s after the listing’s last event (the shopper came back to it later)',
      events: () => {
        const { events } = listing();
        return [...events, visitPage('pdp').product('P102', { at: 11_201 })];
      },
    },
    {
      name: 'a product the listing did not impress (reached some other way)',
      events: () => {
        const { events } = listing();
        return [...events, visitPage('pdp').product('P900', { at: 3000 })];
      },
    },
    {
      name: 'a listing of one tile (a single-result search goes to its product without a click)',
      events: () => {
        const p = new PageBuilder({ pageLoadId: 'search' });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P102'], { at: 1200 }),
          visitPage('pdp').product('P102', { at: 2000 }),
        ];
      },
    },
    {
      name: 'an SPA listing that searched again and rendered a search of one result as its last event (it goes to that product)',
      events: () => {
        const { p, events } = listing();
        return [
          ...events,
          p.render('r2', { at: 2_000 }),
          visitPage('pdp').product('P102', { at: 2_500 }),
        ];
      },
    },
    {
      name: 'a product the visit viewed before (back and forward through the history)',
      events: () => {
        const first = visitPage('pdp-1');
        const p = new PageBuilder({ pageLoadId: 'search' });
        return [
          first.product('P102', { at: -30_000 }),
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P101', 'P102', 'P103'], { at: 1200 }),
          visitPage('pdp-2').product('P102', { at: 3000 }),
        ];
      },
    },
    {
      name: 'a click of another tile (pageview-not-clicked judges where it led)',
      events: () => {
        const { p, events } = listing();
        return [
          ...events,
          p.click('r1', 'P101', { at: 2500 }),
          visitPage('pdp').product('P102', { at: 3000 }),
        ];
      },
    },
    {
      name: 'edge: a click 10 s before the product page (another tile: pageview-not-clicked judges where it led)',
      events: () => {
        const p = new PageBuilder({ pageLoadId: 'search' });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P101', 'P102', 'P103'], { at: 1200 }),
          p.click('r1', 'P101', { at: 2000 }),
          p.impression('r1', ['P104'], { at: 9_000 }),
          visitPage('pdp').product('P102', { at: 12_000 }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'edge: a click of another tile 10.001 s before the product page, opened in another tab: it did not lead here',
      events: () => {
        const p = new PageBuilder({ pageLoadId: 'search' });
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P101', 'P102', 'P103'], { at: 1200 }),
          p.click('r1', 'P101', { at: 1999 }),
          p.impression('r1', ['P104'], { at: 9_000 }),
          visitPage('pdp').product('P102', { at: 12_000 }),
        ];
      },
      findings: [{ messageId: 'lost', pageLoadId: 'pdp', events: [4] }],
    },
    {
      name: 'the listing impressed P102, the product page of P102 followed, and no click came',
      events: () => {
        const { events } = listing();
        return [...events, visitPage('pdp').product('P102', { at: 3000 })];
      },
      findings: [
        {
          message: 'no clickthrough reached the service',
          fix: 'keepalive: true',
          pageLoadId: 'pdp',
          events: [2],
        },
      ],
    },
    {
      name: 'the product page 10 s after the listing’s last event',
      events: () => {
        const { events } = listing();
        return [...events, visitPage('pdp').product('P102', { at: 11_200 })];
      },
      findings: [{ message: 'came here 10 s after', pageLoadId: 'pdp', events: [2] }],
    },
    {
      name: 'a variant’s page of an impressed product (its parentId was the tile)',
      events: () => {
        const { events } = listing();
        return [...events, visitPage('pdp').product('P102-red', { at: 3000 }, 'P102')];
      },
      findings: [{ message: '"P102-red" / "P102"', pageLoadId: 'pdp', events: [2] }],
    },
  ],
} satisfies RuleCases;
