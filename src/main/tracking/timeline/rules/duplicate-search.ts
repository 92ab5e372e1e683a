// `duplicate-search` (warning): one page load asked the same search twice at once — the second request
// before the first response was rendered — and rendered both, and the shopper saw only one of them (its
// tiles impressed, the other's none): two search controllers on one page, the provider's script (or the
// controller) included twice.
//
// Why it is certain enough to warn: a listing has one search controller, which does not search again
// while its store holds the same parameters (SC search(): `lastStringyParams`), and renders each completed
// search once (SC: `track.render` after the store update). So one document asks a search it asked before
// only after another search changed its parameters, never twice at once. The sandbox knows both requests:
// it issued both responses (their `asked`, the parameters that chose the results, are equal), to this page
// load (their requester's pageLoadId), and the second was asked before the first one's render reached it.
// What it exempts: responses the sandbox did not issue, or kept without `asked` or a requester (older
// files); a search asked again after the first render (another search between, a reload within the
// client's 10 s, a cached showing); two responses of which both or neither were impressed — two tabs of one
// URL opened together share the stored pageLoadId (B getPageLoadId) and each impresses its own tiles, and a
// listing never looked at says nothing either way.
import { finding, defineRule, judgedIn, duration, type RuleMeta } from './types';
import { describeResponse, issuedFor } from './utils/provenance';
import type { Response } from '../response';

const meta: RuleMeta<'response'> = {
  id: 'duplicate-search',
  judges: ['response'],
  title: 'The same search asked twice at once and rendered twice',
  description:
    'Two responses the sandbox issued to one page load for the same search (the same query, filters, sort, page and page size), the second asked before the first was rendered, both rendered, and only one of them impressed: two search controllers on the page (the provider’s script included twice). Not for a search asked again after the first render, nor when both or neither were impressed (two tabs of one URL opened together).',
  expects:
    'One search controller per listing: the client does not search again while it holds the same parameters, and renders each completed search once.',
  ...judgedIn(['search', 'category'], ['search.render']),
  defaultSeverity: 'warning',
  messages: {
    twice:
      'responseId "{{responseId}}" and responseId "{{other}}" answered the same search ({{search}}) for this page load: it asked the second {{gap}} after the first, before the first was rendered, and rendered both ({{renders}}); only "{{impressed}}" was impressed. The provider\'s client runs one search controller per listing, which does not search again while it holds the same parameters, so two controllers searched at once: the provider counts two searches and two renders where the shopper made one.',
  },
  fix: 'Load the provider’s script, and create the search controller, once per page: remove the duplicate script tag or the second initialisation.',
  listens: ['render', 'impression'],
  // the other response's render and impressions decide it
  needs: { provenance: true, pageResponses: true },
  judgesOnlyWith: ['issued'],
  notJudged: {
    autocomplete:
      'the dropdown searches as the shopper types, and a repeated search of the same term is the client’s own (it sends no render of it)',
    recommendations: 'a widget’s request holds no search parameters (its profile and the product)',
    bundles: 'a widget’s request holds no search parameters (its profile and the product)',
  },
};

/** `20 ms` under a second, `1.3 s` from one on */
const gapOf = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : duration(ms));

/** when the sandbox received the response's first render (its timestamp when it kept no receipt) */
function firstRenderAt(r: Response): number | undefined {
  const render = r.facts.renders[0];
  return render ? (render.receivedMs ?? render.time) : undefined;
}

export const duplicateSearch = defineRule({
  meta,
  response(r, ctx) {
    const mine = r.rendered ? issuedFor(r, ctx) : undefined;
    if (!mine?.asked || mine.requester?.pageLoadId !== ctx.page.pageLoadId) return [];
    for (const o of ctx.page.responses.values()) {
      if (o === r || o.kind !== r.kind || !o.rendered) continue;
      const theirs = issuedFor(o, ctx);
      if (theirs?.asked !== mine.asked || theirs.requester?.pageLoadId !== ctx.page.pageLoadId)
        continue;
      // named once, on the second asked, when it was asked before the first one's render arrived
      const renderedAt = firstRenderAt(o);
      if (theirs.issuedAt > mine.issuedAt || renderedAt === undefined) continue;
      if (mine.issuedAt > renderedAt) continue;
      const impressed = [r, o].filter((x) => x.facts.impressions.length > 0);
      if (impressed.length !== 1) continue;
      return [
        finding(
          meta,
          r.responseId,
          {
            messageId: 'twice',
            data: {
              responseId: r.responseId,
              other: o.responseId,
              search: describeResponse(mine),
              gap: gapOf(mine.issuedAt - theirs.issuedAt),
              renders: [...o.facts.renders, ...r.facts.renders].map((e) => e.id).join(', '),
              impressed: impressed[0]!.responseId,
            },
          },
          [o.facts.renders[0]!.id, r.facts.renders[0]!.id],
          { responseId: r.responseId },
        ),
      ];
    }
    return [];
  },
});
