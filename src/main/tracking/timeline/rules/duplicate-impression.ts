// `duplicate-impression`: one uid reported in more than one impression of a responseId during one view.
import { finding, plural, quoted, type ResponseRule } from './types';

export const duplicateImpression: ResponseRule = {
  id: 'duplicate-impression',
  scope: 'response',
  check(r) {
    // A render starts a new view (a re-visit of a cached response re-impresses its tiles, legitimately).
    let seen = new Map<string, string>();
    const dupUids = new Set<string>();
    const ids: string[] = [];
    for (const e of r.events) {
      if (!e.accepted) continue;
      if (e.event === 'render') {
        seen = new Map();
        continue;
      }
      if (e.event !== 'impression') continue;
      const keys = [...e.results.map((i) => `result ${i.uid}`), ...e.banners.map((b) => `banner ${b}`)];
      for (const key of keys) {
        const prior = seen.get(key);
        if (prior !== undefined) {
          dupUids.add(key);
          ids.push(prior, e.id);
        } else seen.set(key, e.id);
      }
    }
    if (dupUids.size === 0) return [];
    const uids = [...dupUids].map((k) => k.slice(k.indexOf(' ') + 1));
    const message =
      `${plural(dupUids.size, 'item')} of responseId "${r.responseId}" ${dupUids.size === 1 ? 'was' : 'were'} reported in more than one impression: ` +
      `uid ${quoted(uids)}. The spec says to send items as they scroll into view, once per response. ` +
      `Fix: remember which uids of a response were already impressed and skip them.`;
    return [finding('duplicate-impression', 'warning', r.responseId, message, ids, { responseId: r.responseId })];
  },
};
