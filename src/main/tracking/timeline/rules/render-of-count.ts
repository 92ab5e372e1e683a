// `render-of-count` (warning): a render of a search or category response whose request asked for no results
// (resultsPerPage=0: counts and facets only).
//
// Why it is certain: the provider's controllers render the response whose results they show (SC search():
// one render per store update, with the page size of the listing), and the one controller that asks
// `resultsPerPage=0` is the Finder (FinderController: `pagination: { pageSize: 0 }`, the counts behind its
// selects), which sends no beacon at all. A render of such a response counts a results page nobody saw,
// under a responseId no tile carries. What it exempts: a response the sandbox did not issue (its request is
// not known), and every request with a page size.
import { finding, defineRule, judgedIn, list, type RuleMeta } from './types';
import { countOnly, issuedFor } from './utils/provenance';
import { endpointOf } from '../../../../shared/kinds';

const meta: RuleMeta<'response'> = {
  id: 'render-of-count',
  judges: ['response'],
  title: 'Render of a count-only response',
  description:
    'A render of a search or category response whose request asked resultsPerPage=0 (counts and facets, no results): the provider’s Finder asks such counts and renders nothing; a listing renders the response whose results it shows.',
  expects: 'A render names the response whose results the page shows.',
  ...judgedIn(['search', 'category'], ['search.render']),
  defaultSeverity: 'warning',
  messages: {
    count:
      '{{renders}} {{names}} responseId "{{responseId}}", whose request asked resultsPerPage=0: counts and facets, no results. The provider’s Finder asks such counts for its selects and sends no beacon, and a listing renders the response whose results it shows, so this render counts a results page nobody saw.',
  },
  fix: 'Render only the response whose results the page shows; a request for counts (resultsPerPage=0) is not rendered.',
  fixes: {
    count:
      'send {{render}} for the search whose results the page shows, not for a count-only request (resultsPerPage=0).',
  },
  listens: ['render'],
  needs: { provenance: true },
  judgesOnlyWith: ['issued'],
  notJudged: {
    autocomplete: 'the dropdown asks its own page size',
    recommendations: 'the recommend API has no page size',
    bundles: 'the recommend API has no page size',
  },
};

export const renderOfCount = defineRule({
  meta,
  response(r, ctx) {
    if (r.facts.renders.length === 0) return [];
    const issued = issuedFor(r, ctx);
    if (!issued || !countOnly(issued)) return [];
    const renders = r.facts.renders;
    return [
      finding(
        meta,
        r.responseId,
        {
          messageId: 'count',
          data: {
            renders: list(renders.map((e) => `${endpointOf(r.kind, 'render')} ${e.id}`)),
            names: renders.length === 1 ? 'names' : 'name',
            responseId: r.responseId,
            render: endpointOf(r.kind, 'render'),
          },
        },
        renders.map((e) => e.id),
        { responseId: r.responseId },
      ),
    ];
  },
});
