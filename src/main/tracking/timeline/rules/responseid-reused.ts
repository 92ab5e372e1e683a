// `responseid-reused`: a responseId first seen on another page (another search or session), or asked for
// by another page load where the client's cache could not have served it here: a stale id. Three causes
// that are not a stored id get messages of their own, each from what the client never does: a render from
// another host and session seconds before this page's own (`serverRender`: the client creates every event
// in the browser), a click under new ids on the same URL seconds after another session rendered the
// response, with no render here (`secondTracker`: one tracker per page makes its ids once), and the whole
// sequence of a response sent from a later page that does not make its search, by an asker that sent
// none of it (`sentLater`: the client builds an event's context as it creates it, and sends within 300 ms).
import { describe, duration, finding, list, plural, defineRule, type RuleMeta } from './types';
import { endpointOf } from '../../../../shared/kinds';
import type { Page } from '../page';
import { describeSearch, sameSearch } from './utils/search-params';
import { issuedFor } from './utils/provenance';
import { withoutHash } from './utils/request-context';
import { CACHE_MS } from './utils/listing-renders';
import type { Response } from '../response';
import type { ResponseOrigin, RuleContext } from './types';
import type { TimelineEvent } from '../model';

const meta: RuleMeta<'response'> = {
  id: 'responseid-reused',
  judges: ['response'],
  title: 'responseId from another page',
  description:
    'A responseId first seen on another page load with a different path or session, or for the same search where the client’s cache could not serve it (development mode, or more than its 5 minutes later); or asked for by another page load (the companion knows who asked) where the cache could not have served it here: a stale id reused.',
  expects: 'Every event on a page reuses the responseId of that page’s own search response.',
  appliesTo: ['search', 'category', 'autocomplete', 'recommendations', 'bundles'],
  guards: [
    'search.response-bound',
    'search.render-cached',
    'category.events',
    'identity.page-load',
    'autocomplete.events',
    'recommendations.events',
    'bundles.widget',
  ],
  defaultSeverity: 'error',
  messages: {
    serverRender:
      "responseId \"{{responseId}}\" was first rendered by page load {{originPage}} at {{originUrl}} ({{originEvent}}) under another session, {{after}} before this page ({{pageUrl}}) rendered it, on another host: the server that rendered this page sent that render (server-side rendering). The provider's client creates every event in the browser, with the page's href and the browser's ids, so a render from another host and session moments before the browser's own is the server's: the provider counts two renders of one search, one of them by a visitor who never existed.",
    secondTracker:
      '{{events}} on this page load ({{pageUrl}}) {{names}} responseId "{{responseId}}", which page load {{originPage}} rendered at the same URL {{after}} earlier under another session ("{{originSession}}"), and this page load rendered nothing: the page went on tracking under new ids. The provider\'s client makes the userId, sessionId and pageLoadId once per page (one tracker; the ids kept in its cookies and localStorage), so a second tracker was started on the page (a consent manager that creates a new Beacon when the shopper accepts, throwing the first one\'s ids away): the visit is split in two, and the click\'s credit leaves the session that searched.',
    sentLater:
      "{{events}} of responseId \"{{responseId}}\" arrived on this page load ({{pageUrl}}), but page load {{asker}} asked for that search ({{askerUrl}}) and sent none of them, and this page does not make it ({{search}}): they were created on that page and sent from this one, with this page's context. The provider's client builds an event's context as it creates it and sends it within 300 ms, and its cache serves a response only to a page that makes the same search; a queue that held the tracking calls and replayed them here (a consent manager holding tracking until the shopper accepts, a tag that fires on the next page) moves the search's events to the wrong page: its impressions look instant, and its click is credited to a page that never showed the results.",
    clickOnArrival:
      '{{events}} on this page ({{pageUrl}}) {{names}} responseId "{{responseId}}" of page {{originPage}} ({{originUrl}}, first seen in {{originEvent}}), {{after}} after this page load began: the click was sent by the page it led to, on its arrival, not by the listing. The provider\'s client sends a clickthrough at once when the shopper clicks the tile (with keepalive, so it outlives the navigation), under the listing\'s page load; sent here, it names a page that never showed the tile.',
    askedElsewhere:
      'responseId "{{responseId}}" was asked for by page load {{asker}} ({{askerUrl}}), yet this page load ({{pageUrl}}) sends it in {{count}}: {{events}}, {{why}}. A response belongs to the page load that searched; only the client\'s cache serves it to another, in production and for 5 minutes.',
    reused:
      "responseId \"{{responseId}}\" belongs to page {{originPage}} ({{originUrl}}, first seen in {{originEvent}}){{where}}, yet this page ({{pageUrl}}) sends it again in {{count}}: {{events}}. The spec expects every event on a page to reuse the responseId of that page's own search response; an id carried over from another page is stale. Only a re-visit of the same search (same path and search parameters, in the same session, in production mode, within the cache's 5 minutes) may re-render a cached response's id.",
  },
  fix: 'Take data.responseId from the search response shown on this page; never store and resend it elsewhere.',
  fixes: {
    serverRender:
      'send tracking only from the browser (after hydration, from an effect): the server render must not call the tracker.',
    secondTracker:
      'create the tracker once per page; when consent arrives, keep that instance and its ids (let it persist them) instead of constructing a new Beacon.',
    sentLater:
      'let the provider’s client send each event from the page that made it: start the tracker once consent is given (or in its cookieless mode) instead of queueing its calls and replaying them on a later page.',
    clickOnArrival:
      "send {{clickthrough}} from the listing when the tile is clicked (the provider's track.product.click, at once with keepalive), not from the page the click leads to.",
    askedElsewhere:
      'take data.responseId from the search this page load made; do not carry a response over from the page that asked for it.',
    reused:
      'take data.responseId from the search response shown on this page; do not store it and send it elsewhere.',
  },
  listens: ['render', 'redirect', 'impression', 'clickthrough', 'addtocart'],
  // who asked for a response, when the companion issued it
  needs: { supersedes: true, origins: true, provenance: true },
};

