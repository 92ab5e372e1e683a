import { issued, PageBuilder, R0, R4, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'a render followed by impressions',
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['a'], { at: 1200 })];
      },
    },
    {
      name: 'a page still open (live, not idle yet): the render may still be impressed',
      live: true,
      events: () => [new PageBuilder().render('r1', { at: 59_000, recv: 59_000 })],
    },
    {
      name: 'autocomplete: a dropdown shown under 1 s is legitimately never impressed',
      events: () => [new PageBuilder().as('autocomplete').render('a1', { at: 0 })],
    },
    {
      name: 'an empty widget the companion served: nothing to impress, not even info',
      provenance: {
        companion: true,
        responses: [issued({ responseId: 'w0', kind: 'recommendations', tag: 'similar' })],
      },
      events: () => [new PageBuilder().as('recommendations', 'similar').render('w0', { at: 0 })],
    },
    {
      name: 'a render with an empty responseId (sent before the response arrived): no response to impress (missing-render names it)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('', { at: 0 }),
          p.impression('r1', ['a'], { at: 1200 }),
          p.click('r1', 'a', { at: 3000 }),
        ];
      },
    },
    {
      name: 'a widget whose impressions went out with the other widget’s tag: they are its own (missing-render names the tag)',
      events: () => {
        const p = new PageBuilder({ pageUrl: 'http://localhost:3000/products/p100' });
        const trending = p.as('recommendations', 'trending');
        return [
          p.as('recommendations', 'similar').render('w1', { at: 0 }),
          trending.render('w2', { at: 100 }),
          trending.impression('w2', ['b'], { at: 1200 }),
          trending.impression('w1', ['a'], { at: 1300 }),
        ];
      },
    },
    {
      name: 'an SPA’s new search rendered 0.4 s after the render (another URL): replaced before a second in view',
      events: () => {
        const q = new PageBuilder({ pageUrl: 'http://localhost:3000/search?q=boot' });
        return [
          new PageBuilder().render('r1', { at: 0 }),
          q.render('r2', { at: 400 }),
          q.impression('r2', ['b'], { at: 1410 }),
        ];
      },
    },
    {
      name: 'the no-results page the companion served',
      provenance: { companion: true, responses: [R0] },
      events: () => [new PageBuilder().render('r0', { at: 0 })],
    },
  ],
  invalid: [
    {
      name: 'a single result never impressed: info, the client may have navigated to it',
      provenance: { companion: true, responses: [R4] },
      events: () => [new PageBuilder().render('r4', { at: 0 })],
      findings: [{ severity: 'info', message: 'A single result', events: [0] }],
    },
    {
      name: 'edge: a widget never impressed beside another widget’s impressions sent with its tag (another responseId): not its own',
      events: () => {
        const p = new PageBuilder({ pageUrl: 'http://localhost:3000/products/p100' });
        const similar = p.as('recommendations', 'similar');
        return [
          similar.render('w1', { at: 0 }),
          p.as('recommendations', 'trending').render('w2', { at: 100 }),
          similar.impression('w2', ['b'], { at: 1300 }),
        ];
      },
      findings: [{ severity: 'info', events: [0], responseId: 'w1' }],
    },
    {
      name: 'edge: another search rendered 1.25 s after the render: a second in view had passed',
      events: () => [
        new PageBuilder().render('r1', { at: 0 }),
        new PageBuilder({ pageUrl: 'http://localhost:3000/search?q=boot' }).render('r2', {
          at: 1250,
        }),
      ],
      findings: [
        { events: [0], responseId: 'r1' },
        { events: [1], responseId: 'r2' },
      ],
    },
    {
      name: 'edge: a widget followed 0.4 s later by another response of its profile (two widgets of one profile may share a page)',
      events: () => {
        const p = new PageBuilder({ pageUrl: 'http://localhost:3000/products/p100' });
        const similar = p.as('recommendations', 'similar');
        return [
          similar.render('w1', { at: 0 }),
          similar.render('w2', { at: 400 }),
          similar.impression('w2', ['b'], { at: 1500 }),
        ];
      },
      findings: [{ severity: 'info', events: [0], responseId: 'w1' }],
    },
    {
      name: 'a render never impressed, the page judged as finished',
      events: () => [new PageBuilder().render('r1', { at: 0 })],
      findings: [
        { message: 'judged as finished', fix: 'search/impression', events: [0], responseId: 'r1' },
      ],
    },
  ],
} satisfies RuleCases;
