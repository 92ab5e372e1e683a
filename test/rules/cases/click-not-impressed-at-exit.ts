import { PageBuilder, rejectedImpression, type RuleCases } from '../kit';

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
        ];
      },
    },
    {
      name: 'the page went on after the click (click-not-impressed’s)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.click('r1', 'b', { at: 400 }),
          p.render('r2', { at: 2000 }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'the tile’s impression was sent 2.5 s before the click but rejected: the click follows from that rejection (schema leads)',
      events: () => {
        const p = new PageBuilder();
        return [
          ...rejectedImpression('missing required key-value: data.banners', p),
          p.click('r1', 'a', { at: 3700 }),
        ];
      },
      findings: [
        {
          message: /was sent \(ev_\w+\) but rejected by the service/,
          events: [2, 1],
          causedBy: 'schema',
        },
      ],
    },
    {
      name: 'a shopper who clicks within the 1.3 s the client needs, leaving the page',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 100 }),
          p.click('r1', 'b', { at: 400 }),
        ];
      },
      findings: [{ message: 'the click was the last event of the page', events: [2] }],
    },
  ],
} satisfies RuleCases;