/**
 * how long after a page load rendered a response the same page may go on under a second tracker's ids (a
 * session's life: a shopper who accepts the consent banner does so while the page is open)
 */
const SECOND_TRACKER_MS = 30 * 60_000;

/** a server's render of a page reaches the browser, which renders it again, within this */
const SERVER_RENDER_MS = 10_000;

/** The host of a URL ('' when it is none). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/** how soon after a page load began a click of another page's tile reads as sent on its arrival */
const ARRIVAL_MS = 2_000;

/** The time of the page's first event (its responses' and its visit events'). */
function pageStart(page: Page): number {
  let t = Infinity;
  for (const o of page.responses.values()) for (const e of o.events) if (e.time < t) t = e.time;
  for (const v of page.visitEvents) if (v.base.time < t) t = v.base.time;
  return t;
}

export const responseIdReused = defineRule({
  meta,
  // a responseId of another page or kind explains everything else about it here: the cause alone
  response(r, ctx) {
    if (r.responseId === '') return [];
    const origin = ctx.origin(r.responseId);
    if (!origin || origin.pageKey === ctx.page.key) return askedElsewhere(r, ctx);
    // The provider's client caches search responses by their request parameters for the session: coming
    // back to the same search (back button, reload after 10 s, the same search with utm_* added) re-renders
    // the same responseId on a new pageLoadId. That is fine. Another path, or other search parameters
    // (another query, filter, sort or page), cannot be served that response: the id is stale.
    const here = r.events.filter((e) => e.accepted);
    if (here.length === 0) return [];
    // the cache is off in development mode, and keeps a response CACHE_MS: beyond either it is stale
    // (a cached response is rendered again: without a render here, no cache served it: missing-render's)
    const rendered = here[0]!.event === 'render';
    const cacheOff = rendered && origin.dev && here[0]!.dev;
    const expired = rendered && here[0]!.time - origin.time > CACHE_MS;
    const sameRequest = origin.sessionId === r.sessionId && sameSearch(origin.pageUrl, r.pageUrl);
    if (sameRequest && !cacheOff && !expired) return [];
    const where = !sameRequest
      ? origin.sessionId !== r.sessionId
        ? ` in another session ("${origin.sessionId}")`
        : ` (search: ${describeSearch(origin.pageUrl)}; this page: ${describeSearch(r.pageUrl)})`
      : cacheOff
        ? ` for the same search, but both pages run in development mode, where the provider's client does not cache search responses (every search is a new request with a new responseId)`
        : ` for the same search, ${Math.round((here[0]!.time - origin.time) / 60_000)} minutes earlier: the provider's client keeps a cached response 5 minutes, then searches again and gets a new responseId`;
    const data = {
      responseId: r.responseId,
      originPage: origin.pageLoadId,
      originUrl: origin.pageUrl,
      originEvent: origin.eventId,
      where,
      pageUrl: r.pageUrl,
      count: plural(here.length, 'event'),
      events: list(here.map((e) => e.id)),
    };
    return [
      finding(
        meta,
        r.responseId,
        howItCame(r, ctx.page, origin, here, data),
        [origin.eventId, ...here.map((e) => e.id)],
        {
          responseId: r.responseId,
          // the same search that the cache could not serve again (development, past its minutes) is the
          // cached render's; another search or session is the response's own binding
          behaviour: sameRequest ? 'search.render-cached' : 'search.response-bound',
        },
      ),
    ];
  },
});

/**
 * How another page's responseId came here, as the message that says so: a listing's click sent by the
 * page it led to as it loads (the same session), a server's render, a second tracker on the same page
 * (another session), or else a stored id (`reused`).
 */
