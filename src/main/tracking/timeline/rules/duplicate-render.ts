// `duplicate-render`: the same responseId rendered again before any impression of it.
import { finding, list, type ResponseRule } from './types';

export const duplicateRender: ResponseRule = {
  id: 'duplicate-render',
  scope: 'response',
  check(r) {
    if (r.facts.renders.length < 2) return [];
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
    if (pairs.length === 0) return [];
    const ids = pairs.flat();
    const message =
      `responseId "${r.responseId}" was rendered again before any impression of it: ${list(
        pairs.map(([a, b]) => `${b} repeats ${a}`),
        3,
      )}. ` +
      `The spec expects one render per displayed search response. ` +
      `Fix: track render once per response, not on every re-render of the results component.`;
    return [
      finding('duplicate-render', 'warning', r.responseId, message, ids, {
        responseId: r.responseId,
      }),
    ];
  },
};
