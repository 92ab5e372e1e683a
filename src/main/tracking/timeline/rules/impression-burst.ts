// `impression-burst` (warning): at least BURST_TILES tiles of one response impressed within BURST_MS of its
// render (before or after it): the storefront impressed every result at load, not the tiles the shopper saw.
//
// Why it is safe on correct traffic: the provider's client impresses a tile only after 70% of it has been
// visible for 1 s (createImpressionObserver), so none of its impressions is timestamped within 500 ms of
// the render, however many tiles a dense grid shows. What it exempts: fewer than BURST_TILES tiles (a
// first screen of a few tiles impressed at once by a storefront with its own, instant observer is fine),
// and anything later than BURST_MS after the render. The one correct storefront it can flag is one with
// an instant observer on a screen showing 20 or more tiles at once; its impressions are then not what the
// service's viewability reports assume either.
import type { TimelineEvent } from '../model';
import { finding, list, type ResponseRule } from './types';

export const BURST_TILES = 20;
export const BURST_MS = 500;

export const impressionBurst: ResponseRule = {
  id: 'impression-burst',
  scope: 'response',
  check(r) {
    if (r.facts.renders.length === 0 || r.facts.impressions.length === 0) return [];
    // A storefront impressing at load may queue its impressions before it calls render: count both sides.
    let render: TimelineEvent | null = null;
    let uids = new Set<string>();
    let ids: string[] = [];
    for (const candidate of r.facts.renders) {
      uids = new Set();
      ids = [];
      for (const e of r.facts.impressions) {
        if (Math.abs(e.time - candidate.time) > BURST_MS) continue;
        for (const item of e.results) uids.add(item.uid);
        ids.push(e.id);
      }
      render = candidate;
      if (uids.size >= BURST_TILES) break;
    }
    if (!render || uids.size < BURST_TILES) return [];
    const message =
      `${uids.size} tiles of responseId "${r.responseId}" were impressed within ${BURST_MS} ms of its render ${render.id} (${list(ids, 3)}): ` +
      `the storefront reported results at load, not as the shopper saw them. The spec expects an impression when a tile scrolls into view ` +
      `(the provider's client: 70% of it visible for 1 s), so impression counts and click-through rates mean what they say. ` +
      `Fix: observe each tile with an IntersectionObserver and send its impression once it has been visible, once per responseId.`;
    return [
      finding('impression-burst', 'warning', r.responseId, message, [render.id, ...ids], {
        responseId: r.responseId,
      }),
    ];
  },
};
