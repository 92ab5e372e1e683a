import { PageBuilder, visitPage, type RuleCases } from '../kit';

const URL = 'http://localhost:3000/search?q=boots';
const page = (pageUrl = URL) => new PageBuilder({ pageLoadId: 'pl-1', pageUrl });

export default {
  valid: [
    {
      name: 'a reload within 10 s keeps the pageLoadId and renders the cached response again',
      events: () => [
        page().render('r1', { at: 0 }),
        page().impression('r1', ['a'], { at: 1200 }),
        page().render('r1', { at: 6_000 }),
        page().impression('r1', ['a'], { at: 7_200 }),
      ],
    },
    {
      name: 'edge: the second render 20 s after the first (a reload within 10 s, and a slow page)',
      events: () => [page().render('r1', { at: 0 }), page().render('r1', { at: 20_000 })],
    },
    {
      name: 'an SPA: another search rendered between, then back to the cached one',
      events: () => [
        page().render('r1', { at: 0 }),
        page(`${URL}&sort=price`).render('r2', { at: 10_000 }),
        page().render('r1', { at: 40_000 }),
      ],
    },
    {
      name: 'edge: an SPA route away and back (an event at another URL between them)',
      events: () => [
        page().render('r1', { at: 0 }),
        visitPage('pl-1', { pageUrl: 'http://localhost:3000/products/p1' }).product('p1', {
          at: 10_000,
        }),
        page().render('r1', { at: 40_000 }),
      ],
    },
    {
      name: 'edge: the second render at another URL is no reload',
      events: () => [
        page().render('r1', { at: 0 }),
        page(`${URL}#top`).render('r1', { at: 40_000 }),
      ],
    },
  ],
  invalid: [
    {
      name: 'a reload 40 s later that kept the first load’s pageLoadId',
      events: () => [
        page().render('r1', { at: 0 }),
        page().impression('r1', ['a'], { at: 1200 }),
        page().render('r1', { at: 43_000 }),
        page().impression('r1', ['a'], { at: 44_200 }),
      ],
      findings: [
        {
          messageId: 'reloaded',
          message: 'again on page load "pl-1", 43 s after',
          events: [0, 2],
          responseId: 'r1',
        },
      ],
    },
    {
      name: 'edge: just over 20 s later, an impression between at the same URL',
      events: () => [
        page().render('r1', { at: 0 }),
        page().impression('r1', ['a'], { at: 5_000 }),
        page().render('r1', { at: 20_001 }),
      ],
      findings: [{ messageId: 'reloaded', events: [0, 2] }],
    },
    {
      name: 'a click led to a page load of its own, then the listing came back from the back/forward cache and a pageshow handler re-sent its render',
      events: () => [
        page().render('r1', { at: 0 }),
        page().event(
          'clickthrough',
          { responseId: 'r1', results: [{ type: 'product', uid: 'a', parentId: '' }] },
          { at: 5_000 },
        ),
        visitPage('pdp', { pageUrl: 'http://localhost:3000/products/a' }).product('a', {
          at: 6_000,
        }),
        page().render('r1', { at: 120_000 }),
      ],
      findings: [
        {
          messageId: 'restored',
          message: "after the page's click ev_",
          fix: 'event.persisted',
          events: [0, 3],
        },
      ],
    },
  ],
} satisfies RuleCases;
