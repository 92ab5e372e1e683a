import { PageBuilder, type RuleCases } from '../kit';

/** a search rendered on page a, then the same search rendered again on page b `after` ms later */
const revisit = (dev: boolean, after: number) => () => {
  const a = new PageBuilder({ pageLoadId: 'a', dev });
  const b = new PageBuilder({ pageLoadId: 'b', dev });
  return [
    a.render('r1', { at: 0 }),
    a.impression('r1', ['x'], { at: 1200 }),
    b.render('r1', { at: after }),
    b.impression('r1', ['x'], { at: after + 1200 }),
  ];
};

export default {
  valid: [
    {
      name: 'each page its own responseId',
      events: () => {
        const a = new PageBuilder({ pageLoadId: 'a' });
        const b = new PageBuilder({
          pageLoadId: 'b',
          pageUrl: 'http://localhost:3000/search?q=boots',
        });
        return [
          a.render('r1', { at: 0 }),
          a.impression('r1', ['x'], { at: 1200 }),
          b.render('r2', { at: 5000 }),
          b.impression('r2', ['y'], { at: 6200 }),
        ];
      },
    },
    {
      name: 'production: back to the same search within the cache’s 5 minutes renders the cached id',
      events: revisit(false, 4 * 60_000),
    },
  ],
  invalid: [
    {
      name: 'development: the same search rendered again with the same id (the cache is off)',
      events: revisit(true, 30_000),
      findings: [{ message: 'development mode', pageLoadId: 'b', responseId: 'r1' }],
    },
    {
      name: 'production: the same id rendered 20 minutes later (past the cache’s 5 minutes)',
      events: revisit(false, 20 * 60_000),
      findings: [{ message: '20 minutes earlier', pageLoadId: 'b', responseId: 'r1' }],
    },
    {
      name: 'a stored responseId sent again from another page',
      events: () => {
        const a = new PageBuilder({ pageLoadId: 'a' });
        const b = new PageBuilder({
          pageLoadId: 'b',
          pageUrl: 'http://localhost:3000/products/boot',
        });
        return [
          a.render('r1', { at: 0 }),
          a.impression('r1', ['x'], { at: 1200 }),
          b.render('r1', { at: 5000 }),
          b.impression('r1', ['y'], { at: 6200 }),
        ];
      },
      findings: [{ pageLoadId: 'b', responseId: 'r1' }],
    },
  ],
} satisfies RuleCases;
