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
      name: 'the page went on after a click 1 s after the render (click-not-impressed’s)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.click('r1', 'b', { at: 1000 }),
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
          messageId: 'atExit',
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
      findings: [
        { messageId: 'atExit', message: 'the click was the last event of the page', events: [2] },
      ],
    },
    {
      name: 'a quick click in an SPA: 0.6 s after the render, a route to the product and back, the tile impressed on its return',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.click('r1', 'a', { at: 600 }),
          p.impression('r1', ['a', 'b'], { at: 9600 }),
        ];
      },
      findings: [
        {
          messageId: 'quick',
          message:
            /the click came within 1 s of the response’s render \(ev_\w+\), before the tile could have been in view/,
          events: [1],
        },
      ],
    },
    {
      name: 'edge: a click 999 ms after the render, the page going on, the tile never impressed',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 900 }),
          p.click('r1', 'b', { at: 999 }),
          p.render('r2', { at: 5000 }),
        ];
      },
      findings: [{ messageId: 'quick', message: 'not impressed before the click', events: [2] }],
    },
  ],
} satisfies RuleCases;
