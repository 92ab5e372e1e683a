// `item-not-in-response`: an impression, clickthrough or addtocart reports a product uid that the response
// it names did not contain (neither a result nor a variant of one). Needs the issued response. A uid another
// response of the same page load returned (one it rendered, or asked for) is named with it; a response
// issued to another page load is never named (it never reached this page). A responseId rendered by a
// widget it was not issued for (responseid-cross-kind) explains the items that widget reports under it.
// A uid that another response of the page (its kind and tag) returned is a tile sent with another
// response's responseId (page 1's tile clicked with page 2's id after an infinite scroll, a re-search's tiles
// impressed with the earlier search's id): its own message, whose fix is the responseId, not the uid.
import { list, plural, defineRule, type RuleMeta, type RuleContext } from './types';
import { isWidgetKind } from '../../../../shared/kinds';
import type { IssuedResponse } from '../../../search/responses';
import type { Response } from '../response';
import type { TimelineEvent } from '../model';
import {
  Offenders,
  allResultUids,
  describeResponse,
  issuedFor,
  unreturnedItems,
} from './utils/provenance';
import { issuedKind } from '../../../search/responses';

/**
 * Where else the uid was: the sku of a result here, or a result of another response of this page load (the
 * one issued closest in time), else that none of them served it. A response of this page load is one it
 * rendered, one it asked for (the companion knows who asked), or one of the same kind (and tag) whose
 * request named no page load, issued while the page was sending events, before this one (a storefront whose
 * searches carry no tracking context searched again). A response issued to another page load, or before
 * this one began, never reached this page: it says nothing about its responseId.
 */
function whereElse(
  uid: string,
  e: TimelineEvent,
  r: Response,
  issued: IssuedResponse,
  ctx: RuleContext,
  ofPage: () => PageLoadResponses,
): string {
  for (const res of issued.results) {
    if (res.sku === uid) return `that is the sku of result "${res.uid}": send its uid`;
    const child = res.children.find((c) => c.sku === uid);
    if (child)
      return `that is the sku of variant "${child.uid}" of result "${res.uid}": send its uid`;
  }
  // a widget's tile of the very product the page shows: the carousel put the viewed product among the
  // results (the recommend API serves a product page's widget other products: RC renders its results only)
  if (isWidgetKind(r.kind))
    for (const v of ctx.page.visitEvents)
      if (
        v.endpoint === 'product/pageview' &&
        v.items.some((i) => i.uid === uid || i.parentId === uid)
      )
        return `it is the product this page shows (its product/pageview ${v.base.id}): the widget added the viewed product to its tiles; report only the results the recommend API served`;
  // closest in time (not the newest remembered: the live sandbox and `check` of its export remember
  // responses in other orders, and must name the same one)
  let best: PageLoadResponse | undefined;
  for (const o of ofPage()) {
    if (o.other.responseId === issued.responseId || !allResultUids(o.other).has(uid)) continue;
    if (o.how === 'unasked' && (e.receivedMs === null || o.other.issuedAt > e.receivedMs)) continue;
    const d = Math.abs(o.other.issuedAt - issued.issuedAt);
    const bestD = best ? Math.abs(best.other.issuedAt - issued.issuedAt) : Infinity;
    if (d < bestD || (d === bestD && best && o.other.responseId < best.other.responseId)) best = o;
  }
  if (!best) return 'no response this page load rendered or asked for served it';
  const { other, how } = best;
  const by = HOW[how];
  if (issuedKind(other) !== r.kind || (other.tag ?? '') !== r.tag)
    return `it is a result of response "${other.responseId}" (${describeResponse(other)}) ${by}: send that tile's events with the responseId of the response that delivered it, on its own controller's endpoint`;
  const when = other.issuedAt >= issued.issuedAt ? 'a later' : 'an earlier';
  return `it is a result of ${when} response "${other.responseId}" (${describeResponse(other)}) ${by}: the page sent a stale responseId — use the responseId of the ${SHOWN_AS[r.kind]} whose results are shown`;
}

/** How a response is this page load's, as the note says it. */
const HOW = {
  rendered: 'this page load rendered',
  asked: 'this page load asked for',
  unasked: 'issued while this page load was open (its request named no page load)',
} as const;

/** What shows a kind's results, as the stale-responseId note names it. */
const SHOWN_AS: Record<string, string> = {
  search: 'search',
  category: 'category listing',
  autocomplete: 'autocomplete response',
  recommendations: 'widget',
  bundles: 'bundle widget',
};

interface PageLoadResponse {
  other: IssuedResponse;
  how: keyof typeof HOW;
}

type PageLoadResponses = readonly PageLoadResponse[];

/** How many of the site's newest issued responses are read for those whose request named no page load. */
const UNASKED_LOOKUP = 500;

/**
 * The issued responses of this page load: those it rendered, those it asked for, and those of `r`'s kind
 * (and tag) whose request named no page load, issued since the page's first event arrived.
 */
function pageLoadResponses(r: Response, ctx: RuleContext): PageLoadResponses {
  const list: PageLoadResponse[] = [];
  const seen = new Set<string>([r.responseId]);
  for (const o of ctx.page.responses.values()) {
    if (seen.has(o.responseId) || !o.rendered) continue;
    const other = issuedFor(o, ctx);
    if (!other) continue;
    seen.add(o.responseId);
    list.push({ other, how: 'rendered' });
  }
  const p = ctx.provenance;
  if (!p) return list;
  for (const other of p.issuedTo(ctx.page.siteId, ctx.page.pageLoadId)) {
    if (seen.has(other.responseId)) continue;
    seen.add(other.responseId);
    list.push({ other, how: 'asked' });
  }
  const since = ctx.page.firstSeenMs;
  if (since === null) return list;
  let n = 0;
  for (const other of p.recent(ctx.page.siteId)) {
    if (++n > UNASKED_LOOKUP) break;
    if (seen.has(other.responseId) || other.requester?.pageLoadId !== undefined) continue;
    if (other.issuedAt < since || issuedKind(other) !== r.kind || (other.tag ?? '') !== r.tag)
      continue;
    seen.add(other.responseId);
    list.push({ other, how: 'unasked' });
  }
  return list;
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
  title: 'Item not in its response',
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
  // a widget that rendered another widget's responseId reports its own items under it: not in that response
  explainedBy: ['responseid-stale', 'response-replaced', 'responseid-cross-kind'],
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
    let ofPage: PageLoadResponses | undefined;
    const pageLoad = () => (ofPage ??= pageLoadResponses(r, ctx));
    for (const { e, uid, banner } of unreturnedItems(r, issued)) {
      // an inline banner sent as a product is inline-banner-as-product's
      if (banner) continue;
      const other = (onPage ??= pageLookup(r, ctx))(uid);
      if (other) elsewhere.add(uid, e.id, () => deliveredBy(other, issued));
      else missing.add(uid, e.id, () => whereElse(uid, e, r, issued, ctx, pageLoad));
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
