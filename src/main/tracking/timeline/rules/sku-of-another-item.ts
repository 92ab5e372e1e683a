// `sku-of-another-item` (error): a clickthrough or addtocart item whose sku is the sku of another result
// (or of another result's variant) of the response it names, not of the item's own uid.
//
// Why it is certain: the provider's controllers build a click's and an add's item from one result of the
// store (SC track.product.click / addToCart: uid, parentId and sku of that result, or of its selected
// variant), so the three ids always describe one product of the response. A sku that the response served
// for another uid comes from a storefront that read it off a neighbouring tile. What it exempts: a sku the
// response never served (a sku the catalog formats otherwise is not certain: item-not-in-response and the
// catalog rule look at uids), an empty sku, an item whose uid the response did not serve
// (item-not-in-response's), a product's own sku and those of its variants (a variant picked on the tile),
// a sku two products of the response share, and impressions (the client may send them without a sku).
import { endpointOf } from '../../../../shared/kinds';
import { defineRule, type RuleMeta, judgedIn, RESPONSE_KINDS } from './types';
import type { IssuedResponse } from '../../../search/responses';
import { Offenders, describeResponse, issuedFor, itemSku, itemType } from './utils/provenance';

const meta: RuleMeta<'response'> = {
  id: 'sku-of-another-item',
  judges: ['response'],
  title: 'sku of another item',
  description:
    'A clickthrough or addtocart item whose sku the response it names served for another result (or another result’s variant), not for the item’s uid.',
  expects:
    'uid, parentId and sku of an item are those of one result of the response (or of its selected variant).',
  ...judgedIn(RESPONSE_KINDS, ['search.clickthrough', 'search.addtocart']),
  explainedBy: ['responseid-stale', 'response-replaced'],
  defaultSeverity: 'error',
  messages: {
    otherSku:
      "{{items}} reported with responseId \"{{responseId}}\" ({{response}}) {{carry}} the sku of another result: {{offenders}}. The provider's client takes an item's uid, parentId and sku from one result (the tile clicked or added), so the merchant's reports credit the wrong product.",
  },
  fix: 'Take uid, parentId and sku from the same result (the tile clicked or added), not from a neighbouring one.',
  fixes: {
    otherSku:
      'send {{endpoint}} with uid, parentId and sku of the same result, not from a neighbouring tile.',
  },
  listens: ['clickthrough', 'addtocart'],
  needs: { provenance: true },
  judgesOnlyWith: ['issued'],
};

/** a sku two products of the response share: it names neither for certain */
const SHARED = '';

/** sku → the product (result uid) it belongs to, and uid → its own product, of one response */
function skuOwners(issued: IssuedResponse) {
  const owner = new Map<string, string>();
  const productOf = new Map<string, string>();
  const own = (sku: string | null, uid: string) => {
    if (!sku) return;
    const had = owner.get(sku);
    owner.set(sku, had === undefined || had === uid ? uid : SHARED);
  };
  for (const res of issued.results) {
    productOf.set(res.uid, res.uid);
    own(res.sku, res.uid);
    for (const c of res.children) {
      productOf.set(c.uid, res.uid);
      own(c.sku, res.uid);
    }
  }
  return { owner, productOf };
}

export const skuOfAnotherItem = defineRule({
  meta,
  response(r, ctx) {
    const issued = issuedFor(r, ctx);
    if (!issued || (r.facts.clicks.length === 0 && r.facts.carts.length === 0)) return [];
    const { owner, productOf } = skuOwners(issued);
    const bad = new Offenders();
    let clicked = false;
    for (const e of [...r.facts.clicks, ...r.facts.carts])
      for (const item of e.results) {
        if (itemType(item) === 'banner') continue;
        const sku = itemSku(item);
        const mine = productOf.get(item.uid);
        const theirs = sku ? owner.get(sku) : undefined;
        if (mine === undefined || !theirs || theirs === mine) continue;
        bad.add(item.uid, e.id, `sku "${sku}", the sku of result "${theirs}"`);
        if (e.event === 'clickthrough') clicked = true;
      }
    if (bad.size === 0) return [];
    const first = r.facts.clicks.length > 0 ? 'clickthrough' : 'addtocart';
    return [
      bad.finding(meta, r.responseId, {
        messageId: 'otherSku',
        noun: 'item',
        countAs: 'items',
        words: {
          response: describeResponse(issued),
          carry: bad.size === 1 ? 'carries' : 'carry',
        },
        after: { endpoint: endpointOf(r.kind, first) },
        // quick adds alone are the add's (the judge names the controller's own for other kinds)
        ...(!clicked && { behaviour: 'search.addtocart' }),
      }),
    ];
  },
});
