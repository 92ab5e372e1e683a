// `tile-uid-variant` (warning): an impression or clickthrough whose product uid is a variant of a result of
// the response it names, not the result's own uid.
//
// Why it is certain: the provider's controllers send a tile's impression and clickthrough with the result's
// own id (SC track.product.impression and track.product.click: `uid: result.id`; the recommendation and
// autocomplete controllers the same), and only its addtocart with the variant the shopper selected (SC
// track.product.addToCart: `uid: result.display.mappings.core.uid || result.display.id`). So a variant's uid
// on an impression or a click was put there by the storefront: a swatch that rewrote the tile's id, tile
// tracking written by hand from the selected variant. What it exempts: addtocarts (the client's own
// variant); a uid that is also a result of the response (a product listed both as a result and as
// another's variant); banners. Needs the response the companion issued, which knows each result's variants.
import { defineRule, type RuleMeta, judgedIn, RESPONSE_KINDS } from './types';
import type { IssuedResponse } from '../../../search/responses';
import { Offenders, describeResponse, issuedFor, itemType } from './utils/provenance';

const meta: RuleMeta<'response'> = {
  id: 'tile-uid-variant',
  judges: ['response'],
  title: 'Tile reported as one of its variants',
  description:
    'An impression or clickthrough whose uid is a variant of a result of its response instead of the result’s own uid: the provider’s client impresses and clicks a tile as the result, and sends the selected variant only with an add to cart. Not judged for addtocarts, nor for a uid that is also a result of the response.',
  expects:
    'Impressions and clicks carry the result’s uid (result.id); an add to cart carries the selected variant.',
  ...judgedIn(RESPONSE_KINDS, ['search.items-served']),
  defaultSeverity: 'warning',
  messages: {
    variant:
      '{{count}} reported with responseId "{{responseId}}" ({{response}}) {{name}} a variant instead of its result: {{offenders}}. The provider’s client impresses and clicks a tile as the result the response returned and sends the selected variant only with an add to cart, so the provider counts these views and clicks for an id it never listed: the result’s impressions and click-through miss them.',
  },
  fix: 'Send impressions and clicks with the result’s uid as the response returned it (result.id); keep the selected variant for the add to cart.',
  fixes: {
    variant:
      'send impressions and clicks with the result’s uid as the response returned it (result.id), not the variant the tile shows; keep the variant for the add to cart.',
  },
  listens: ['impression', 'clickthrough'],
  needs: { provenance: true },
  judgesOnlyWith: ['issued'],
};

/** Each variant uid of the response's results, with its result; a uid that is a result itself is none. */
function variantsOf(issued: IssuedResponse): Map<string, string> {
  const results = new Set(issued.results.map((r) => r.uid));
  const out = new Map<string, string>();
  for (const r of issued.results)
    for (const c of r.children) if (!results.has(c.uid) && c.uid !== r.uid) out.set(c.uid, r.uid);
  return out;
}

export const tileUidVariant = defineRule({
  meta,
  response(r, ctx) {
    const issued = issuedFor(r, ctx);
    if (!issued || !issued.results.some((x) => x.children.length > 0)) return [];
    const variants = variantsOf(issued);
    const bad = new Offenders();
    for (const e of [...r.facts.impressions, ...r.facts.clicks])
      for (const item of e.results) {
        if (itemType(item) === 'banner') continue;
        const result = variants.get(item.uid);
        if (result !== undefined)
          bad.add(item.uid, e.id, () => `a variant of result "${result}": send "${result}"`);
      }
    if (bad.size === 0) return [];
    return [
      bad.finding(meta, r.responseId, {
        messageId: 'variant',
        noun: 'tile',
        words: {
          response: describeResponse(issued),
          name: bad.size === 1 ? 'names' : 'name',
        },
      }),
    ];
  },
});
