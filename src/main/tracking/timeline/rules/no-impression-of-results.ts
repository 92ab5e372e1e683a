// `no-impression-of-results`: the sandbox issued the search response, it showed results or banners, it was
// rendered, and the page ended without any impression of it: impressions were certainly due. When the page
// impressed its results under another response's responseId (one that did not return them: a re-search
// whose tiles kept the earlier search's id), it says so and names those impressions: it follows from
// `item-not-in-response`'s finding about them, on that other response.
// Exempt (in `unimpressedRender`, shared with `no-impression`): a response the listing replaced on screen
// with another search's response before its tiles could be a second in view (REPLACED_BEFORE_IMPRESSION_MS
// after its render, by the renders' timestamps): the client's impression observer never fired for them.
import {
  duration,
  finding,
  defineRule,
  list,
  quoted,
  type RuleMeta,
  type ResponseRuleContext,
} from './types';
import type { Response } from '../response';
import {
  IMPRESSION_FIX,
  NOT_IMPRESSED_AGAIN,
  RESULTS_NOT_IMPRESSED,
  unimpressedRender,
} from './utils/unimpressed-render';
import { allResultUids, inlineBanner, issuedFor, itemType } from './utils/provenance';
import { OTHER_LOAD_FIX } from './utils/unrendered';

const meta: RuleMeta<'response'> = {
  id: 'no-impression-of-results',
  judges: ['response'],
  title: 'Results shown, none impressed',
  description:
    'A rendered search response the sandbox issued with results or banners, and no impression of it once the page has ended; or, rendered again after its impressions (a cached response shown again, whose tiles the client impresses again), none since. Impressions sent before a response’s only render are order’s: it was shown once. Silent for a response the listing replaced with another search’s (a render of another query, or of page 1 again, not the same query’s later page that infinite scroll appends) less than 1.25 s after each of its renders that no impression followed: the provider’s client impresses a tile after 1 s in view and cancels that when the tile is removed, and the 250 ms is the old tiles’ start before their clock runs (painted, then seen by the observer). When its results were impressed under another responseId of the page (one that did not return them), it names those impressions and follows from item-not-in-response there.',
  expects: 'Impressions of the tiles on screen after a render of a response with results.',
  appliesTo: ['search'],
  guards: [
    'search.impression',
    'search.zero-results',
    'search.render-cached',
    'identity.page-load',
  ],
  // its tiles impressed under another response's id: item-not-in-response names those impressions there;
  // shown again by a render duplicate-render names as no showing of the listing (a route away from it)
  explainedBy: ['item-not-in-response', 'duplicate-render'],
  explainedMessages: ['impressedUnderOther', 'notImpressedAgain'],
  causeMessages: { 'duplicate-render': ['awayFromListing'] },
  explainedAcross: ['item-not-in-response'],
  defaultSeverity: 'warning',
  messages: {
    perEvent:
      'responseId "{{responseId}}" was rendered ({{renders}}) on this page load, which holds nothing else, and its events went on under another pageLoadId {{after}} later: {{continued}} on page load {{otherPage}}, with no render there. The provider\'s client makes one pageLoadId per page load (and reuses it for the same URL within 10 s), so the storefront gives its events new pageLoadIds, one per event or per call: the service sees the render and its impressions on different pages.',
    resultsNotImpressed: RESULTS_NOT_IMPRESSED,
    notImpressedAgain: NOT_IMPRESSED_AGAIN,
    impressedUnderOther: `${RESULTS_NOT_IMPRESSED} Its results were impressed under another responseId instead: {{elsewhere}}.`,
  },
  fix: 'Send search/impression for tiles as they scroll into view.',
  fixes: {
    // the same bug as missing-render's on the pages its events went on to: the same fix
    perEvent: OTHER_LOAD_FIX,
    resultsNotImpressed: IMPRESSION_FIX,
    notImpressedAgain:
      'impress the tiles again each time the response is shown (reset the per-response impression flags on every render, not only on a new responseId).',
    impressedUnderOther:
      'send {{impression}} of its tiles with data.responseId "{{responseId}}", the response that delivered them, not {{others}}.',
  },
  listens: ['render', 'redirect', 'impression'],
  // the page's other responses: their impressions of this one's results
  needs: { pageEnd: true, provenance: true, pageResponses: true },
  judgesOnlyWith: ['issued'],
  notJudged: {
    category:
      'the sandbox knows what it issued only for search.json responses it can match to the page',
    autocomplete:
      'the dropdown changes with every keystroke: a response shown for less than the 1 s an impression needs is legitimately never impressed',
    recommendations: 'a widget the shopper never scrolled to is legitimately never impressed',
    bundles: 'a widget the shopper never scrolled to is legitimately never impressed',
  },
};

