import { PageBuilder, T0, issued, type RuleCases } from '../kit';
import type { IssuedResponse } from '../../../src/main/search/responses';

const SEARCH_URL = 'http://localhost:3000/search?q=gift+card';
const TARGET_URL = 'http://localhost:3000/pages/gift-cards';

/** "gift card" answered at T0 with a redirect to /pages/gift-cards, to page load p-search of session-1 */
const giftCard = (over: Partial<IssuedResponse> = {}) =>
  issued({
    responseId: 'r3',
    query: 'gift card',
    redirect: '/pages/gift-cards',
    issuedAt: T0,
    requester: {
      userId: 'user-1',
      sessionId: 'session-1',
      pageLoadId: 'p-search',
      pageUrl: SEARCH_URL,
    },
    ...over,
  });

/** the target page's first event (a widget's render), received `at` + 40 ms after T0 */
const target = (at: number, o: { pageUrl?: string; sessionId?: string } = {}) =>
  new PageBuilder({ pageLoadId: 'p-target', pageUrl: TARGET_URL, ...o })
    .as('recommendations', 'similar')
    .render('w1', { at });

export default {
  valid: [
    {
      name: 'the redirect tracked before the page went there',
      provenance: { responses: [giftCard()] },
      events: () => [
        new PageBuilder({ pageLoadId: 'p-search', pageUrl: SEARCH_URL }).redirect(
          'r3',
          '/pages/gift-cards',
          { at: 100 },
        ),
        target(1500),
      ],
    },
    {
      name: 'edge: the page at the redirect’s URL loaded 10.04 s after the answer (past the 10 s: gone there by other means)',
      provenance: { responses: [giftCard()] },
      events: () => [target(10_000)],
    },
    {
      name: 'asked with redirectResponse=full: the client renders the response, no redirect',
      provenance: { responses: [giftCard({ full: true })] },
      events: () => [target(1500)],
    },
    {
      name: 'a search with the shopper’s filters: the client does not redirect',
      provenance: { responses: [giftCard({ filtered: true })] },
      events: () => [target(1500)],
    },
    {
      name: 'a page at another URL',
      provenance: { responses: [giftCard()] },
      events: () => [target(1500, { pageUrl: 'http://localhost:3000/pages/about' })],
    },
    {
      name: 'a page of another session',
      provenance: { responses: [giftCard()] },
      events: () => [target(1500, { sessionId: 'session-2' })],
    },
    {
      name: 'the response rendered instead (its own rules judge it)',
      provenance: { responses: [giftCard()] },
      events: () => [
        new PageBuilder({ pageLoadId: 'p-search', pageUrl: SEARCH_URL }).render('r3', { at: 100 }),
        target(1500),
      ],
    },
  ],
  invalid: [
    {
      name: 'the page at the redirect’s URL 1.5 s after the answer, no search/redirect sent',
      provenance: { responses: [giftCard()] },
      events: () => [target(1460)],
      findings: [
        {
          messageId: 'unsent',
          message:
            /^This page \(http:\/\/localhost:3000\/pages\/gift-cards\) is where response "r3" \(search for "gift card"\) redirects, which the sandbox answered 1\.5 s before it to page load p-search of this session, and no search\/redirect of that response was sent/,
          fix: /^Send search\/redirect with \{responseId, redirect\} before navigating/,
          events: [0],
          pageLoadId: 'p-target',
          responseId: 'r3',
          behaviour: 'search.redirect',
        },
      ],
    },
    {
      name: 'edge: 9.96 s after the answer, a category page’s redirect',
      provenance: { responses: [giftCard({ kind: 'category' })] },
      events: () => [target(9_920)],
      findings: [{ messageId: 'unsent', behaviour: 'category.redirect' }],
    },
  ],
} satisfies RuleCases;
