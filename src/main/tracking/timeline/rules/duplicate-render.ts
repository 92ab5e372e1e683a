// `duplicate-render`: the same response rendered again before any impression of it (search, category,
// widgets), or, for autocomplete, rendered again while it was the response shown (a repeated search).
import { endpointOf } from '../../../../shared/kinds';
import { indexSorted } from '../model';
import type { Response } from '../response';
import type { RuleContext } from './types';
import { finding, list, defineRule, type RuleMeta } from './types';

/**
 * The autocomplete controller skips the render when a response has the responseId of the results shown
 * (a repeated search) and keeps its impression flags; it renders again after another response was shown.
 * So two renders of R with no other autocomplete render between them are a duplicate, with impressions
 * between them or not. Silent edge: a repeated search of a response with no results is rendered again by
 * the controller (no result holds the previous responseId), so a pair with no impression between counts
 * only when the companion issued R with results.
 */
function autocompletePairs(r: Response, ctx: RuleContext): Array<[string, string]> {
  const all = ctx.page.autocompleteRenders;
  const issued = ctx.provenance?.issued(ctx.page.siteId, r.responseId);
  const hadResults = issued !== undefined && issued.results.length > 0;
  const pairs: Array<[string, string]> = [];
  for (const render of r.facts.renders) {
    const i = indexSorted(all, render);
    const prev = i > 0 ? all[i - 1]! : undefined;
    if (!prev || prev.responseId !== r.responseId) continue;
    const impressed = r.facts.impressions.some((e) => e.time >= prev.time && e.time <= render.time);
    if (impressed || hadResults) pairs.push([prev.id, render.id]);
  }
  return pairs;
}

const meta: RuleMeta<'response'> = {
  id: 'duplicate-render',
  judges: ['response'],
  title: 'Render sent twice',
  description:
    'A second render of the same responseId on the page before any impression of it (a re-visit of a cached response, after impressions, is fine).',
  expects: 'One render per displayed search response.',
  appliesTo: ['search', 'category', 'autocomplete', 'recommendations', 'bundles'],
  guards: ['search.render-cached', 'autocomplete.render', 'recommendations.widget'],
  defaultSeverity: 'warning',
  messages: {
    renderedAgain:
      'responseId "{{responseId}}"{{tag}} was rendered again before any impression of it: {{pairs}}. The spec expects one render per displayed {{kind}} response.',
    autocompleteRenderedAgain:
      'responseId "{{responseId}}"{{tag}} was rendered again while it was the autocomplete response shown: {{pairs}}. The provider\'s autocomplete controller sends no render for a repeated search (the same responseId as the results shown) and keeps its impressions.',
  },
  fix: 'Track render once per response (not on every component re-render).',
  fixes: {
    renderedAgain:
      'send {{render}} once per response, not on every re-render of the results component.',
    autocompleteRenderedAgain:
      'send {{render}} once per response shown, not again when the same response comes back for the same term.',
  },
  listens: ['render', 'impression'],
  // a repeated autocomplete search counts only when the companion issued the response with results
  needs: { provenance: true },
  kindNotes: {
    autocomplete:
      'a render of the responseId already shown (no other autocomplete render between): the controller skips the render of a repeated search, even after impressions',
    recommendations: 'per widget (tag + responseId)',
    bundles: 'per widget (tag + responseId)',
  },
};

export const duplicateRender = defineRule({
  meta,
  response(r, ctx) {
    if (r.facts.renders.length < 2) return [];
    if (r.kind === 'autocomplete') return report(r, autocompletePairs(r, ctx));
    // A render after impressions starts a new view of the response: the provider's client re-renders a
    // cached response (same responseId) when the shopper comes back to a search. Only back-to-back
    // renders with no impression between them are duplicates.
    const pairs: Array<[string, string]> = [];
    let lastRender: string | null = null;
    let impressedSince = false;
    for (const e of r.events) {
      if (!e.accepted) continue;
      if (e.event === 'render') {
        if (lastRender !== null && !impressedSince) pairs.push([lastRender, e.id]);
        lastRender = e.id;
        impressedSince = false;
      } else if (e.event === 'impression') impressedSince = true;
    }
    return report(r, pairs);
  },
});

function report(r: Response, pairs: Array<[string, string]>) {
  if (pairs.length === 0) return [];
  const ids = pairs.flat();
  const ac = r.kind === 'autocomplete';
  const data = {
    responseId: r.responseId,
    tag: r.tag ? ` (tag "${r.tag}")` : '',
    pairs: list(
      pairs.map(([a, b]) => `${b} repeats ${a}`),
      3,
    ),
    kind: r.kind,
    render: endpointOf(r.kind, 'render'),
  };
  const messageId = ac ? 'autocompleteRenderedAgain' : 'renderedAgain';
  return [
    finding(meta, r.responseId, { messageId, data }, ids, {
      responseId: r.responseId,
    }),
  ];
}
