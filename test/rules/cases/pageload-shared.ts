import { PageBuilder, visitPage, type RuleCases } from '../kit';

const page = (pageUrl: string) => new PageBuilder({ pageLoadId: 'pl-1', pageUrl });

export default {
  valid: [
    {
      name: 'an SPA: routes of one origin keep the pageLoadId',
      events: () => [
        page('http://localhost:3000/search?q=boots').render('r1', { at: 0 }),
        page('http://localhost:3000/search?q=boots&sort=price').render('r2', { at: 5_000 }),
        visitPage('pl-1', { pageUrl: 'http://localhost:3000/products/p1' }).product('p1', {
          at: 9_000,
        }),
      ],
    },
    {
      name: 'edge: the same host in other letter cases is one origin',
      events: () => [
        page('http://Shop.example.com/search?q=boots').render('r1', { at: 0 }),
        page('http://shop.example.com/search?q=boots').impression('r1', ['a'], { at: 1_200 }),
      ],
    },
    {
      name: 'edge: a pageUrl that is no URL is left to pageurl-not-href',
      events: () => [
        page('http://localhost:3000/search?q=boots').render('r1', { at: 0 }),
        page('/search?q=boots').impression('r1', ['a'], { at: 1_200 }),
      ],
    },
    {
      name: 'edge: a checkout on another domain with a pageLoadId of its own',
      events: () => [
        visitPage('pl-1', { pageUrl: 'http://localhost:3000/cart' }).cartAdd(
          [{ uid: 'a' }],
          [{ uid: 'a' }],
          { at: 0 },
        ),
        visitPage('pl-2', { pageUrl: 'https://pay.example.com/thanks' }).order(
          'o-1',
          [{ uid: 'a' }],
          { at: 60_000 },
        ),
      ],
    },
  ],
  invalid: [
    {
      name: 'a checkout on another domain given the storefront’s pageLoadId',
      events: () => [
        visitPage('pl-1', { pageUrl: 'http://localhost:3000/cart' }).cartAdd(
          [{ uid: 'a' }],
          [{ uid: 'a' }],
          { at: 0 },
        ),
        visitPage('pl-1', { pageUrl: 'https://pay.example.com/thanks' }).order(
          'o-1',
          [{ uid: 'a' }],
          { at: 60_000 },
        ),
      ],
      findings: [
        {
          data: { firstOrigin: 'http://localhost:3000', secondOrigin: 'https://pay.example.com' },
          message: 'two documents shared one pageLoadId',
          events: [0, 1],
          behaviour: 'identity.page-load-one-page',
        },
      ],
    },
    {
      name: 'edge: another port of the same host is another origin',
      events: () => [
        page('http://localhost:3000/search?q=boots').render('r1', { at: 0 }),
        page('http://localhost:3001/search?q=boots').impression('r1', ['a'], { at: 1_200 }),
      ],
      findings: [{ events: [0, 1] }],
    },
  ],
} satisfies RuleCases;
