// `item-not-in-response`: an impression, clickthrough or addtocart reports a product uid that the search
// response it names did not contain (neither a result nor a variant of one). Needs the issued response.
import { list, plural, defineRule, type RuleMeta } from './types';
import type { IssuedResponse } from '../../../search/responses';
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

const meta: RuleMeta<'response'> = {
  id: 'item-not-in-response',
  judges: ['response'],
  title: 'Item not in its search response',
  description:
    'An impression, clickthrough or addtocart reporting a product uid that the response it names did not return (nor a variant of one); a stale responseId after a new search shows up here.',
  expects:
    'Items are results (or variants of results) of the response whose responseId the event carries.',
  appliesTo: ['search', 'category', 'autocomplete', 'recommendations', 'bundles'],
  // each kind's finding names its own area's behaviour (a widget's: recommendations.events)
  guards: [
    'search.items-served',
    'category.events',
    'autocomplete.events',
    'recommendations.events',
    'bundles.widget',
  ],
  explainedBy: ['responseid-stale', 'response-replaced'],
  defaultSeverity: 'error',
  messages: {
    notInResponse:
      '{{count}} reported with responseId "{{responseId}}" {{were}} not in that response ({{response}}): {{offenders}}. The response returned {{returned}}; an impression, clickthrough or addtocart may only report results of the response whose responseId it carries, or a variant of one.',
  },
  fix: 'Take uid from the result as returned and the responseId from the same response.',
  fixes: {
    notInResponse:
      "take uid from the result as the response gave it (Snap client: result.id, or a variant's uid) and the responseId from that same response.",
  },
  listens: ['impression', 'clickthrough', 'addtocart'],
  needs: { provenance: true },
  judgesOnlyWith: ['issued'],
};

export const itemNotInResponse = defineRule({
  meta,
  response(r, ctx) {
    const issued = issuedFor(r, ctx);
    if (!issued) return [];
    const missing = new Offenders();
    for (const { e, uid, banner } of unreturnedItems(r, issued))
      // an inline banner sent as a product is inline-banner-as-product's
      if (!banner)
        missing.add(uid, e.id, () => whereElse(uid, issued, ctx.provenance!, ctx.page.siteId));
    const out = [];
    if (missing.size > 0) {
      const shown = issued.results.map((x) => x.uid);
      out.push(
        missing.finding(meta, r.responseId, {
          messageId: 'notInResponse',
          noun: 'item',
          words: {
            were: missing.size === 1 ? 'was' : 'were',
            response: describeResponse(issued),
          },
          after: {
            returned: `${plural(shown.length, 'result')}${shown.length ? ` (uids ${list(shown.map((u) => `"${u}"`))})` : ''}`,
          },
        }),
      );
    }
    return out;
  },
});
