// `duplicate-impression`: one uid reported in more than one impression of a responseId during one view.
import type { TimelineEvent } from '../model';
import type { Response } from '../response';
import {
  finding,
  plural,
  quoted,
  defineRule,
  type RuleContext,
  type RuleMeta,
  judgedIn,
  RESPONSE_KINDS,
} from './types';

const meta: RuleMeta<'response'> = {
  id: 'duplicate-impression',
  judges: ['response'],
  title: 'Item impressed twice',
  description:
    'The same uid reported in more than one impression of one responseId while it stayed on screen.',
  expects: 'Send items as they scroll into view, once per response.',
  ...judgedIn(RESPONSE_KINDS, ['search.impression', 'search.tile-response']),
  explainedBy: ['responseid-stale', 'response-replaced'],
  defaultSeverity: 'warning',
  messages: {
    duplicate:
      '{{count}} of responseId "{{responseId}}" {{were}} reported in more than one impression: uid {{uids}}. The spec says to send items as they scroll into view, once per response.',
    withinOne:
      '{{count}} of responseId "{{responseId}}" {{were}} repeated within one impression request ({{eventIds}}), in {{lists}}: uid {{uids}}. The provider’s client impresses each uid once per response and merges its queue into one request, so no uid appears twice in it; a storefront that adds the slot banner to every tile’s impression sends it once per tile.',
  },
  fix: 'Remember which uids of a response were already impressed and skip them.',
  fixes: {
    withinOne:
      'send each uid once per impression: collect the tiles and banners that came into view into a set before sending, and impress a slot banner on its own, not beside every tile.',
  },
  listens: ['render', 'impression'],
  // a later page of the listing rendered between the two impressions: infinite scroll sent page 1's tiles again
  needs: { pageResponses: true },
};

/**
 * Each duplicate came after another response of the listing was rendered on the page since the uid's
 * first impression: infinite scroll added a page and the tiles already shown were sent again (6a63aa5
 * reset the impression map on scroll), each tile's response is not kept for it (`search.tile-response`),
 * not a tile impressed twice while it stayed (`search.impression`).
 */
function resentOnScroll(
  r: Response,
  ctx: RuleContext,
  pairs: ReadonlyArray<readonly [TimelineEvent, TimelineEvent]>,
): boolean {
  const later: number[] = [];
  for (const o of ctx.page.responses.values())
    if (o !== r && o.kind === r.kind && o.tag === r.tag && o.responseId !== r.responseId)
      for (const e of o.facts.renders) later.push(e.time);
  return later.length > 0 && pairs.every(([a, b]) => later.some((t) => t > a.time && t <= b.time));
}

export const duplicateImpression = defineRule({
  meta,
  response(r, ctx) {
    if (r.facts.impressions.length === 0) return [];
    // A render starts a new view (a re-visit of a cached response re-impresses its tiles, legitimately).
    // Results and banners are separate uid spaces.
    let results = new Map<string, TimelineEvent>();
    let banners = new Map<string, TimelineEvent>();
    const dupUids = new Set<string>();
    const ids: string[] = [];
    const pairs: Array<[TimelineEvent, TimelineEvent]> = [];
    const lists = new Set<string>();
    const see = (seen: Map<string, TimelineEvent>, uid: string, e: TimelineEvent, list: string) => {
      const prior = seen.get(uid);
      if (prior === undefined) seen.set(uid, e);
      else {
        dupUids.add(uid);
        lists.add(list);
        if (prior !== e) ids.push(prior.id, e.id);
        else if (!ids.includes(e.id)) ids.push(e.id);
        pairs.push([prior, e]);
      }
    };
    for (const e of r.events) {
      if (!e.accepted) continue;
      if (e.event === 'render' && (results.size > 0 || banners.size > 0)) {
        results = new Map();
        banners = new Map();
      } else if (e.event === 'impression') {
        for (const item of e.results) see(results, item.uid, e, 'data.results');
        for (const b of e.banners) see(banners, b.uid, e, 'data.banners');
      }
    }
    if (dupUids.size === 0) return [];
    const uids = [...dupUids];
    // every repeat inside one request: a list built wrong, not a tile impressed again later
    const withinOne = pairs.every(([a, b]) => a === b);
    const data = {
      count: plural(dupUids.size, 'item'),
      responseId: r.responseId,
      were: dupUids.size === 1 ? 'was' : 'were',
      uids: quoted(uids),
      ...(withinOne && { eventIds: ids.join(', '), lists: [...lists].join(' and ') }),
    };
    const messageId = withinOne ? ('withinOne' as const) : ('duplicate' as const);
    return [
      finding(meta, r.responseId, { messageId, data }, ids, {
        responseId: r.responseId,
        ...(resentOnScroll(r, ctx, pairs) && { behaviour: 'search.tile-response' }),
      }),
    ];
  },
});
