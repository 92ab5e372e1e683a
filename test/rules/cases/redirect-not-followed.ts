import { PageBuilder, issued, type RuleCases } from '../kit';

const asked = { userId: 'user-1', sessionId: 'session-1', pageLoadId: 'page-1' };
/** "gift card" asked as the controller asks when it follows redirects: minimal, no filters */
const GIFT = issued({
  responseId: 'gift',
  query: 'gift card',
  redirect: '/pages/gift-cards',
  requester: asked,
});
const FULL = issued({ ...GIFT, responseId: 'gift-full', full: true });
const FILTERED = issued({ ...GIFT, responseId: 'gift-filtered', filtered: true });
const CATEGORY = issued({ ...GIFT, responseId: 'sale', kind: 'category', query: '' });
const responses = [GIFT, FULL, FILTERED, CATEGORY];

export default {
  valid: [
    {
      name: 'the redirect sent, no render: what the controller does',
      provenance: { companion: true, responses },
      events: () => [new PageBuilder().redirect('gift', '/pages/gift-cards', { at: 0 })],
    },
    {
      name: 'asked with redirectResponse=full (the storefront’s redirects are off): rendered',
      provenance: { companion: true, responses },
      events: () => [new PageBuilder().render('gift-full', { at: 0 })],
    },
    {
      name: 'asked with filters: the controller renders it',
      provenance: { companion: true, responses },
      events: () => [new PageBuilder().render('gift-filtered', { at: 0 })],
    },
    {
      name: 'a category page sends its redirect on search/redirect: not followed is not what happened',
      provenance: { companion: true, responses },
      events: () => {
        const p = new PageBuilder({ pageUrl: 'http://localhost:3000/c/sale' });
        return [
          p.as('category').render('sale', { at: 0 }),
          p.redirect('sale', '/pages/gift-cards', { at: 100 }),
        ];
      },
    },
    {
      name: 'rendered on another page load than the one that asked (the cache served it there)',
      provenance: { companion: true, responses },
      events: () => [new PageBuilder({ pageLoadId: 'page-2' }).render('gift', { at: 0 })],
    },
  ],
  invalid: [
    {
      name: 'the storefront rendered a redirect response instead of following it',
      provenance: { companion: true, responses },
      events: () => [new PageBuilder().render('gift', { at: 0 })],
      findings: [
        {
          data: { redirect: '/pages/gift-cards', query: '"gift card"' },
          events: [0],
          responseId: 'gift',
          behaviour: 'search.redirect',
        },
      ],
    },
    {
      name: 'a category page rendered its redirect response (handled by the integration, no redirect sent)',
      provenance: { companion: true, responses },
      events: () => [
        new PageBuilder({ pageUrl: 'http://localhost:3000/c/sale' })
          .as('category')
          .render('sale', { at: 0 }),
      ],
      findings: [{ responseId: 'sale', data: { kind: 'category' }, fix: 'category/render' }],
    },
  ],
} satisfies RuleCases;
