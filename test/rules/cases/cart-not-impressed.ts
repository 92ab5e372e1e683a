import { PageBuilder, type RuleCases } from '../kit';

/** Two widgets; the "similar" widget's tile `uid` quick-added with its responseId and the "trending" tag. */
const widgetCart = (uid: string) => () => {
  const p = new PageBuilder({ pageUrl: 'http://localhost:3000/products/p100' });
  const similar = p.as('recommendations', 'similar');
  const trending = p.as('recommendations', 'trending');
  return [
    similar.render('w1', { at: 0 }),
    trending.render('w2', { at: 100 }),
    similar.impression('w1', ['a'], { at: 1200 }),
    trending.cart('w1', uid, { at: 3000 }),
  ];
};

export default {
  valid: [
    {
      name: 'a quick add of an impressed tile (its variant, by parentId)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.cart('r1', 'a-red', { at: 3000 }, 'a'),
        ];
      },
    },
    {
      name: 'a widget’s quick add sent with the other widget’s tag, of its tile impressed with its own tag: impressed (missing-render names the tag)',
      events: widgetCart('a'),
    },
  ],
  invalid: [
    {
      name: 'edge: a widget’s quick add sent with the other widget’s tag, of a tile its responseId never impressed under any tag',
      events: widgetCart('z'),
      findings: [{ message: '"z"', events: [3], responseId: 'w1' }],
    },
    {
      name: 'a quick add of a tile never impressed',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.cart('r1', 'b', { at: 3000 }),
        ];
      },
      findings: [{ message: '"b"', events: [2], responseId: 'r1' }],
    },
  ],
} satisfies RuleCases;
