// `duplicate-impression`: one uid reported in more than one impression of a responseId during one view.
import { finding, plural, quoted, defineRule, type RuleMeta } from './types';

const meta: RuleMeta<'response'> = {
  id: 'duplicate-impression',
  judges: ['response'],
  title: 'Item impressed twice',
  description:
    'The same uid reported in more than one impression of one responseId while it stayed on screen.',
  expects: 'Send items as they scroll into view, once per response.',
  appliesTo: ['search', 'category', 'autocomplete', 'recommendations', 'bundles'],
  guards: ['search.impression', 'search.tile-response'],
  explainedBy: ['responseid-stale', 'response-replaced'],
  defaultSeverity: 'warning',
  messages: {
    duplicate:
      '{{count}} of responseId "{{responseId}}" {{were}} reported in more than one impression: uid {{uids}}. The spec says to send items as they scroll into view, once per response.',
  },
  fix: 'Remember which uids of a response were already impressed and skip them.',
  listens: ['render', 'impression'],
};

export const duplicateImpression = defineRule({
  meta,
  response(r) {
    if (r.facts.impressions.length === 0) return [];
    // A render starts a new view (a re-visit of a cached response re-impresses its tiles, legitimately).
    // Results and banners are separate uid spaces.
    let results = new Map<string, string>();
    let banners = new Map<string, string>();
    const dupUids = new Set<string>();
    const ids: string[] = [];
    const see = (seen: Map<string, string>, uid: string, id: string) => {
      const prior = seen.get(uid);
      if (prior === undefined) seen.set(uid, id);
      else {
        dupUids.add(uid);
        ids.push(prior, id);
      }
    };
    for (const e of r.events) {
      if (!e.accepted) continue;
      if (e.event === 'render' && (results.size > 0 || banners.size > 0)) {
        results = new Map();
        banners = new Map();
      } else if (e.event === 'impression') {
        for (const item of e.results) see(results, item.uid, e.id);
        for (const b of e.banners) see(banners, b.uid, e.id);
      }
    }
    if (dupUids.size === 0) return [];
    const uids = [...dupUids];
    const data = {
      count: plural(dupUids.size, 'item'),
      responseId: r.responseId,
      were: dupUids.size === 1 ? 'was' : 'were',
      uids: quoted(uids),
    };
    return [
      finding(meta, r.responseId, { messageId: 'duplicate', data }, ids, {
        responseId: r.responseId,
      }),
    ];
  },
});
