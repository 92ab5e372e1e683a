import { PageBuilder, type RuleCases } from '../kit';

const HOME = 'http://localhost:3000/';
const TARGET = 'http://localhost:3000/c/boots';
const page = (pageUrl: string, pageLoadId = 'pl-1') => new PageBuilder({ pageLoadId, pageUrl });
const ac = (pageUrl: string, pageLoadId = 'pl-1') => page(pageUrl, pageLoadId).as('autocomplete');
const redirect = (to: string, at: number) =>
  ac(HOME).event('redirect', { responseId: 'ac1', redirect: to }, { at });

export default {
  valid: [
    {
      name: 'the redirect loads the target: its events have a pageLoadId of their own',
      events: () => [
        ac(HOME).render('ac1', { at: 0 }),
        redirect('/c/boots', 2_000),
        page(TARGET, 'pl-2').as('category').render('c1', { at: 3_000 }),
      ],
    },
    {
      name: 'edge: a redirect to the page it was sent from (a reload within 10 s keeps the pageLoadId)',
      events: () => [
        ac(HOME).render('ac1', { at: 0 }),
        redirect(HOME, 2_000),
        page(HOME).render('r1', { at: 3_000 }),
      ],
    },
    {
      name: 'edge: a redirect to another fragment of the page loads nothing',
      events: () => [
        ac(HOME).render('ac1', { at: 0 }),
        redirect('#boots', 2_000),
        page(`${HOME}#boots`).render('r1', { at: 3_000 }),
      ],
    },
    {
      name: 'edge: at the target more than 10 s later (back from the back-forward cache, then there again)',
      events: () => [
        ac(HOME).render('ac1', { at: 0 }),
        redirect('/c/boots', 2_000),
        page(TARGET).as('category').render('c1', { at: 12_001 }),
      ],
    },
    {
      name: 'edge: events of the page at its own URL after the redirect (restored by the back button)',
      events: () => [
        ac(HOME).render('ac1', { at: 0 }),
        redirect('/c/boots', 2_000),
        page(HOME).render('r1', { at: 4_000 }),
      ],
    },
  ],
  invalid: [
    {
      name: 'an SPA router intercepts the dropdown’s redirect: the landing page on the same page load',
      events: () => [
        ac(HOME).render('ac1', { at: 0 }),
        redirect('/c/boots', 2_000),
        page(TARGET).as('category').render('c1', { at: 2_600 }),
        page(TARGET).as('category').impression('c1', ['a'], { at: 3_800 }),
      ],
      findings: [
        {
          data: { target: TARGET, after: '0.6 s' },
          events: [1, 2],
          behaviour: 'autocomplete.redirect-navigates',
        },
      ],
    },
    {
      name: 'edge: a search page’s merchandising redirect routed, 10 s after it',
      events: () => [
        page('http://localhost:3000/search?q=boots').event(
          'redirect',
          { responseId: 'r1', redirect: TARGET },
          { at: 0 },
        ),
        page(`${TARGET}#top`).as('category').render('c1', { at: 10_000 }),
      ],
      // readiness shows it on the search area's redirect, not on the dropdown's
      findings: [{ events: [0, 1], behaviour: 'search.redirect' }],
    },
  ],
} satisfies RuleCases;
