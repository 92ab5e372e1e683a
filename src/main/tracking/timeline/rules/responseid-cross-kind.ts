// `responseid-cross-kind`: a responseId sent with events of one kind that belongs to a response of another
// kind (an autocomplete responseId on search events, a recommendations one on category events): seen so on
// the site's timelines, or known from the companion search API that issued it for another endpoint. Also a
// widget's responseId rendered by another widget (another tag of the same kind): the provider's client runs
// one RecommendationController per widget (profile tag), each rendering, with its own tag, the entry the
// recommend API answered for that tag, which carries its own responseId (the batched request's answer is
// split by profile: snap-client RecommendAPI resolves each controller with its own entry). So a responseId
// rendered by two widgets is one widget's id reused by the other: the companion's record names the widget
// it was issued for (the other one is wrong); without it, the widget that rendered it later is named.
import { issuedKind, type IssuedResponse } from '../../../search/responses';
import type { ResponseKind } from '../../../../shared/kinds';
import { endpointOf, isWidgetKind } from '../../../../shared/kinds';
import type { Response } from '../response';
import type { TimelineEvent } from '../model';
import type { RuleContext } from './types';
import {
  finding,
  list,
  plural,
  defineRule,
  type RuleMeta,
  judgedIn,
  RESPONSE_KINDS,
} from './types';

/**
 * The one legitimate crossing: a category page's merchandising redirect goes to search/redirect with the
 * category response's responseId (the controller sends every redirect to the search endpoint).
 */
function categoryRedirect(r: Response, other: ResponseKind, otherEvent: string | null): boolean {
  if (r.kind === 'search' && other === 'category')
    return r.events.every((e) => !e.accepted || e.event === 'redirect');
  return r.kind === 'category' && other === 'search' && otherEvent === 'redirect';
}

const judged = judgedIn(RESPONSE_KINDS, ['search.response-bound']);

