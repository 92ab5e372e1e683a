// `click-under-other-response`: a click carrying one responseId on a tile the page impressed under another
// response of the same list — page 2's tile clicked with page 1's responseId, say (a list that pages or
// scrolls taking its tracking data from the current params, not from the tile's own response; the
// provider's client fixed this in 25c13f2). The click is counted for the wrong response and position.
// Exempt: a tile impressed under the click's own responseId too (a product on two pages of a list).
import { finding, quoted, defineRule, type RuleMeta, judgedIn, RESPONSE_KINDS } from './types';
import { impressedElsewhere, impressedIds, unimpressed } from './utils/not-impressed';

const meta: RuleMeta<'response'> = {
  id: 'click-under-other-response',
  judges: ['response'],
  title: 'Click sent with another response’s responseId',
  description:
    'A clickthrough or addtocart whose item no impression of its own responseId reported, but an impression of another response of the same list on the page did (page 2’s tile clicked with page 1’s responseId). A tile impressed under both is not a finding.',
  expects:
    'Each tile’s events carry the responseId of the response that delivered it (infinite scroll: page N’s tiles carry page N’s).',
  // with the issued responses known, item-not-in-response names the same click (its uid another response's
  // result) with certainty, and leads
  // a click or quick add under another response than its tile's is no click (add) naming its own response
  ...judgedIn(RESPONSE_KINDS, ['search.tile-response', 'search.clickthrough', 'search.addtocart']),
  explainedBy: ['item-not-in-response', 'responseid-stale', 'response-replaced'],
  defaultSeverity: 'warning',
  messages: {
    otherResponse:
      '{{events}} carried responseId "{{responseId}}", but the page impressed {{tiles}} only under {{others}}: the click is counted for the wrong response and position. A list that pages or scrolls must send each tile\'s events with the responseId of the response that delivered it.',
  },
  fix: 'Take the responseId from the tile’s own result (the response that delivered it), not from the list’s current search.',
  fixes: {
    otherResponse:
      "take the responseId from the tile's own result, not from the list's current search.",
  },
  listens: ['impression', 'clickthrough', 'addtocart'],
  needs: { pageResponses: true },
};

export const clickUnderOtherResponse = defineRule({
  meta,
  response(r, ctx) {
    const events = [...r.facts.clicks, ...r.facts.carts];
    if (events.length === 0) return [];
    const own = impressedIds(r);
    let elsewhere: Map<string, string> | undefined;
    const bad: string[] = [];
    const ids: string[] = [];
    for (const e of events) {
      const missing = unimpressed(e, own);
      if (missing.length === 0) continue;
      elsewhere ??= impressedElsewhere(r, ctx.page);
      for (const uid of missing) {
        const other = elsewhere.get(uid);
        if (other === undefined) continue;
        bad.push(`${e.event} ${e.id} of uid "${uid}" (impressed with responseId "${other}")`);
        ids.push(e.id);
      }
    }
    if (bad.length === 0) return [];
    const others = [...new Set([...(elsewhere?.values() ?? [])])];
    return [
      finding(
        meta,
        r.responseId,
        {
          messageId: 'otherResponse',
          data: {
            events: `${bad.slice(0, 3).join(', ')}${bad.length > 3 ? ` and ${bad.length - 3} more` : ''}`,
            responseId: r.responseId,
            tiles: bad.length === 1 ? 'that tile' : 'those tiles',
            others: quoted(others, 3),
          },
        },
        ids,
        { responseId: r.responseId },
      ),
    ];
  },
});
