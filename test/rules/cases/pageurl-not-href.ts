import { PageBuilder, visitPage, type RuleCases } from '../kit';

const page = (pageUrl: string) => new PageBuilder({ pageLoadId: 'pl-1', pageUrl });

export default {
  valid: [
    {
      name: 'window.location.href on every event',
      events: () => [
        page('http://localhost:3000/search?q=boots').render('r1', { at: 0 }),
        page('http://localhost:3000/search?q=boots#tiles').impression('r1', ['a'], { at: 1_200 }),
      ],
    },
    {
      name: 'edge: an absolute URL of any scheme (a page opened from a file)',
      events: () => [page('file:///home/dev/shop/search.html?q=boots').render('r1', { at: 0 })],
    },
    {
      name: 'edge: a rejected event is the schema’s',
      events: () => [page('').render('r1', { at: 0, accepted: false })],
    },
  ],
  invalid: [
    {
      name: 'a path instead of the href',
      events: () => [
        visitPage('pl-1', { pageUrl: '/checkout/thanks' }).order('o-1', [{ uid: 'a' }], { at: 0 }),
      ],
      findings: [
        { data: { pageUrl: '/checkout/thanks' }, events: [0], behaviour: 'identity.page-url' },
      ],
    },
    {
      name: 'edge: an empty pageUrl, and a host without a scheme later on the page (the first is named)',
      events: () => [
        page('').render('r1', { at: 0 }),
        page('localhost:3000/search').impression('r1', ['a'], { at: 1_200 }),
      ],
      findings: [{ message: 'carries pageUrl ""', events: [0] }],
    },
  ],
} satisfies RuleCases;
