// `responseid-other-visitor` (error): an event names a response the sandbox issued to another visitor: its
// search request carried one userId (or sessionId) and the event carries another.
//
// Why it is certain: the provider's controllers put the tracker's own context on every search, category
// and autocomplete request (SearchController and AutocompleteController: `params.tracking` = userId,
// sessionId and pageLoadId from tracker.getContext()), and the beacons of the response are created by the
// same tracker, which reads its userId and sessionId once and keeps them for the page's life (B getContext:
// `this.userId || this.getUserId()`, the same for the sessionId). The client's cache that may serve a
// response again lives 5 minutes in sessionStorage, one tab, where the session (30 minutes from the last
// page load) is still the same. So a response reaches only the visitor and the session that asked for it.
// What it exempts: a request that carried no userId (or no sessionId: then only the userId is compared) —
// a server's search, a test, nothing binds it; responses the sandbox did not issue; and another sessionId
// on the very page load that asked, when that page's own sessionId (its first accepted event's) is the one
// the request carried, or when the page's own events (of the request's userId) carry more than one
// sessionId: the page's events switched sessionId midway, or read a new one for each call (the search's
// among them), and the responseId is the page's own.
// That is one fault, the page's ids read again, which context-drift names on the page (each event that
// carries another sessionId than the page's); this rule would only say it again as a copied responseId.
// Another userId is still judged there (another visitor sharing the pageLoadId), and so is a page load
// whose own sessionId is not its request's (it searched with other ids than it tracks with).
import type { TimelineEvent } from '../model';
import { finding, defineRule, duration, type RuleMeta } from './types';
import { issuedFor, itemEvents } from './utils/provenance';

const meta: RuleMeta<'response'> = {
  id: 'responseid-other-visitor',
  judges: ['response'],
  title: 'responseId of another visitor’s search',
  description:
    'An event names a response whose search request the sandbox answered for another userId (or sessionId): the responseId was copied from another visitor’s page.',
  expects:
    'The beacons of a response carry the userId and sessionId its search request carried: the tracker that sends them is the one whose context the controller put on the request.',
  appliesTo: ['search', 'category', 'autocomplete'],
  guards: [
    'search.response-bound',
    'search.request-context',
    'category.events',
    'identity.ids-per-page-load',
    'autocomplete.events',
    'category.request-context',
  ],
  defaultSeverity: 'error',
  messages: {
    otherUser:
      '{{eventId}} names response "{{responseId}}" with userId "{{carried}}", but the sandbox issued that response to userId "{{requested}}" (its search request’s userId) {{ago}} before. The provider’s client shows a response only to the browser that asked for it (its cache is per tab), so this responseId was copied from another visitor’s page: a page cached with someone else’s search in it, a server-side search made with other ids, or an id stored and reused.',
    otherSession:
      '{{eventId}} names response "{{responseId}}" with sessionId "{{carried}}", but the sandbox issued that response to sessionId "{{requested}}" (its search request’s sessionId) {{ago}} before. The tracker keeps its sessionId for the page’s life, and the client’s cache serves a response again only within its session. The provider’s client sends a response’s beacons from the tracker whose context went on its request, so this responseId was copied from another session’s page, or the search and the beacons use different ids.',
  },
  fix: 'Send the responseId of the response this page’s own search returned, and search with the tracker’s own context (userId, sessionId, pageLoadId) as the provider’s controllers do.',
  fixes: {
    otherUser:
      'do not cache pages (or server-side searches) with a responseId in them: let the browser search with its own userId and send the responseId its own response returned.',
    otherSession:
      'search with the tracker’s own context (the controllers put getContext()’s userId, sessionId and pageLoadId on the request) and send the responseId of this page’s own response.',
  },
  listens: ['render', 'redirect', 'impression', 'clickthrough', 'addtocart'],
  needs: { provenance: true },
  judgesOnlyWith: ['issued'],
  notJudged: {
    recommendations:
      'the recommend API’s requests carry no userId or sessionId: nothing binds a widget’s response to a visitor',
    bundles:
      'the recommend API’s requests carry no userId or sessionId: nothing binds a widget’s response to a visitor',
  },
};

/**
 * Which behaviour the ids that differ break: another visitor's response was copied here, as was one asked
 * for by another page load (a response is bound to who asked); the same page load searched in another
 * session than its beacons carry (it read its ids twice); a request without a page load's context (a
 * server's search) asked for it.
 */
function behaviourOf(user: boolean, asker: string | undefined, pageLoadId: string): string {
  if (user || (asker !== undefined && asker !== pageLoadId)) return 'search.response-bound';
  return asker === undefined ? 'search.request-context' : 'identity.ids-per-page-load';
}

export const responseIdOtherVisitor = defineRule({
  meta,
  response(r, ctx) {
    const issued = issuedFor(r, ctx);
    const asked = issued?.requester;
    if (!issued || !asked || (asked.userId === undefined && asked.sessionId === undefined))
      return [];
    const f = r.facts;
    const events: TimelineEvent[] = [...f.renders, ...f.redirects, ...itemEvents(r)];
    // the page that asked, begun with the request's sessionId or carrying several sessionIds of the
    // request's userId: another sessionId here is its drift
    const page = ctx.page;
    const ownDrift =
      asked.pageLoadId === page.pageLoadId &&
      (asked.sessionId === page.sessionId ||
        ((page.tallies.otherSessionIds?.size ?? 0) > 0 &&
          asked.userId === page.userId &&
          !page.tallies.otherUserIds?.size));
    let other: { ev: TimelineEvent; user: boolean } | undefined;
    for (const ev of events) {
      if (asked.userId !== undefined && ev.userId !== '' && ev.userId !== asked.userId) {
        other = { ev, user: true };
        break;
      }
      if (
        !other &&
        !ownDrift &&
        asked.sessionId !== undefined &&
        ev.sessionId !== '' &&
        ev.sessionId !== asked.sessionId
      )
        other = { ev, user: false };
    }
    if (!other) return [];
    const { ev, user } = other;
    return [
      finding(
        meta,
        r.responseId,
        {
          messageId: user ? 'otherUser' : 'otherSession',
          data: {
            eventId: ev.id,
            responseId: r.responseId,
            carried: user ? ev.userId : ev.sessionId,
            requested: (user ? asked.userId : asked.sessionId) ?? '',
            ago: duration(Math.max(0, (ev.receivedMs ?? issued.issuedAt) - issued.issuedAt)),
          },
        },
        [ev.id],
        {
          responseId: r.responseId,
          behaviour: behaviourOf(user, asked.pageLoadId, ctx.page.pageLoadId),
        },
      ),
    ];
  },
});
