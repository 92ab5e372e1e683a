import { PageBuilder, issued, type RuleCases } from '../kit';

const RESULTS = [{ uid: 'P200', sku: 'P200', parentId: 'P200', children: [] }];
/** the listing's search, and a count of the same search with a filter (resultsPerPage=0) */
const LIST = issued({ responseId: 'list', asked: 'page=1&q=trail', results: RESULTS });
const COUNT = issued({
  responseId: 'count',
  perPage: 0,
  asked: 'filter.brand=Northfold&page=1&q=trail&resultsPerPage=0',
});

export default {
  valid: [
    {
      name: 'the listing’s response rendered; the count beside it asked and never rendered',
      provenance: { companion: true, responses: [LIST, COUNT] },
      events: () => {
        const p = new PageBuilder();
        return [p.render('list', { at: 0 }), p.impression('list', ['P200'], { at: 1200 })];
      },
    },
    {
      name: 'edge: a response the sandbox did not issue (its request is not known)',
      provenance: { companion: true, responses: [LIST] },
      events: () => [new PageBuilder().render('elsewhere', { at: 0 })],
    },
  ],
  invalid: [
    {
      name: 'a facet-count refresh (resultsPerPage=0) tracked as a render',
      provenance: { companion: true, responses: [LIST, COUNT] },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('list', { at: 0 }),
          p.impression('list', ['P200'], { at: 1200 }),
          p.render('count', { at: 4000 }),
        ];
      },
      findings: [
        {
          message: 'whose request asked resultsPerPage=0',
          fix: 'not for a count-only request',
          events: [2],
          responseId: 'count',
        },
      ],
    },
  ],
} satisfies RuleCases;