const meta: RuleMeta<'response'> = {
  id: 'responseid-cross-kind',
  judges: ['response'],
  title: 'responseId of another kind',
  description:
    'A responseId used by events of two kinds (an autocomplete responseId on search events, a recommendations responseId on category events), or one the companion issued for another endpoint; a widget’s responseId rendered by another widget (the companion issued it for another tag, or this page rendered it with another tag first). A category page’s redirect on search/redirect is not one.',
  expects:
    'Each controller sends the responseId of its own response: autocomplete events the autocomplete response’s, search events the search response’s, each widget its recommend response’s.',
  appliesTo: judged.appliesTo,
  // a widget's render of another widget's responseId is its render's fault too (one render per widget
  // response, with its tag)
  guards: [...judged.guards, 'recommendations.widget'],
  defaultSeverity: 'error',
  messages: {
    submitAsRedirect:
      'search/redirect {{events}} names responseId "{{responseId}}", the dropdown\'s ({{where}}), whose response carries no redirect: a submit of the search box tracked as a merchandising redirect. The provider\'s dropdown sends autocomplete/redirect only when its response carries merchandising.redirect; a submit opens the search page, whose own search is rendered and tracked there, so the service counts a redirect that never was.',
    otherWidget:
      'responseId "{{responseId}}" was issued by the sandbox\'s recommend API for widget "{{issuedTag}}", yet this page renders it as widget "{{tag}}" ({{render}}) and sends it with tag "{{tag}}" in {{count}}: {{events}}.{{alsoRendered}} The provider\'s client runs one controller per widget, each rendering and tracking the response the recommend API answered for its own tag, with that response\'s own responseId: the "{{tag}}" widget shows and counts its results under the "{{issuedTag}}" widget\'s response.',
    sharedWidget:
      'responseId "{{responseId}}" was rendered on this page by widget "{{firstTag}}" ({{firstRender}}) and then by widget "{{tag}}" ({{render}}), which sends it in {{count}}: {{events}}. The provider\'s client runs one controller per widget, each rendering the response the recommend API answered for its own tag, each with its own responseId: two widgets never render one responseId, so one of them reuses the other\'s. The sandbox did not issue it, so it cannot tell whose it is; the later render is named.',
    wrongEndpoint:
      "responseId \"{{responseId}}\" was {{where}}, and every event of it on this page went to {{endpoints}} ({{count}}: {{events}}), none to {{other}}/*: the {{other}} results were tracked on the {{kind}} endpoints. The provider's client sends each controller's events to its own kind's endpoints, so the service counts this {{other}} response's events as {{kind}} traffic of a response it never served as {{kind}}.",
    otherKind:
      'responseId "{{responseId}}" is {{a}} {{other}} response\'s ({{where}}), yet this page sends it with {{endpoints}} in {{count}}: {{events}}. Each controller of the provider\'s client tracks its own response: {{kind}} events carry the responseId of the {{kind}} response whose results they are about, never one of a {{other}} response.',
    otherEndpoints:
      "responseId \"{{responseId}}\" is {{a}} {{other}} response's ({{where}}), yet this page sends it with {{endpoints}} in {{count}}: {{events}}, and shows no {{kind}} response (it rendered none): the {{other}} results' events went to the {{kind}} endpoints. The provider's client sends each controller's events to its own kind's endpoints, so the service counts them as {{kind}} traffic of a response it never served as {{kind}}, and the {{other}} response loses them.",
    wrongTag:
      'responseId "{{responseId}}" was issued by the sandbox\'s recommend API for widget "{{issuedTag}}", yet this page renders it as widget "{{tag}}" ({{render}}) and sends it with tag "{{tag}}" in {{count}}: {{events}}; {{tagWhy}}, and no "{{issuedTag}}" widget rendered it: the "{{issuedTag}}" widget tracks itself with the wrong tag. The provider\'s client tracks each widget with the tag it asked the recommend API for, so the service counts the "{{issuedTag}}" widget\'s traffic under "{{tag}}".',
  },
  fix: 'Take data.responseId from the response of the same controller (the one whose results the event is about).',
  fixes: {
    submitAsRedirect:
      'send nothing when the shopper submits the search box; the search page it opens tracks its own search (its render), and a redirect beacon is for a response that carries merchandising.redirect.',
    otherWidget:
      'use the "{{tag}}" widget\'s own responseId{{ownId}}: render and track each widget with the responseId of its own recommend response, not the "{{issuedTag}}" widget\'s.',
    sharedWidget:
      'use the "{{tag}}" widget\'s own responseId (the recommend API answers each tag with its own): render and track each widget with the responseId of its own recommend response, not the "{{firstTag}}" widget\'s.',
    wrongEndpoint:
      'send these events to {{other}}/* (the endpoints of the {{other}} results they are about), with the same responseId{{tagged}}.',
    otherKind:
      'take data.responseId from the {{kind}} response shown (its {{source}}), not from the {{other}} response.',
    otherEndpoints:
      "send these events to {{other}}/* with the same responseId{{tagged}}, as the rest of that response's events.",
    wrongTag:
      'send tag "{{issuedTag}}" with this responseId: the tag of the widget the recommend API answered it for (the tag the template or the tracking call gives this widget).',
  },
  listens: ['render', 'redirect', 'impression', 'clickthrough', 'addtocart'],
  // the kind the companion issued a responseId for, when no timeline of the site has shown it
  // pageResponses: another widget's render of the responseId on the page
  needs: { supersedes: true, origins: true, provenance: true, pageResponses: true },
};

