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
  ],
  invalid: [
    {
      name: 'a redirect of a response asked with redirectResponse=full',
      provenance: { companion: true, responses },
      events: () => redirect('full'),
      findings: [
        {
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
      findings: [{ data: { how: 'with filters' } }],
    },
    {
      name: 'both reasons named',
      provenance: { companion: true, responses },
      events: () => redirect('both'),
      findings: [{ data: { how: 'with redirectResponse=full and with filters' } }],
    },
    {
      name: 'a category response asked in full, redirected on search/redirect',
      provenance: { companion: true, responses },
      events: () => redirect('category-full'),
      findings: [{ data: { kind: 'category', query: 'no query' } }],
    },
  ],
} satisfies RuleCases;
