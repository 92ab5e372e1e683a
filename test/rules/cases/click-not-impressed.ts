import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
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
  ],
  invalid: [
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