export const responseIdCrossKind = defineRule({
  meta,
  // a responseId of another page or kind explains everything else about it here: the cause alone
  response(r, ctx) {
    if (r.responseId === '') return [];
    const here = r.events.filter((e) => e.accepted);
    if (here.length === 0) return [];
    let other: ResponseKind | undefined;
    let where = '';
    let originId: string | null = null;
    let issuedTag: string | undefined;
    const origin = ctx.kindOrigin(r.responseId);
    if (origin && origin.kind !== r.kind && !categoryRedirect(r, origin.kind, origin.event)) {
      other = origin.kind;
      originId = origin.eventId;
      where =
        origin.pageKey === ctx.page.key
          ? `first sent on this page with ${endpointOf(origin.kind, origin.event)} (${origin.eventId})`
          : `first sent with ${endpointOf(origin.kind, origin.event)} (${origin.eventId}) on page ${origin.pageLoadId} (${origin.pageUrl})`;
    } else {
      const issued = ctx.provenance?.issued(ctx.page.siteId, r.responseId);
      const kind = issued ? issuedKind(issued) : 'search';
      if (issued && kind !== r.kind && !categoryRedirect(r, kind, null)) {
        other = kind;
        issuedTag = issued.tag;
        where =
          issued.tag !== undefined
            ? `issued by the sandbox's recommend API for widget ${JSON.stringify(issued.tag)}`
            : `issued by the sandbox's ${kind} endpoint (${kind}.json, query ${JSON.stringify(issued.query)})`;
      }
    }
    if (other === undefined) return otherWidget(r, ctx, here);
    const events = [...new Set(here.map((e) => endpointOf(e.kind, e.event)))];
    const data = {
      responseId: r.responseId,
      a: other === 'autocomplete' ? 'an' : 'a',
      other,
      where,
      endpoints: list(events),
      count: plural(here.length, 'event'),
      events: list(here.map((e) => e.id)),
      kind: r.kind,
      source:
        r.kind === 'recommendations' || r.kind === 'bundles'
          ? 'recommend response, per widget'
          : 'tracking.responseId',
    };
    // only search/redirects of a dropdown response the sandbox issued without a redirect: the search box's
    // submit tracked as a redirect (ACC sends a redirect only for a response that carries one)
    const asked = ctx.provenance?.issued(ctx.page.siteId, r.responseId);
    if (
      other === 'autocomplete' &&
      r.kind === 'search' &&
      asked !== undefined &&
      asked.redirect === null &&
      here.every((e) => e.event === 'redirect')
    )
      return [
        finding(
          meta,
          r.responseId,
          { messageId: 'submitAsRedirect', data },
          [...(originId ? [originId] : []), ...here.map((e) => e.id)],
          { responseId: r.responseId },
        ),
      ];
    // the companion's record says what it is and no event of its own kind carries it here: the whole
    // response went to the wrong endpoints (a dropdown tracked with the search tracker), not a stray id
    const wrongEndpoint = originId === null && !trackedAs(r, ctx, other);
    const tagged = issuedTag !== undefined ? ` and tag ${JSON.stringify(issuedTag)}` : '';
    // no response of this kind shown here to take a responseId from: the events went to the wrong endpoints
    const messageId = wrongEndpoint
      ? 'wrongEndpoint'
      : !showsOwn(r, ctx)
        ? 'otherEndpoints'
        : 'otherKind';
    return [
      finding(
        meta,
        r.responseId,
        { messageId, data: { ...data, tagged } },
        [...(originId ? [originId] : []), ...here.map((e) => e.id)],
        { responseId: r.responseId },
      ),
    ];
  },
});

/** Does any event of this page carry the responseId on the endpoints of `kind`? */
function trackedAs(r: Response, ctx: RuleContext, kind: ResponseKind): boolean {
  for (const o of ctx.page.responses.values())
    if (o !== r && o.kind === kind && o.responseId === r.responseId && o.events.length > 0)
      return true;
  return false;
}

/**
 * Does the page show a response of `r`'s kind (one rendered here, `r` itself included: a listing rendered
 * with a stray responseId is shown too)?
 */
function showsOwn(r: Response, ctx: RuleContext): boolean {
  for (const o of ctx.page.responses.values())
    if (o.kind === r.kind && o.events.some((e) => e.accepted && e.event === 'render')) return true;
  return false;
}

/** The first of a response's accepted renders, by time (then arrival). */
function firstRender(r: Response): TimelineEvent | undefined {
  let first: TimelineEvent | undefined;
  for (const e of r.facts.renders)
    if (!first || e.time < first.time || (e.time === first.time && e.seq < first.seq)) first = e;
  return first;
}

/**
 * A widget's render of a responseId that belongs to another widget of its kind: one the companion issued
 * for another tag (`otherWidget`), or, without the companion's record, one this page rendered with another
 * tag first (`sharedWidget`). Its events are the widget's own (the tag it rendered with); a widget's events
 * sent with another widget's tag and no render of their own are missing-render's (otherTag).
 */
