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
import { finding, list, defineRule, type RuleMeta, judgedIn, RESPONSE_KINDS } from './types';

export const BURST_TILES = 20;
export const BURST_MS = 500;

const meta: RuleMeta<'response'> = {
  id: 'impression-burst',
  judges: ['response'],
  title: 'Every tile impressed at once',
  description:
    'At least 20 tiles of one response impressed within 500 ms of its render: tiles impressed at load, not as they become visible.',
  expects:
    'An impression when a tile has been visible (the provider’s client: 70% of it for 1 s), as it scrolls into view.',
  ...judgedIn(RESPONSE_KINDS, ['search.impression']),
  defaultSeverity: 'warning',
  messages: {
    burst:
      '{{tiles}} tiles of responseId "{{responseId}}" were impressed within {{ms}} ms of its render {{renderId}} ({{events}}): the storefront reported results at load, not as the shopper saw them. The spec expects an impression when a tile scrolls into view (the provider\'s client: 70% of it visible for 1 s), so impression counts and click-through rates mean what they say.',
  },
  fix: 'Observe each tile (IntersectionObserver) and send its impression once it has been visible.',
  fixes: {
    burst:
      'observe each tile with an IntersectionObserver and send its impression once it has been visible, once per responseId.',
  },
  listens: ['render', 'impression'],
};

export const impressionBurst = defineRule({
  meta,
  response(r) {
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
    const data = {
      tiles: uids.size,
      responseId: r.responseId,
      ms: BURST_MS,
      renderId: render.id,
      events: list(ids, 3),
    };
    return [
      finding(meta, r.responseId, { messageId: 'burst', data }, [render.id, ...ids], {
        responseId: r.responseId,
      }),
    ];
  },
});
