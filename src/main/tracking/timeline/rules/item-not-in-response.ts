// `item-not-in-response`: an impression, clickthrough or addtocart reports a product uid that the search
// response it names did not contain (neither a result nor a variant of one). Needs the issued response.
// A uid that another response of the page (its kind and tag) returned is a tile sent with another
// response's responseId (page 1's tile clicked with page 2's id after an infinite scroll, a re-search's tiles
// impressed with the earlier search's id): its own message, whose fix is the responseId, not the uid.
import { list, plural, defineRule, type RuleMeta, type RuleContext } from './types';
import type { IssuedResponse } from '../../../search/responses';
import type { Response } from '../response';
import {
  Offenders,
  allResultUids,
  describeResponse,
  issuedFor,
  unreturnedItems,
  type ProvenanceSource,
} from './utils/provenance';

/** Where else the uid was: the sku of a result here, or a result of another response of the site. */
function whereElse(
  uid: string,
  issued: IssuedResponse,
  p: ProvenanceSource,
  siteId: string,
): string {
  for (const res of issued.results) {
    if (res.sku === uid) return `that is the sku of result "${res.uid}": send its uid`;
    const child = res.children.find((c) => c.sku === uid);
    if (child)
      return `that is the sku of variant "${child.uid}" of result "${res.uid}": send its uid`;
  }
  // the response issued closest in time that served it (not the newest remembered: the live sandbox and
  // `check` of its export remember responses in other orders, and must name the same one)
  let best: IssuedResponse | undefined;
  let n = 0;
  for (const other of p.recent(siteId)) {
    if (++n > 500) break;
    if (other.responseId === issued.responseId || !allResultUids(other).has(uid)) continue;
    const d = Math.abs(other.issuedAt - issued.issuedAt);
    const bestD = best ? Math.abs(best.issuedAt - issued.issuedAt) : Infinity;
    if (d < bestD || (d === bestD && best && other.responseId < best.responseId)) best = other;
  }
  if (!best) return '';
  const when = best.issuedAt >= issued.issuedAt ? 'a later' : 'an earlier';
  return `it is a result of ${when} response "${best.responseId}" (${describeResponse(best)}): the page sent a stale responseId — use the responseId of the search whose results are shown`;
}

/**
 * Which other response of the page (of `r`'s kind and tag) returned a uid, the first of the page's to:
 * the page's issued responses are listed once, when `r` first has an unreturned item, and each uid is
 * looked up once.
 */
function pageLookup(r: Response, ctx: RuleContext): (uid: string) => IssuedResponse | undefined {
  let others: IssuedResponse[] | undefined;
  const found = new Map<string, IssuedResponse | undefined>();
  return (uid) => {
    if (found.has(uid)) return found.get(uid);
    others ??= [...ctx.page.responses.values()].flatMap((o) => {
      const issued =
        o !== r && o.kind === r.kind && o.tag === r.tag ? issuedFor(o, ctx) : undefined;
      return issued ? [issued] : [];
    });
    const by = others.find((o) => allResultUids(o).has(uid));
    found.set(uid, by);
    return by;
  };
}

/** `a result of the earlier response "r1" (search "shoes"), …`: the response of the page that delivered the tile. */
function deliveredBy(other: IssuedResponse, issued: IssuedResponse): string {
  const what = `"${other.responseId}" (${describeResponse(other)})`;
  return other.issuedAt >= issued.issuedAt
    ? `a result of the later response ${what}: a responseId kept from before it`
    : `a result of the earlier response ${what}, the tile's own`;
}

const meta: RuleMeta<'response'> = {
  id: 'item-not-in-response',
  judges: ['response'],
  title: 'Item not in its search response',
  description:
    'An impression, clickthrough or addtocart reporting a product uid that the response it names did not return (nor a variant of one); a stale responseId after a new search shows up here. A uid another response of the page returned is named as a tile sent with another response’s responseId (its fix is the responseId, not the uid).',
  expects:
    'Items are results (or variants of results) of the response whose responseId the event carries.',
  appliesTo: ['search', 'category', 'autocomplete', 'recommendations', 'bundles'],
  // each kind's finding names its own area's behaviour (a widget's: recommendations.events); a tile sent
  // with another response's responseId names search.tile-response
  guards: [
    'search.items-served',
    'category.events',
    'autocomplete.events',
    'recommendations.events',
    'bundles.widget',
    'search.tile-response',
    // a click or quick add of an item its response did not deliver breaks their own invariant too
    'search.clickthrough',
    'search.addtocart',
    'category.items-served',
  ],
  explainedBy: ['responseid-stale', 'response-replaced'],
  defaultSeverity: 'error',
  messages: {
    notInResponse:
      '{{count}} reported with responseId "{{responseId}}" {{were}} not in that response ({{response}}): {{offenders}}. The response returned {{returned}}; an impression, clickthrough or addtocart may only report results of the response whose responseId it carries, or a variant of one.',
    otherResponse:
      '{{count}} reported with responseId "{{responseId}}" {{were}} not in that response ({{response}}) but in another response of this page: {{offenders}}. Each tile keeps the responseId of the response that delivered it, and its impressions, clicks and adds carry that one: these are counted for the wrong response and position.',
  },
  fix: 'Take uid from the result as returned and the responseId from the same response.',
  fixes: {
    notInResponse:
      "take uid from the result as the response gave it (Snap client: result.id, or a variant's uid) and the responseId from that same response.",
    otherResponse:
      "send each tile's events with the responseId of the response that delivered it (Snap client: the result's own responseId), not the list's current search's nor one kept from an earlier search.",
  },
  listens: ['impression', 'clickthrough', 'addtocart'],
  // the other responses of the page: which of them returned a uid this one did not
  needs: { provenance: true, pageResponses: true },
  judgesOnlyWith: ['issued'],
};

export const itemNotInResponse = defineRule({
  meta,
  response(r, ctx) {
    const issued = issuedFor(r, ctx);
    if (!issued) return [];
    const missing = new Offenders();
    const elsewhere = new Offenders();
    let onPage: ((uid: string) => IssuedResponse | undefined) | undefined;
    for (const { e, uid, banner } of unreturnedItems(r, issued)) {
      // an inline banner sent as a product is inline-banner-as-product's
      if (banner) continue;
      const other = (onPage ??= pageLookup(r, ctx))(uid);
      if (other) elsewhere.add(uid, e.id, () => deliveredBy(other, issued));
      else missing.add(uid, e.id, () => whereElse(uid, issued, ctx.provenance!, ctx.page.siteId));
    }
    const out = [];
    const response = describeResponse(issued);
    if (missing.size > 0) {
      const shown = issued.results.map((x) => x.uid);
      out.push(
        missing.finding(meta, r.responseId, {
          messageId: 'notInResponse',
          noun: 'item',
          words: { were: missing.size === 1 ? 'was' : 'were', response },
          after: {
            returned: `${plural(shown.length, 'result')}${shown.length ? ` (uids ${list(shown.map((u) => `"${u}"`))})` : ''}`,
          },
        }),
      );
    }
    if (elsewhere.size > 0)
      out.push(
        elsewhere.finding(meta, r.responseId, {
          messageId: 'otherResponse',
          noun: 'item',
          words: { were: elsewhere.size === 1 ? 'was' : 'were', response },
          key: `${r.responseId}:other`,
          behaviour: 'search.tile-response',
        }),
      );
    return out;
  },
});