function howItCame(
  r: Response,
  page: Page,
  origin: ResponseOrigin,
  here: readonly TimelineEvent[],
  data: Readonly<Record<string, string>>,
): { messageId: string; data: Readonly<Record<string, string>> } {
  const first = here[0]!;
  const named = {
    events: list(here.map((e) => describe(e))),
    names: here.length === 1 ? 'names' : 'name',
  };
  if (origin.sessionId === r.sessionId) {
    const begun = here.every((e) => e.event === 'clickthrough')
      ? first.time - pageStart(page)
      : Infinity;
    return begun <= ARRIVAL_MS
      ? {
          messageId: 'clickOnArrival',
          data: {
            ...data,
            ...named,
            after: duration(Math.max(0, begun)),
            clickthrough: endpointOf(r.kind, 'clickthrough'),
          },
        }
      : { messageId: 'reused', data };
  }
  // a render from another host and session moments before this one: the server that rendered the page
  const render = here.find((e) => e.event === 'render');
  if (
    render !== undefined &&
    origin.event === 'render' &&
    render.time >= origin.time &&
    render.time - origin.time <= SERVER_RENDER_MS &&
    hostOf(origin.pageUrl) !== hostOf(r.pageUrl)
  )
    return {
      messageId: 'serverRender',
      data: { ...data, after: duration(render.time - origin.time) },
    };
  // the same page, seconds later, under new ids and without a render of its own: a second tracker
  if (
    render === undefined &&
    withoutHash(origin.pageUrl) === withoutHash(r.pageUrl) &&
    first.time >= origin.time &&
    first.time - origin.time <= SECOND_TRACKER_MS
  )
    return {
      messageId: 'secondTracker',
      data: {
        ...data,
        ...named,
        after: duration(first.time - origin.time),
        originSession: origin.sessionId,
      },
    };
  return { messageId: 'reused', data };
}

/**
 * A response the companion issued to another page load of the same session (another session is
 * responseid-other-visitor's), sent here where the client's cache could not have served it: the request
 * asked test=true or the events are dev (no cache in development), or its first event here came more than
 * CACHE_MS after the answer (by the sandbox's clock, which answered and received both). Exempt: a request
 * that named no page load, and any that the cache could have served (production, within its minutes). And,
 * within the cache's reach, a response rendered here whose asker sent none of its events (no other page
 * carried it: this branch runs only then) at a URL that does not make its search (the cache serves a
 * response only to the same request): its events were made on the asker and sent from here (`sentLater`).
 */
function askedElsewhere(r: Response, ctx: RuleContext) {
  const issued = issuedFor(r, ctx);
  const asker = issued?.requester;
  if (!issued || !asker?.pageLoadId || asker.pageLoadId === ctx.page.pageLoadId) return [];
  if (asker.sessionId && asker.sessionId !== r.sessionId) return [];
  const here = r.events.filter((e) => e.accepted);
  const first = here[0];
  if (!first) return [];
  const after = (first.receivedMs ?? first.time) - issued.issuedAt;
  const why =
    issued.test || first.dev
      ? "in development mode, where the provider's client does not cache responses"
      : after > CACHE_MS
        ? `${Math.round(after / 60_000)} minutes after it was answered, past the client's 5-minute cache`
        : null;
  if (why === null) {
    // within the cache's reach: the whole sequence moved here from a page that does another search
    if (
      asker.pageUrl === undefined ||
      !here.some((e) => e.event === 'render') ||
      sameSearch(asker.pageUrl, r.pageUrl)
    )
      return [];
    return [
      finding(
        meta,
        r.responseId,
        {
          messageId: 'sentLater',
          data: {
            responseId: r.responseId,
            asker: asker.pageLoadId,
            askerUrl: asker.pageUrl,
            pageUrl: r.pageUrl,
            events: list(here.map((e) => describe(e))),
            search: `this page: ${describeSearch(r.pageUrl)}; the search: ${describeSearch(asker.pageUrl)}`,
          },
        },
        here.map((e) => e.id),
        { responseId: r.responseId, behaviour: 'search.response-bound' },
      ),
    ];
  }
  const data = {
    responseId: r.responseId,
    asker: asker.pageLoadId,
    askerUrl: asker.pageUrl ?? 'its URL unknown',
    pageUrl: r.pageUrl,
    count: plural(here.length, 'event'),
    events: list(here.map((e) => e.id)),
    why,
  };
  return [
    finding(
      meta,
      r.responseId,
      { messageId: 'askedElsewhere', data },
      here.map((e) => e.id),
      // seen on another page load than the one that asked, where no cache served it: copied
      { responseId: r.responseId, behaviour: 'search.response-bound' },
    ),
  ];
}