function otherWidget(r: Response, ctx: RuleContext, here: readonly TimelineEvent[]) {
  if (!isWidgetKind(r.kind)) return [];
  const render = firstRender(r);
  if (!render) return [];
  const issued = ctx.provenance?.issued(ctx.page.siteId, r.responseId);
  const base = {
    responseId: r.responseId,
    tag: r.tag,
    render: `${endpointOf(r.kind, 'render')} ${render.id}`,
    count: plural(here.length, 'event'),
    events: list(here.map((e) => e.id)),
  };
  if (issued) {
    if (issuedKind(issued) !== r.kind || issued.tag === undefined || issued.tag === r.tag)
      return [];
    const owner = renderedBy(r, ctx, issued.tag);
    const own = ownEntry(issued, r.tag, ctx);
    // The widget it was issued for did not render it, and either no widget of this tag was asked for here
    // or that widget rendered its own response beside it: the tag this widget tracks itself with is the
    // fault, not the responseId.
    const ownShown = own && renderedBy({ kind: r.kind, responseId: own.responseId }, ctx, r.tag);
    const askedHere = ctx.provenance
      ?.issuedTo(ctx.page.siteId, ctx.page.pageLoadId)
      .some((o) => o.tag === r.tag && issuedKind(o) === r.kind);
    const tagWhy = ownShown
      ? `the "${r.tag}" widget rendered its own response ("${own.responseId}", ${endpointOf(r.kind, 'render')} ${ownShown.id}) beside it`
      : !own && !askedHere
        ? `no recommend request of this page asked for a "${r.tag}" widget`
        : undefined;
    const wrongTag = !owner && tagWhy !== undefined;
    const data = {
      ...base,
      issuedTag: issued.tag,
      alsoRendered: owner
        ? ` The "${issued.tag}" widget rendered it too (${endpointOf(r.kind, 'render')} ${owner.id}), as its own.`
        : '',
      ownId: own
        ? ` ("${own.responseId}", which the same recommend request answered for "${r.tag}")`
        : '',
      tagWhy: tagWhy ?? '',
    };
    return [
      finding(
        meta,
        r.responseId,
        { messageId: wrongTag ? 'wrongTag' : 'otherWidget', data },
        here.map((e) => e.id),
        { responseId: r.responseId },
      ),
    ];
  }
  // without the record: the page's earlier render of this responseId by another widget of the kind
  let first: { tag: string; render: TimelineEvent } | undefined;
  for (const o of ctx.page.responses.values()) {
    if (o === r || o.kind !== r.kind || o.responseId !== r.responseId || o.tag === r.tag) continue;
    const theirs = firstRender(o);
    if (!theirs) continue;
    const before =
      theirs.time < render.time ||
      (theirs.time === render.time &&
        (theirs.seq < render.seq || (theirs.seq === render.seq && o.tag < r.tag)));
    if (before && (!first || theirs.time < first.render.time))
      first = { tag: o.tag, render: theirs };
  }
  if (!first) return [];
  const data = {
    ...base,
    firstTag: first.tag,
    firstRender: `${endpointOf(r.kind, 'render')} ${first.render.id}`,
  };
  return [
    finding(
      meta,
      r.responseId,
      { messageId: 'sharedWidget', data },
      here.map((e) => e.id),
      { responseId: r.responseId },
    ),
  ];
}

/** The first render of `tag`'s widget of this responseId on the page, when it rendered it. */
function renderedBy(
  r: Pick<Response, 'kind' | 'responseId'>,
  ctx: RuleContext,
  tag: string,
): TimelineEvent | undefined {
  for (const o of ctx.page.responses.values())
    if (o.kind === r.kind && o.tag === tag && o.responseId === r.responseId) return firstRender(o);
  return undefined;
}

/** how far apart the recommend API records the widgets of one request, at most */
const ONE_REQUEST_MS = 2_000;

/**
 * The entry the same recommend request answered for `tag` (of the same kind, recorded within
 * ONE_REQUEST_MS: the API answers a request's widgets one after the other): the responseId the widget
 * should have rendered. The closest in time among the site's newest issued responses, the smaller
 * responseId among equals (live and `check` remember them in other orders).
 */
function ownEntry(
  issued: IssuedResponse,
  tag: string,
  ctx: RuleContext,
): IssuedResponse | undefined {
  let best: IssuedResponse | undefined;
  let n = 0;
  for (const o of ctx.provenance?.recent(ctx.page.siteId) ?? []) {
    if (++n > 200) break;
    if (o.tag !== tag || issuedKind(o) !== issuedKind(issued)) continue;
    const d = Math.abs(o.issuedAt - issued.issuedAt);
    if (d > ONE_REQUEST_MS) continue;
    const bestD = best ? Math.abs(best.issuedAt - issued.issuedAt) : Infinity;
    if (d < bestD || (d === bestD && best && o.responseId < best.responseId)) best = o;
  }
  return best;
}
