import { PageBuilder, type RuleCases } from '../kit';

/** Two widgets; the "similar" widget's tile `uid` clicked with its responseId and the "trending" tag. */
const widgetClick = (uid: string) => () => {
  const p = new PageBuilder({ pageUrl: 'http://localhost:3000/products/p100' });
  const similar = p.as('recommendations', 'similar');
  const trending = p.as('recommendations', 'trending');
  return [
    similar.render('w1', { at: 0 }),
    trending.render('w2', { at: 100 }),
    similar.impression('w1', ['a'], { at: 1200 }),
    trending.click('w1', uid, { at: 3000 }),
    trending.impression('w2', ['b'], { at: 4000 }),
  ];
};

export default {
  valid: [
    {
      name: 'edge: a never-impressed dropdown’s tile clicked 2.3 s after its render, ending the page (within the client’s 1.3 s and the 1 s tolerance): click-not-impressed-at-exit’s',
      events: () => {
        const ac = new PageBuilder().as('autocomplete');
        return [ac.render('a1', { at: 0 }), ac.click('a1', 'P200', { at: 2300 })];
      },
    },
    {
      name: 'a dropdown that impressed other tiles, its clicked tile not (scrolled to within the dropdown), ending the page: click-not-impressed-at-exit’s',
      events: () => {
        const ac = new PageBuilder().as('autocomplete');
        return [
          ac.render('a1', { at: 0 }),
          ac.impression('a1', ['P201'], { at: 1300 }),
          ac.click('a1', 'P200', { at: 3800 }),
        ];
      },
    },
    {
      name: 'a click on an impressed tile',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.click('r1', 'a', { at: 3000 }),
          p.render('r2', { at: 9000 }),
        ];
      },
    },
    {
      name: 'a click that ended the page (click-not-impressed-at-exit’s)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 100 }),
          p.click('r1', 'b', { at: 400 }),
        ];
      },
    },
    {
      name: 'a widget’s click sent with the other widget’s tag, of its tile impressed with its own tag: impressed (missing-render names the tag)',
      events: widgetClick('a'),
    },
    {
      name: 'a quick click in an SPA (0.6 s after the render), the tile impressed when the shopper came back: click-not-impressed-at-exit’s info',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.click('r1', 'a', { at: 600 }),
          p.impression('r1', ['a', 'b'], { at: 9600 }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'a dropdown never impressed: its tile clicked 3.8 s after the autocomplete render, ending the page',
      events: () => {
        const ac = new PageBuilder().as('autocomplete');
        return [ac.render('a1', { at: 0 }), ac.click('a1', 'P200', { at: 3800 })];
      },
      findings: [
        {
          message:
            /never reported in an impression of that response: .*The dropdown showed the response's tiles from its render on, more than the client's 1\.3 s before the click, and none of them was impressed/,
          events: [1],
          responseId: 'a1',
          behaviour: 'autocomplete.events',
        },
      ],
    },
    {
      name: 'edge: a never-impressed dropdown’s tile clicked 2.4 s after its render, ending the page (past the client’s 1.3 s and the 1 s tolerance)',
      events: () => {
        const ac = new PageBuilder().as('autocomplete');
        return [ac.render('a1', { at: 0 }), ac.click('a1', 'P200', { at: 2400 })];
      },
      findings: [{ events: [1], responseId: 'a1' }],
    },
    {
      name: 'edge: a widget’s click sent with the other widget’s tag, of a tile its responseId never impressed under any tag',
      events: widgetClick('z'),
      findings: [{ message: '"z"', events: [3], responseId: 'w1' }],
    },
    {
      name: 'a click on a tile never impressed, the page going on after it',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.click('r1', 'b', { at: 3000 }),
          p.render('r2', { at: 9000 }),
        ];
      },
      findings: [
        {
          message: 'never reported in an impression',
          fix: 'same uid the click sends',
          events: [2],
          responseId: 'r1',
        },
      ],
    },
    {
      name: 'edge: a click 1 s after the render (its tile could have been impressed), the tile impressed only 8 s after it',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.click('r1', 'a', { at: 1000 }),
          p.impression('r1', ['a', 'b'], { at: 9000 }),
        ];
      },
      findings: [{ message: 'an impression sent because of the click', events: [1] }],
    },
    {
      name: 'a banner clicked long after its render, even as the page’s last event',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.bannerClick('r1', '77', { at: 6000 }),
        ];
      },
      findings: [{ events: [2] }],
    },
  ],
} satisfies RuleCases;
