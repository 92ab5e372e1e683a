import { PageBuilder, issued, type RuleCases } from '../kit';

const asked = { userId: 'user-1', sessionId: 'session-1', pageLoadId: 'page-1' };
const gift = (over: Partial<Parameters<typeof issued>[0]> & { responseId: string }) =>
  issued({ query: 'gift card', redirect: '/pages/gift-cards', requester: asked, ...over });
const responses = [
  gift({ responseId: 'minimal' }),
  gift({ responseId: 'full', full: true }),
  gift({ responseId: 'filtered', filtered: true }),
  gift({ responseId: 'both', full: true, filtered: true }),
  issued({ responseId: 'no-redirect', full: true, requester: asked }),
  gift({ responseId: 'category-full', kind: 'category', query: '', full: true }),
];
const redirect = (responseId: string) => [
  new PageBuilder().redirect(responseId, '/pages/gift-cards', { at: 0 }),
];

export default {
  valid: [
    {
      name: 'the controller’s own redirect: asked minimal, without filters',
      provenance: { companion: true, responses },
      events: () => redirect('minimal'),
    },
    {
      name: 'a response asked in full with no redirect at all (redirect-mismatch names that)',
      provenance: { companion: true, responses },
      events: () => redirect('no-redirect'),
    },
    {
      name: 'asked in full and rendered, not redirected',
      provenance: { companion: true, responses },
      events: () => [new PageBuilder().render('full', { at: 0 })],
    },
    {
      name: 'no issued response: the page’s first search redirected',
      events: () => {
        const p = new PageBuilder();
        return [p.redirect('r9', '/pages/gift-cards', { at: 0 })];
      },
    },
    {
      name: 'a listing render 100 ms before the redirect (two controllers answering one search)',
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.redirect('r9', '/pages/gift-cards', { at: 100 })];
      },
    },
    {
      name: 'a widget rendered before the redirect (another controller)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.as('recommendations').render('w1', { at: 0 }),
          p.as('search').redirect('r9', '/pages/gift-cards', { at: 2000 }),
        ];
      },
    },
    {
      name: 'autocomplete rendered before a search redirect (the dropdown is its own controller)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.as('autocomplete').render('a1', { at: 0 }),
          p.as('search').redirect('r9', '/pages/gift-cards', { at: 2000 }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'a redirect of a response asked with redirectResponse=full',
      provenance: { companion: true, responses },
      events: () => redirect('full'),
      findings: [
        {
          messageId: 'unexpected',
          data: { how: 'with redirectResponse=full', redirect: '/pages/gift-cards' },
          events: [0],
          responseId: 'full',
          behaviour: 'search.redirect',
        },
      ],
    },
    {
      name: 'a redirect of a filtered search',
      provenance: { companion: true, responses },
      events: () => redirect('filtered'),
      findings: [{ messageId: 'unexpected', data: { how: 'with filters' } }],
    },
    {
      name: 'both reasons named',
      provenance: { companion: true, responses },
      events: () => redirect('both'),
      findings: [
        { messageId: 'unexpected', data: { how: 'with redirectResponse=full and with filters' } },
      ],
    },
    {
      name: 'a category response asked in full, redirected on search/redirect',
      provenance: { companion: true, responses },
      events: () => redirect('category-full'),
      findings: [{ messageId: 'unexpected', data: { kind: 'category', query: 'no query' } }],
    },
    {
      name: 'a redirect after the listing showed another search’s results (no issued response needed)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.redirect('r9', '/pages/gift-cards', { at: 5000 }),
        ];
      },
      findings: [
        {
          messageId: 'afterResults',
          message: 'after this page load\'s search listing had rendered response "r1"',
          fix: 'only for the listing’s first search',
          events: [0, 2],
          responseId: 'r9',
        },
      ],
    },
    {
      name: 'a category page’s redirect on search/redirect after its category render, 101 ms later',
      events: () => {
        const p = new PageBuilder();
        return [
          p.as('category').render('c1', { at: 0 }),
          p.as('search').redirect('r9', '/pages/gift-cards', { at: 101 }),
        ];
      },
      findings: [{ messageId: 'afterResults', data: { kind: 'category', other: 'c1' } }],
    },
  ],
} satisfies RuleCases;