/**
 * The impressions of the page's other search responses that reported results of `r` they did not return
 * themselves (as `item-not-in-response` finds them there), with their responseIds; read only for a response
 * that showed results and got no impression.
 */
function impressedUnderOthers(r: Response, ctx: ResponseRuleContext) {
  const own = issuedFor(r, ctx);
  const ids: string[] = [];
  const others = new Set<string>();
  if (!own) return { ids, others };
  const ours = allResultUids(own);
  for (const o of ctx.page.responses.values()) {
    if (o === r || o.kind !== r.kind || o.tag !== r.tag || o.impressions === 0) continue;
    const theirs = issuedFor(o, ctx);
    if (!theirs) continue;
    const returned = allResultUids(theirs);
    for (const e of o.facts.impressions)
      if (
        e.results.some(
          (item) =>
            itemType(item) !== 'banner' &&
            ours.has(item.uid) &&
            !returned.has(item.uid) &&
            !inlineBanner(theirs, item.uid),
        )
      ) {
        ids.push(e.id);
        others.add(o.responseId);
      }
  }
  return { ids, others };
}

export const noImpressionOfResults = defineRule({
  meta,
  response(r, ctx) {
    const found = ctx.shared(unimpressedRender);
    if (!found || found.shown <= 0) return [];
    const under = found.again ? undefined : impressedUnderOthers(r, ctx);
    if (under && under.ids.length > 0) {
      const data = {
        ...found.data,
        elsewhere: `${under.ids.length === 1 ? 'impression' : 'impressions'} ${list(under.ids, 3)} with responseId ${quoted(under.others, 3)}`,
        others: [...under.others].map((id) => `"${id}"`).join(' or '),
      };
      return [
        finding(
          meta,
          r.responseId,
          { messageId: 'impressedUnderOther', data },
          [...found.ids, ...under.ids],
          { responseId: r.responseId },
        ),
      ];
    }
    // its events went on under another pageLoadId, and this page holds nothing but its render: a
    // pageLoadId per event
    const on = r.continuedOn;
    if (on && !found.again && ctx.page.accepted === r.renders) {
      const render = r.facts.renders[0];
      return [
        finding(
          meta,
          r.responseId,
          {
            messageId: 'perEvent',
            data: {
              responseId: r.responseId,
              renders: list(r.facts.renders.map((e) => e.id)),
              after: duration(Math.max(0, on.time - (render?.time ?? on.time))),
              continued: on.eventId,
              otherPage: on.pageLoadId,
            },
          },
          [...found.ids, on.eventId],
          { responseId: r.responseId, behaviour: 'identity.page-load' },
        ),
      ];
    }
    return [
      finding(
        meta,
        r.responseId,
        {
          messageId: found.again ? 'notImpressedAgain' : 'resultsNotImpressed',
          data: found.data,
        },
        found.ids,
        // shown again and not impressed again: the cached response's (the client resets its flags)
        {
          responseId: r.responseId,
          ...(found.again && { behaviour: 'search.render-cached' }),
        },
      ),
    ];
  },
});
