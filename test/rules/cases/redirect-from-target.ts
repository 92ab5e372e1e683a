import { PageBuilder, R3, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'the redirect sent from the search page, then the shopper leaves',
      events: () => [
        new PageBuilder({ pageUrl: 'http://localhost:3000/search?q=gift+card' }).redirect(
          'r3',
          '/pages/gift-cards',
          { at: 0 },
        ),
      ],
    },
    {
      name: 'a redirect to the same path with another query',
      events: () => [
        new PageBuilder({ pageUrl: 'http://localhost:3000/search?q=sale' }).redirect(
          'r3',
          'http://localhost:3000/search?q=sale&collection=summer',
          { at: 0 },
        ),
      ],
    },
    {
      name: 'edge: the redirect event names the search page it was sent from, the response redirects elsewhere (redirect-mismatch’s)',
      provenance: { companion: true, responses: [R3] },
      events: () => [
        new PageBuilder({ pageUrl: 'http://localhost:3000/search?q=gift+card' }).redirect(
          'r3',
          'http://localhost:3000/search?q=gift+card',
          { at: 0 },
        ),
      ],
    },
  ],
  invalid: [
    {
      name: 'edge: with the response the companion issued, tracked on its redirect’s landing page',
      provenance: { companion: true, responses: [R3] },
      events: () => [
        new PageBuilder({
          pageLoadId: 'landing',
          pageUrl: 'http://localhost:3000/pages/gift-cards',
        }).redirect('r3', '/pages/gift-cards', { at: 0 }),
      ],
      findings: [{ message: 'sent from that very page', events: [0] }],
    },
    {
      name: 'the redirect tracked on the landing page after the navigation',
      events: () => [
        new PageBuilder({
          pageLoadId: 'landing',
          pageUrl: 'http://localhost:3000/pages/gift-cards',
        }).redirect('r3', '/pages/gift-cards', { at: 0 }),
      ],
      findings: [
        {
          message: 'sent from that very page',
          fix: 'send search/redirect from the search page',
          events: [0],
          responseId: 'r3',
        },
      ],
    },
    {
      name: 'autocomplete: the term’s redirect tracked on its landing page',
      events: () => [
        new PageBuilder({ pageUrl: 'http://localhost:3000/sale/' })
          .as('autocomplete')
          .redirect('a1', 'http://localhost:3000/sale', { at: 0 }),
      ],
      findings: [{ fix: 'autocomplete/redirect', events: [0] }],
    },
  ],
} satisfies RuleCases;
