import { issued, PageBuilder, R1, R2, type RuleCases } from '../kit';

/** the same query sorted anew: page 1 again, a new response */
const SORTED = issued({ responseId: 'r5', issuedAt: R1.issuedAt + 4000 });

/** one search asked by two documents (two tabs of one URL): the same parameters, a response each */
const ASKED = 'page=1&q=shoes';
const TAB1 = issued({ responseId: 't1', asked: ASKED });
const TAB2 = issued({ responseId: 't2', asked: ASKED, issuedAt: TAB1.issuedAt + 2000 });
/** the same query and page sorted anew at the same URL: another search */
const TAB2_SORTED = issued({ ...TAB2, asked: `${ASKED}&sort.price=asc` });

/** tab 1 renders t1; tab 2, opened on the same URL `gap` ms later, renders t2 and impresses; then tab 1 impresses */
function twoTabs(gap: number) {
  return () => {
    const p = new PageBuilder();
    return [
      p.render('t1', { at: 0 }),
      p.render('t2', { at: gap }),
      p.impression('t2', ['b'], { at: gap + 1100 }),
      p.impression('t1', ['a'], { at: gap + 3000 }),
    ];
  };
}

const at = (url: string) => ({ pageUrl: url });

export default {
  valid: [
    {
      name: 'an SPA re-search: the new response’s own events after its render',
      events: () => {
        const p = new PageBuilder();
        const q = new PageBuilder(at('http://localhost:3000/search?q=boots'));
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1100 }),
          q.render('r2', { at: 5000 }),
          q.impression('r2', ['b'], { at: 6100 }),
          q.click('r2', 'b', { at: 7000 }),
        ];
      },
    },
    {
      name: 'infinite scroll: page 1’s tile clicked after page 2 rendered (the same search)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1100 }),
          p.render('r2', { at: 5000 }),
          p.impression('r2', ['b'], { at: 6100 }),
          p.click('r1', 'a', { at: 8000 }),
        ];
      },
    },
    {
      name: 'back to the first search: its cached response rendered again, then clicked',
      events: () => {
        const p = new PageBuilder();
        const q = new PageBuilder(at('http://localhost:3000/search?q=boots'));
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1100 }),
          q.render('r2', { at: 5000 }),
          q.impression('r2', ['b'], { at: 6100 }),
          p.render('r1', { at: 9000 }),
          p.impression('r1', ['a'], { at: 10_100 }),
          p.click('r1', 'a', { at: 11_000 }),
        ];
      },
    },
    {
      name: 'a click landing as the new results repaint (within 100 ms of their render)',
      events: () => {
        const p = new PageBuilder();
        const q = new PageBuilder(at('http://localhost:3000/search?q=boots'));
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1100 }),
          q.render('r2', { at: 5000 }),
          p.click('r1', 'a', { at: 5050 }),
        ];
      },
    },
    {
      name: 'infinite scroll the sandbox served: page 2 of the same query continues page 1',
      provenance: { companion: true, responses: [R1, R2] },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P200'], { at: 1100 }),
          p.render('r2', { at: 5000 }),
          p.impression('r2', ['P210'], { at: 6100 }),
          p.click('r1', 'P200', { at: 8000 }),
        ];
      },
    },
    {
      name: 'two tabs of one URL share the page load (the client reuses its stored pageLoadId for the same href within 10 s), each searching for itself: each tab’s events name its own response',
      provenance: { companion: true, responses: [TAB1, TAB2] },
      events: twoTabs(2000),
    },
    {
      name: 'two tabs: the second first rendered 20 s after the first (the 10 s and a slow page), the edge',
      provenance: { companion: true, responses: [TAB1, TAB2] },
      events: twoTabs(20_000),
    },
    {
      name: 'two widgets of one profile are not judged',
      events: () => {
        const p = new PageBuilder().as('recommendations', 'similar');
        return [
          p.render('w1', { at: 0 }),
          p.render('w2', { at: 10 }),
          p.impression('w1', ['a'], { at: 1100 }),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'the same search rendered again 20.1 s later on the same page load: not a second tab, the old response’s impression after it',
      provenance: { companion: true, responses: [TAB1, TAB2] },
      events: twoTabs(20_100),
      findings: [
        { messageId: 'replaced', message: 'another search\'s response "t2"', events: [1, 3] },
      ],
    },
    {
      name: 'the same query and page sorted anew at the same URL (other parameters): one document, the old response’s impression after it',
      provenance: { companion: true, responses: [TAB1, TAB2_SORTED] },
      events: twoTabs(2000),
      findings: [
        { messageId: 'replaced', message: 'another search\'s response "t2"', events: [1, 3] },
      ],
    },
    {
      name: 'a sort in an SPA that keeps the URL: page 1 of the same query again, then a click on the old one',
      provenance: { companion: true, responses: [R1, R2, SORTED] },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P200'], { at: 1100 }),
          p.render('r5', { at: 5000 }),
          p.impression('r5', ['P201'], { at: 6100 }),
          p.click('r1', 'P200', { at: 7000 }),
        ];
      },
      findings: [
        { messageId: 'replaced', message: 'another search\'s response "r5"', events: [2, 4] },
      ],
    },
    {
      name: 'back to the first search, served from the cache without its render: the render is the fix',
      events: () => {
        const p = new PageBuilder();
        const q = new PageBuilder(at('http://localhost:3000/search?q=boots'));
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], { at: 1100 }),
          q.render('r2', { at: 5000 }),
          q.impression('r2', ['b'], { at: 6100 }),
          p.impression('r1', ['a'], { at: 10_100 }),
        ];
      },
      findings: [
        {
          messageId: 'notRenderedAgain',
          message: 'at a URL that asks for its search again',
          fix: 'send search/render again when a response comes back from the cache',
          events: [2, 4],
          responseId: 'r1',
        },
      ],
    },
    {
      name: 'a filter applied in an SPA, then a click with the unfiltered response’s id',
      events: () => {
        const p = new PageBuilder();
        const f = new PageBuilder(at('http://localhost:3000/search?q=shoes#/filter:color:Blue'));
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a', 'b'], { at: 1100 }),
          f.render('r2', { at: 5000 }),
          f.impression('r2', ['b'], { at: 6100 }),
          f.click('r1', 'b', { at: 7000 }),
        ];
      },
      findings: [
        {
          messageId: 'replaced',
          message: 'had rendered another search\'s response "r2" before',
          fix: 'send search/clickthrough with the responseId of the response whose results are on screen',
          events: [2, 4],
          responseId: 'r1',
        },
      ],
    },
    {
      name: 'the dropdown’s earlier response clicked after a newer one was shown',
      events: () => {
        const p = new PageBuilder().as('autocomplete');
        return [
          p.render('a1', { at: 0 }),
          p.render('a2', { at: 400 }),
          p.impression('a2', ['x'], { at: 1500 }),
          p.click('a1', 'y', { at: 2000 }),
        ];
      },
      findings: [
        { messageId: 'replaced', message: 'but the dropdown had rendered', events: [1, 3] },
      ],
    },
  ],
} satisfies RuleCases;
