import { PageBuilder, type RuleCases } from '../kit';

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
  ],
  invalid: [
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
