import { PageBuilder, type RuleCases } from '../kit';

/** tiles a and b impressed, a's link clicked at 3 s, and `added` quick-added at `addAt` ms */
const clickThenAdd =
  (addAt: number, added = 'a') =>
  () => {
    const p = new PageBuilder();
    return [
      p.render('r1', { at: 0 }),
      p.impression('r1', ['a', 'b'], { at: 1100 }),
      p.click('r1', 'a', { at: 3000 }),
      p.cart('r1', added, { at: addAt }),
    ];
  };

export default {
  valid: [
    {
      name: 'a click on the link, and later an add of the same product back on the list',
      events: clickThenAdd(9000),
    },
    {
      name: 'edge: an add 300 ms after the click',
      events: clickThenAdd(3300),
    },
    {
      name: 'a click on one tile and an add of another together',
      events: clickThenAdd(3010, 'b'),
    },
  ],
  invalid: [
    {
      name: 'a handler on the whole tile: the add button’s click also sends a clickthrough',
      events: clickThenAdd(3004),
      findings: [
        {
          message: /clickthrough ev_\w+ and addtocart ev_\w+ of uid "a" 4 ms apart/,
          fix: 'send search/clickthrough only for a click inside the product’s link',
          events: [2, 3],
          responseId: 'r1',
        },
      ],
    },
    {
      name: 'edge: the add 299 ms before the click, of a variant of the clicked product',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P1'], { at: 1100 }),
          p.cart('r1', 'P1-RED', { at: 3000 }, 'P1'),
          p.click('r1', 'P1', { at: 3299 }),
        ];
      },
      findings: [{ message: '299 ms apart', events: [3, 2] }],
    },
  ],
} satisfies RuleCases;
